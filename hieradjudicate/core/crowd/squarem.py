"""EM to its fixed point, plain or accelerated by SQUAREM (Varadhan & Roland 2008), on a flat parameter vector.

Both take the model's ``e_step(theta) -> (posteriors, log-likelihood)`` and
``m_step(posteriors) -> theta``; one *EM step* is an E-step and an M-step, the
map ``F``.  ``max_iter`` bounds the number of EM steps in both (an accelerated
cycle makes three).

**Converged** means near the fixed point, not merely moving slowly (#36).  EM
converges linearly: near the fixed point every step shrinks the distance to it
by about a rate ``lambda < 1``, so a step that moves the parameters by ``c``
leaves them about ``c / (1 - lambda)`` from the fixed point (the sum of the
steps still to come).  A run is converged when that estimate, taken over the
parameters *and* the posteriors, is below ``tol``::

    distance = max(max |F(theta) - theta|, max |post(theta) - post(previous)|) / (1 - lambda)

where ``lambda`` is the largest of the last :data:`RATES` observed ratios of successive
plain-step lengths (and the distance is infinite when that ratio is 1 or more:
a run that creeps at a constant pace, as EM does towards a boundary, is not
converged however small its steps -- down to the rounding floor :data:`FLOOR`, where a step counts
as a step of 0),
after at least ``min_iter`` EM steps.  A competence is a mean of posteriors, so
it is bounded with them.  The old rule (a step moving no parameter by ``tol``)
stopped where the rate was near 1 and the fixed point still far (MASC ``say-v``
at 679 of the 1,153 iterations it needs: three instances on another sense).

SQUAREM ("S3", with the step-length rules of the authors' R package SQUAREM):
from ``theta0``, ``theta1 = F(theta0)``, ``theta2 = F(theta1)``,
``r = theta1 - theta0``, ``v = theta2 - theta1 - r``, step ``a = |r| / |v|``
(kept in ``[1, step_max]``), ``theta' = theta0 + 2 a r + a^2 v``, then one EM
step from it to stabilise.  The monotonicity safeguard: the result is kept
only if it is a valid parameter (every probability that is not fixed at 0
positive) and its marginal log-likelihood is not below that of ``theta0``;
otherwise the cycle ends at ``theta2`` (plain EM's two steps) and ``step_max``
shrinks.  So the log-likelihood never falls from cycle to cycle, as under EM,
and the fixed points are EM's.  Convergence is tested on the two plain steps
that start every cycle (their ratio is the rate); a converged run returns
``theta1``, its posteriors and ``F(theta1)``, as plain EM returns its last
parameters, their posteriors and ``F`` of them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

STEP_MAX0 = 1.0  # the package's step.max0
MSTEP = 4.0  # the package's mstep: how fast step_max grows after a full step is taken
RATES = 5  #: the rate of convergence is the largest of this many last observed ratios


@dataclass
class Fit:
    theta: np.ndarray  # F(start)
    posts: list  # the posteriors of ``start``
    start: np.ndarray  # the last parameters a plain EM step was made from
    iterations: int  # EM steps made
    converged: bool
    change: float  # max |F(start) - start|: the last plain step's largest move
    loglik: list[float]  # the marginal log-likelihood at the start of every step (plain) or cycle (SQUAREM)
    extrapolations: int = 0  # accelerated cycles whose extrapolation was kept
    distance: float = float("inf")  # the estimated distance of parameters and posteriors from the fixed point
    steps: int = 0  # EM steps of the whole fit, a confirming restart included (set by its caller)
    runs: list = field(default_factory=list)  # (EM steps, final log-likelihood, escaped) of the run and each restart (set by its caller)


def posts_change(a: list, b: list) -> float:
    """The largest difference between two lists of posterior arrays."""
    return max((float(np.abs(x - y).max(initial=0.0)) for x, y in zip(a, b, strict=True)), default=0.0)


#: a plain step that moves no parameter by more than this is rounding: the EM map evaluated in floating
#: point at its fixed point (a few dozen units in the last place of a probability <= 1).  MASC number-n
#: ends a run stepping back and forth by one such unit (1.1e-16, a ratio of exactly 1), which read as a
#: rate of 1 made "creeping, not converged" for 4,600 steps on a machine whose exp and log round
#: otherwise in their last bit (AVX-512) than the one its figures were stored on
FLOOR = 1e-14


class Distance:
    """The distance estimate of the module docstring, fed with successive pairs of plain steps.

    A step at the rounding floor (:data:`FLOOR`) is a step of 0 up to rounding, and counts as one (a
    ratio of 0, as an exact zero step gives): the ratio of two such steps is that of two roundings
    (often exactly 1), not a rate.  So once :data:`RATES` pairs are at the floor the run is converged
    whatever ratios came before (an extrapolated cycle's steps can grow), while a run that creeps does
    so with steps above the floor, and keeps its rate 1."""

    def __init__(self) -> None:
        self.rates: list[float] = []

    def __call__(self, c1: float, c2: float, d_post: float) -> float:
        """``c1``, ``c2``: the largest moves of two successive plain steps; ``d_post``: the posteriors'
        largest move between them.  Returns the estimated distance after the first step."""
        rate = c2 / c1 if c1 > 0 and c2 > FLOOR else 0.0
        self.rates = [*self.rates[-(RATES - 1):], rate]
        lam = max(self.rates)
        return max(c2, d_post) / (1.0 - lam) if lam < 1.0 else float("inf")


def plain_em(e_step: Callable, m_step: Callable, theta: np.ndarray, *, max_iter: int, tol: float, min_iter: int,
             progress: Callable[[int, int], object] | None = None) -> Fit:
    posts: list = []
    prev_posts: list | None = None
    history: list[float] = []
    change = prev_change = float("nan")
    dist = float("inf")
    it = 0
    old = theta
    bound = Distance()
    for it in range(1, max_iter + 1):
        posts, ll = e_step(theta)
        history.append(ll)
        new = m_step(posts)
        change = float(np.abs(new - theta).max(initial=0.0))
        if prev_posts is not None:
            dist = bound(prev_change, change, posts_change(posts, prev_posts))
        old, theta = theta, new
        prev_posts, prev_change = posts, change
        if progress is not None:
            progress(it, max_iter)
        if it >= min_iter and dist < tol:
            return Fit(new, posts, old, it, True, change, history, 0, dist)
    return Fit(theta, posts, old, it, False, change, history, 0, dist)


#: terms of one BLAS dot in :func:`sq_norm` (OpenBLAS runs a dot of more than 10,000 on one thread)
DOT_CHUNK = 8192


def sq_norm(x: np.ndarray) -> float:
    """``x @ x``, one BLAS dot per :data:`DOT_CHUNK` terms, added in order.  OpenBLAS spreads a
    longer dot over every core: on a busy machine its waiting threads cost far more than the sum (a
    228-set crowd of 2,870 labels spent three quarters of its Dawid & Skene time in these two dots),
    and its rounding then depends on the number of threads.  A vector of at most DOT_CHUNK terms (each
    part of MASC) is added exactly as before."""
    if x.size <= DOT_CHUNK:
        return float(x @ x)
    return float(sum(float(c @ c) for c in (x[i:i + DOT_CHUNK] for i in range(0, x.size, DOT_CHUNK))))


def squarem(e_step: Callable, m_step: Callable, theta: np.ndarray, *, max_iter: int, tol: float, min_iter: int,
            progress: Callable[[int, int], object] | None = None) -> Fit:
    history: list[float] = []
    steps = 0
    kept = 0
    step_max = STEP_MAX0
    change = float("nan")
    dist = float("inf")
    bound = Distance()
    posts, ll0 = e_step(theta)
    free = theta != 0  # a probability fixed at 0 (a prior of an unused leaf) stays 0: r = v = 0 there

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
        c1 = float(np.abs(r).max(initial=0.0))
        if steps >= max_iter:
            return Fit(theta1, posts, theta, steps, False, c1, history, kept, dist)
        posts1, _ = e_step(theta1)
        theta2 = step(posts1)
        change = float(np.abs(theta2 - theta1).max(initial=0.0))
        dist = bound(c1, change, posts_change(posts1, posts))
        if steps >= min_iter and dist < tol:
            return Fit(theta2, posts1, theta1, steps, True, change, history, kept, dist)
        v = theta2 - theta1 - r
        sv = float(np.sqrt(sq_norm(v)))
        a = min(max(float(np.sqrt(sq_norm(r))) / sv if sv > 0 else 1.0, 1.0), step_max)
        nxt = None
        if a > 1.01 and steps < max_iter:
            # a probability extrapolated to zero or below is no parameter: the step is shortened (halfway
            # to plain EM's) until none is
            prop = theta + 2 * a * r + a * a * v
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
    return Fit(theta, posts, theta, steps, False, change, history, kept, dist)
