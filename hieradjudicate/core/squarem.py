"""EM to convergence, plain or accelerated by SQUAREM (Varadhan & Roland 2008), on a flat parameter vector.

Both take the model's ``e_step(theta) -> (posteriors, log-likelihood)`` and
``m_step(posteriors) -> theta``; one *EM step* is an E-step and an M-step, the
map ``F``.  Converged means: a plain EM step from the current parameters moves
none of them by ``tol`` or more (``max |F(theta) - theta| < tol``), after at
least ``min_iter`` EM steps; the accelerated run tests exactly that, on the
plain step it makes at the start of every cycle, and returns, like plain EM,
the posteriors of the last parameters and ``F`` of them.  ``max_iter`` bounds
the number of EM steps in both (an accelerated cycle makes three).

SQUAREM ("S3", with the step-length rules of the authors' R package SQUAREM):
from ``theta0``, ``theta1 = F(theta0)``, ``theta2 = F(theta1)``,
``r = theta1 - theta0``, ``v = theta2 - theta1 - r``, step ``a = |r| / |v|``
(kept in ``[1, step_max]``), ``theta' = theta0 + 2 a r + a^2 v``, then one EM
step from it to stabilise.  The monotonicity safeguard: the result is kept
only if it is a valid parameter (every probability positive) and its marginal
log-likelihood is not below that of ``theta0``; otherwise the cycle ends at
``theta2`` (plain EM's two steps) and ``step_max`` shrinks.  So the
log-likelihood never falls from cycle to cycle, as under EM, and the fixed
points are EM's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

STEP_MAX0 = 1.0  # the package's step.max0
MSTEP = 4.0  # the package's mstep: how fast step_max grows after a full step is taken


@dataclass
class Fit:
    theta: np.ndarray  # F(start)
    posts: list  # the posteriors of ``start``
    start: np.ndarray  # the last parameters a plain EM step was made from
    iterations: int  # EM steps made
    converged: bool
    change: float  # max |F(theta) - theta| of the last plain step
    loglik: list[float]  # the marginal log-likelihood at the start of every step (plain) or cycle (SQUAREM)
    extrapolations: int = 0  # accelerated cycles whose extrapolation was kept


def plain_em(e_step: Callable, m_step: Callable, theta: np.ndarray, *, max_iter: int, tol: float, min_iter: int,
             progress: Callable[[int, int], object] | None = None) -> Fit:
    posts: list = []
    history: list[float] = []
    change = float("nan")
    it = 0
    old = theta
    for it in range(1, max_iter + 1):
        posts, ll = e_step(theta)
        history.append(ll)
        new = m_step(posts)
        change = float(np.abs(new - theta).max(initial=0.0))
        old, theta = theta, new
        if progress is not None:
            progress(it, max_iter)
        if it >= min_iter and change < tol:
            return Fit(new, posts, old, it, True, change, history)
    return Fit(theta, posts, old, it, False, change, history)


def squarem(e_step: Callable, m_step: Callable, theta: np.ndarray, *, max_iter: int, tol: float, min_iter: int,
            progress: Callable[[int, int], object] | None = None) -> Fit:
    history: list[float] = []
    steps = 0
    kept = 0
    step_max = STEP_MAX0
    change = float("nan")
    posts, ll0 = e_step(theta)

    def step(p):
        nonlocal steps
        new = m_step(p)
        steps += 1
        if progress is not None:
            progress(steps, max_iter)
        return new

    while steps < max_iter:
        history.append(ll0)
        theta1 = step(posts)
        r = theta1 - theta
        change = float(np.abs(r).max(initial=0.0))
        if steps >= min_iter and change < tol:
            return Fit(theta1, posts, theta, steps, True, change, history, kept)
        if steps >= max_iter:
            return Fit(theta1, posts, theta, steps, False, change, history, kept)
        posts1, _ = e_step(theta1)
        theta2 = step(posts1)
        v = theta2 - theta1 - r
        sv = float(np.sqrt(v @ v))
        a = min(max(float(np.sqrt(r @ r)) / sv if sv > 0 else 1.0, 1.0), step_max)
        nxt = None
        if a > 1.01 and steps < max_iter:
            # a probability extrapolated to zero or below is no parameter: the step is shortened (halfway
            # to plain EM's) until none is
            prop = theta + 2 * a * r + a * a * v
            free = theta != 0  # a prior fixed at 0 (an unused leaf) stays 0: r = v = 0 there
            while a > 1.01 and not np.all(prop[free] > 0):
                a = 1.0 + (a - 1.0) / 2
                prop = theta + 2 * a * r + a * a * v
            if np.all(prop[free] > 0):
                pp, _ = e_step(prop)
                cand = step(pp)
                pc, llc = e_step(cand)
                if np.isfinite(llc) and llc >= ll0:  # the safeguard: never below where the cycle started
                    nxt = cand, pc, llc
                    kept += 1
            if nxt is None:
                step_max = max(STEP_MAX0, step_max / MSTEP)
                a = 1.0
        if nxt is None:
            posts2, ll2 = e_step(theta2)
            nxt = theta2, posts2, ll2
        if a == step_max:
            step_max *= MSTEP
        theta, posts, ll0 = nxt
    # out of EM steps: the parameters reached, with their posteriors, not converged
    return Fit(theta, posts, theta, steps, False, change, history, kept)
