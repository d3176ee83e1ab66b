"""Dawid & Skene run lexelt by lexelt (used by :func:`hieradjudicate.core.crowd.competence.dawid_skene`).

Lexelts share no parameter (a confusion matrix is per annotator *and lexelt*, a prior per lexelt),
so the EM of a corpus is one independent EM per lexelt, and its fixed point is theirs.  Run as one
EM (as before #36) every lexelt took as many iterations as the slowest (MASC: ``common-j`` needs
~1,700 accelerated EM steps where most words settle in 40-200), one SQUAREM step length served
all of them, and "converged" was one test over all.  Here the lexelts are split into *parts*
(one lexelt each, lexelts with fewer than :data:`PART_LABELS` label entries packed together so
that a corpus of many small lexelts does not pay a Python loop per lexelt and iteration), each
part is its own :class:`hieradjudicate.core.crowd.ds_em.DSModel`, accelerated and stopped on its own,
and the figures are put back together.  A part holds its lexelts' entries in their original
order, so every sum adds the same terms in the same order as one model over all would.  A packed part
that has not converged within :data:`PACK_STEPS` EM steps is split, each of its lexelts fitted alone:
one lexelt that creeps (WSbest: 10 instances a lemma, a confusion probability moving ~5e-10 a step for
thousands of steps) then holds no other, and the lexelts not converged are named (``unconverged``).

The run's ``iterations`` is the largest number of EM steps a part made, ``converged`` that every
part converged, ``change`` and ``distance`` the largest over the parts, and the log-likelihood
history the sum over parts (a part that has stopped keeps its last value).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from hieradjudicate.core.crowd.ds_em import EPS, DSModel, write_blocks

#: lexelts with fewer label entries than this are packed together into one part
PART_LABELS = 1 << 13
#: a converged run is restarted from its posteriors mixed with this share of noise (see _confirmed).  The
#: point confirmed is a local maximum this noise does not leave, not the highest: on MASC a share of 5 %
#: leaves it in 43 of the 45 words, for higher likelihoods (+2,827 in all, 1,232 instances on another
#: sense), 20 % again in many (+3,939)
PROBE = 1e-2
#: the restart must come back within this many times the tolerance
AGREE = 10.0
#: a part of several lexelts runs together (one SQUAREM step length, one stop) for at most this many EM steps,
#: probes included; one that has not converged by then is split, each of its lexelts run on its own (so that
#: one lexelt that creeps holds no other, and is named).  WSbest (26 lexelts of 10 instances, one part):
#: 23 converge alone, 3 creep (a confusion probability moving ~5e-10 a step, no rate below 1)
PACK_STEPS = 500


@dataclass
class PartsFit:
    post: np.ndarray  # (T, K)
    errors: np.ndarray | None  # (W, X, K, K); None when not asked for
    priors: np.ndarray  # (X, K)
    iterations: int
    converged: bool
    change: float
    distance: float
    loglik: list[float]
    extrapolations: int
    label_passes: float = 0.0  # EM steps made (probes included) weighted by the parts' labels: the work in full passes
    runs: list[PartRuns] = field(default_factory=list)  # the work part by part
    unconverged: tuple[int, ...] = ()  # the lexelts whose fit did not converge (each named in the report)


@dataclass(frozen=True)
class PartRuns:
    """The runs of one part: the first and each probe, in order (where the work of a fit goes)."""

    lexelts: tuple[int, ...]  # those with labels
    labels: int  # label entries of the part
    steps: tuple[int, ...]  # EM steps of each run
    loglik: tuple[float, ...]  # the log-likelihood where each run ended
    escaped: tuple[bool, ...]  # each probe: it left for a higher log-likelihood (the fit went on from it); the first run: False
    split: bool = False  # the steps these lexelts made together before their part was split (each has its own runs after)


def _parts(per_x: np.ndarray) -> np.ndarray:
    """The part of every lexelt: lexelts in order, a part closed once it holds PART_LABELS entries."""
    part = np.zeros(per_x.size, np.int64)
    p, held = 0, 0
    for x, n in enumerate(per_x.tolist()):  # a loop over lexelts, not over labels
        if n and held >= PART_LABELS:
            p, held = p + 1, 0
        part[x] = p
        held += n
    return part


class _Back(Exception):
    """A probe came back (see :class:`_Watch`)."""


class _Watch:
    """The EM map of a probe, stopping it (:class:`_Back`) as soon as the posteriors of a point it reaches
    are within ``tol`` of those probed: it has come back, and its own convergence would only tell the
    same (the probe's figures are never used, only its verdict).  ``m_step(mixed)``, the probe's start,
    is not an EM step."""

    def __init__(self, model: DSModel, posts: list, tol: float) -> None:
        self.model, self.posts, self.tol = model, posts, tol
        self.steps = -1
        self.loglik = float("nan")

    def m_step(self, posts: list) -> np.ndarray:
        self.steps += 1
        return self.model.m_step(posts)

    def e_step(self, theta: np.ndarray):
        from hieradjudicate.core.crowd.squarem import posts_change

        posts, ll = self.model.e_step(theta)
        if self.steps > 0 and posts_change(posts, self.posts) <= self.tol:
            self.loglik = ll
            raise _Back
        return posts, ll

    def came_back(self, theta: np.ndarray) -> bool:
        """Whether the point a run cut short by its bound returned (``theta``, after its last step) is back."""
        try:
            self.e_step(theta)
        except _Back:
            return True
        return False


def _confirmed(model: DSModel, run: Callable, theta: np.ndarray, *, max_iter: int, tol: float, min_iter: int,
               progress: Callable[[int, int], object] | None):
    """``run`` to convergence, then probed: restarted from its posteriors mixed with a little noise
    (:data:`PROBE`), it must come back to the same point (within :data:`AGREE` x tol) -- a stable fixed
    point does, a saddle's plateau, where EM also slows down and looks converged, does not (the restart
    leaves along the unstable direction).  An escaped run goes on from where the restart converged (a
    higher log-likelihood) and is probed again, until a probe comes back: converged means confirmed.
    A probe is stopped as soon as it is clearly back (:class:`_Watch`: its posteriors within tol of the
    point probed), not run on to its own convergence, which would tell the same (MASC: 3 % of the work).
    ``max_iter`` bounds the EM steps of the first run and every probe together; a fit that reaches it
    before a probe came back is *not converged* (its distance from a fixed point unknown: infinite), and
    its ``iterations`` are then every step made."""
    from hieradjudicate.core.crowd.squarem import posts_change

    fit = run(model.e_step, model.m_step, theta, max_iter=max_iter, tol=tol, min_iter=min_iter, progress=progress)
    steps = fit.iterations
    fit.runs = [(fit.iterations, fit.loglik[-1] if fit.loglik else float("nan"), False)]
    rng = np.random.default_rng(0)
    unconfirmed = False
    while fit.converged and tol > 0:
        if steps >= max_iter:  # the bound reached before any probe came back: not confirmed
            fit.converged = False
            unconfirmed = True
            break
        mixed = []
        for z in fit.posts:
            noise = rng.random(z.shape)
            mixed.append((1.0 - PROBE) * z + PROBE * noise / noise.sum(axis=0))
        tell = None if progress is None else (lambda k, n, done=steps: progress(done + k, max_iter))
        watch = _Watch(model, fit.posts, tol)
        try:
            probe = run(watch.e_step, watch.m_step, watch.m_step(mixed), max_iter=max_iter - steps, tol=tol,
                        min_iter=min_iter, progress=tell)
        except _Back:  # clearly back: its posteriors within tol of the point probed
            steps += watch.steps
            fit.runs.append((watch.steps, watch.loglik, False))
            break
        steps += probe.iterations
        if not probe.converged and watch.came_back(probe.theta):  # back at the bound's last step
            fit.runs.append((probe.iterations, watch.loglik, False))
            break
        fit.runs.append((probe.iterations, probe.loglik[-1] if probe.loglik else float("nan"), False))
        if not probe.converged:  # the restart did not settle (the bound came first): not confirmed
            fit.converged = False
            unconfirmed = True
            break
        if posts_change(probe.posts, fit.posts) <= AGREE * tol:
            break
        if probe.loglik[-1] <= fit.loglik[-1]:  # elsewhere, but no higher: keep the first
            break
        # escaped to a higher log-likelihood: go on from there; the history stays monotone (the
        # restart's own start, below where the first run ended, is left out)
        probe.loglik = fit.loglik + [v for v in probe.loglik if v > fit.loglik[-1]]
        probe.runs = fit.runs[:-1] + [(*fit.runs[-1][:2], True)]
        fit = probe
    if unconfirmed:  # no estimate: no fixed point was confirmed where the bound stopped it
        fit.distance = float("inf")
    if not fit.converged:  # every step made, as a run that reached its bound counts them
        fit.iterations = steps
    fit.steps = steps  # the work done, probes included (``iterations`` stays the returned run's own)
    return fit


@dataclass(frozen=True)
class _Job:
    """One part's labels and the run to make on them: what a worker process needs (picklable)."""

    x_task: np.ndarray  # the part's tasks' lexelts (local task order)
    t_e: np.ndarray  # each entry's local task
    w_e: np.ndarray
    k_e: np.ndarray
    wt_e: np.ndarray | None  # None: every weight 1
    start: np.ndarray  # (tasks, K): the normalised start
    n_leaves: np.ndarray
    W: int
    K: int
    run: Callable
    max_iter: int
    tol: float
    min_iter: int
    errors: bool


@dataclass
class _Done:
    """A part's fit as :func:`fit_parts` puts it together (sent back by a worker process)."""

    post: np.ndarray  # (tasks, K)
    blocks: tuple  # DSModel.padded_blocks
    iterations: int
    steps: float  # EM steps made (probes included), in steps over the part's labels (a split part's are not whole)
    converged: bool
    change: float
    distance: float
    extrapolations: int
    loglik: np.ndarray
    runs: list
    unconverged: tuple[int, ...] = ()  # the lexelts not converged
    alone: list | None = None  # a split part: (lexelt, labels, runs) of each lexelt fitted alone
    packed: int = 0  # a split part: the EM steps made together before it was split


def fit_job(job: _Job, progress: Callable[[int, int], object] | None = None) -> _Done:
    """One part confirmed to its fixed point (:func:`_confirmed`), in this process or a worker's.  A part of
    several lexelts that has not converged within :data:`PACK_STEPS` EM steps (fewer than ``max_iter``) is
    split: each of its lexelts run on its own from the same start, with ``max_iter`` steps of its own
    (:func:`_split`); one stopped by ``max_iter`` itself reports all its lexelts not converged."""
    lexelts = np.unique(job.x_task[job.t_e]) if job.t_e.size else np.zeros(0, np.int64)
    budget = job.max_iter if lexelts.size <= 1 else min(job.max_iter, PACK_STEPS)
    model = DSModel(None, job.x_task.size, job.x_task, job.w_e, job.t_e, job.k_e,
                    np.ones(job.k_e.size) if job.wt_e is None else job.wt_e, job.n_leaves, job.W, job.K)
    tell = None if progress is None else (lambda k, n: progress(k, job.max_iter))
    fit = _confirmed(model, job.run, model.m_step(model.start(job.start)), max_iter=budget, tol=job.tol,
                     min_iter=job.min_iter, progress=tell)
    if not fit.converged and budget < job.max_iter:  # stopped by PACK_STEPS, not by max_iter: each alone
        return _split(job, lexelts, fit.steps, progress)
    return _Done(model.posterior(fit.posts)[:job.x_task.size], model.padded_blocks(fit.theta, job.errors),
                 fit.iterations, fit.steps, fit.converged, fit.change, fit.distance, fit.extrapolations,
                 np.asarray(fit.loglik), fit.runs, () if fit.converged else tuple(lexelts.tolist()))


def _split(job: _Job, lexelts: np.ndarray, packed: int, progress: Callable[[int, int], object] | None) -> _Done:
    """``job``'s lexelts each fitted alone (a part of one lexelt: its full ``max_iter``), put together as one
    part's :class:`_Done`: the work of the ``packed`` EM steps made together first is counted in ``steps``
    (in steps over the whole part's labels), each lexelt's runs kept in ``alone``."""
    x_e = job.x_task[job.t_e]
    post = np.zeros((job.x_task.size, job.K))
    rows, priors, fits = [], [], []
    histories = []
    work = packed * job.t_e.size
    shown = [packed]
    for i, x in enumerate(lexelts.tolist()):
        tasks = np.flatnonzero(job.x_task == x)
        local = np.full(job.x_task.size, -1, np.int64)
        local[tasks] = np.arange(tasks.size)
        e = np.flatnonzero(x_e == x)
        sub = _Job(job.x_task[tasks], local[job.t_e[e]], job.w_e[e], job.k_e[e], None if job.wt_e is None else job.wt_e[e],
                   job.start[tasks], job.n_leaves, job.W, job.K, job.run, job.max_iter, job.tol, job.min_iter, job.errors)
        tell = None
        if progress is not None:  # on from where the packed run stopped, lexelt by lexelt, never back
            def tell(k: int, n: int, i=i) -> None:
                share = (i + min(k / max(n, 1), 1.0)) / lexelts.size
                at = min(packed + int(share * (job.max_iter - packed)), job.max_iter)
                if at > shown[0]:
                    shown[0] = at
                    progress(at, job.max_iter)
        done = fit_job(sub, tell)
        post[tasks] = done.post
        rows += done.blocks[0]
        priors += done.blocks[1]
        histories.append(done.loglik)
        work += done.steps * e.size
        fits.append((x, int(e.size), done))
    n_hist = max((h.size for h in histories), default=0)
    loglik = np.zeros(n_hist)
    for h in histories:
        if h.size:
            loglik += np.r_[h, np.full(n_hist - h.size, h[-1])]
    dones = [d for _, _, d in fits]
    return _Done(post, (rows, priors), max(d.iterations for d in dones), work / max(job.t_e.size, 1),
                 all(d.converged for d in dones), max(d.change for d in dones), max(d.distance for d in dones),
                 sum(d.extrapolations for d in dones), loglik, [],
                 tuple(x for x, _, d in fits if not d.converged),
                 [(x, n_e, d.runs) for x, n_e, d in fits], packed)


def fit_parts(x_task: np.ndarray, t_e: np.ndarray, w_e: np.ndarray, k_e: np.ndarray, wt_e: np.ndarray | None,
              n_leaves: np.ndarray, W: int, K: int, start: np.ndarray, run: Callable, *, max_iter: int,
              tol: float, min_iter: int, progress: Callable[[int, int], object] | None = None,
              errors: bool = True, processes: int | None = 1, nice: int = 0) -> PartsFit:
    """EM (``run``: :func:`~hieradjudicate.core.crowd.squarem.squarem` or ``plain_em``) part by part from the
    normalised start ``start`` (T, K); entries ``(task, worker, observed leaf, weight)`` (``wt_e`` ``None``:
    every weight 1, made part by part).  ``errors=False``: the padded confusion matrices are not
    made (``PartsFit.errors`` is ``None``; MASC: 22.6 MiB filled part by part), every other figure
    the same.  ``processes``: the parts run in that many worker processes (``None``: chosen by
    :func:`~hieradjudicate.core.crowd.ds_processes.processes_for` from the labels and the CPUs; 1: here),
    every figure the same to the bit; ``nice``: their CPU priority lowered by that much."""
    from hieradjudicate.core.crowd.ds_processes import processes_for, run_jobs, start_pool

    T, X = len(x_task), len(n_leaves)
    n_leaves = np.asarray(n_leaves, np.int64)
    x_e = x_task[t_e]
    per_x = np.bincount(x_e, minlength=X)
    part_x = _parts(per_x)
    n_parts = int(part_x.max(initial=0)) + 1
    p_e = part_x.astype(np.int32)[x_e]  # each entry's part (the million-entry columns freed once used)
    del x_e
    # entries already in part order (a layout's rows are sorted by lexelt): each part is a slice, its
    # columns views -- no permutation of every entry held through the whole run (MASC: 8.7 MB)
    e_order = None if bool((p_e[1:] >= p_e[:-1]).all()) else np.argsort(p_e, kind="stable")
    e_bounds = np.r_[0, np.cumsum(np.bincount(p_e, minlength=n_parts))]
    del p_e
    t_order = np.argsort(part_x[x_task].astype(np.int32), kind="stable")
    t_bounds = np.r_[0, np.cumsum(np.bincount(part_x[x_task], minlength=n_parts))]
    todo = [p for p in range(n_parts) if t_bounds[p + 1] > t_bounds[p]]
    local = np.empty(T, np.int64)

    def jobs():
        """Each part's job in turn (made as a worker asks for it: one part's copies at a time)."""
        for p in todo:
            tasks = t_order[t_bounds[p]:t_bounds[p + 1]]
            lo, hi = int(e_bounds[p]), int(e_bounds[p + 1])
            e = slice(lo, hi) if e_order is None else e_order[lo:hi]
            local[tasks] = np.arange(tasks.size)
            yield _Job(x_task[tasks], local[t_e[e]], w_e[e], k_e[e], None if wt_e is None else wt_e[e], start[tasks],
                       n_leaves, W, K, run, max_iter, tol, min_iter, errors)

    total = max(int(t_e.size), 1)
    labels = [int(e_bounds[p + 1] - e_bounds[p]) for p in todo]
    n_proc = processes_for(processes, int(t_e.size), len(todo))
    pool = start_pool(n_proc, nice) if n_proc > 1 else None
    if pool is not None:
        done = run_jobs(fit_job, jobs(), labels, pool, n_proc, progress, max_iter)
    else:
        def one_by_one():
            for job, p, n_e in zip(jobs(), todo, labels, strict=True):
                tell = progress
                if progress is not None and n_parts > 1:  # the bar moves with the share of labels done
                    before, share = e_bounds[p] / total, n_e / total

                    def tell(k: int, n: int, before=before, share=share) -> None:
                        progress(min(int(max_iter * (before + share * k / max(n, 1))), max_iter), max_iter)
                yield fit_job(job, tell)
        done = one_by_one()
    post = np.zeros((T, K))
    counts = np.zeros((W * X * K, K)) if errors else None
    valid = np.arange(K)[None, :] < n_leaves[:, None]
    priors = np.where(valid, EPS, 0.0)  # a lexelt without instances: EPS over its leaves
    iterations, converged, change, distance, kept, steps = 0, True, 0.0, 0.0, 0, 0
    histories = []
    runs = []
    unconverged: tuple[int, ...] = ()
    for p, n_e, fit in zip(todo, labels, done, strict=True):  # in part order: the sums below add as before
        post[t_order[t_bounds[p]:t_bounds[p + 1]]] = fit.post
        write_blocks(fit.blocks, counts, priors)
        iterations = max(iterations, fit.iterations)
        steps += fit.steps * n_e
        converged = converged and fit.converged
        change = max(change, fit.change) if np.isfinite(fit.change) else fit.change
        distance = max(distance, fit.distance)
        kept += fit.extrapolations
        histories.append(fit.loglik)
        lexelts = tuple(np.flatnonzero((part_x == p) & (per_x > 0)).tolist())
        unconverged += fit.unconverged
        if fit.alone is None:
            runs.append(PartRuns(lexelts, int(n_e), *map(tuple, zip(*fit.runs))))
        else:
            runs.append(PartRuns(lexelts, int(n_e), (fit.packed,), (float("nan"),), (False,), split=True))
            runs += [PartRuns((x,), n_x, *map(tuple, zip(*r))) for x, n_x, r in fit.alone]
    n_hist = max((h.size for h in histories), default=0)
    loglik = np.zeros(n_hist)
    for h in histories:
        if h.size:
            loglik += np.r_[h, np.full(n_hist - h.size, h[-1])]
    return PartsFit(post, None if counts is None else counts.reshape(W, X, K, K), priors, iterations, converged,
                    change, distance,
                    loglik.tolist(), kept, steps / total, runs, tuple(sorted(unconverged)))
