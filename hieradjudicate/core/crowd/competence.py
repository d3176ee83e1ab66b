"""Annotator competence: Dawid & Skene (1979) over the leaves of each lexelt.

Each annotator ``w`` has, in each lexelt ``x``, a confusion matrix
``E[w, x, k_obs, k_true]`` (the chance of answering leaf ``k_obs`` when the
sense is ``k_true``), and each lexelt a prior over its leaves.  EM alternates:

* E-step: the posterior of every instance over its lexelt's leaves,
  ``log prior[x] + sum over its labels of  sum_k p(k) log E[w, x, k, :]``;
* M-step: ``E`` from the posteriors (clipped at ``1e-10`` where the annotator
  used a leaf, normalised over the observed leaves), priors = mean posterior
  (clipped at ``1e-10``), except that a leaf no label of the lexelt uses keeps
  prior 0: clipped, it became a class every annotator confuses uniformly, free
  to absorb instances nobody gave it (MASC ``number-n`` 4.7 went to the unused
  sense 0 with posterior 1.000).

It starts from the (soft) majority vote and runs each lexelt on its own
(:mod:`hieradjudicate.core.crowd.ds_parts`: lexelts share no parameter), until its
parameters and posteriors are estimated within ``tol`` of the fixed point
(:mod:`hieradjudicate.core.crowd.squarem`: the largest move of a plain EM step over one
minus the observed rate), confirmed by a restart from slightly noised
posteriors that must come back (a saddle's plateau also looks converged:
MASC ``say-v``; a restart that leaves for a higher log-likelihood is followed and
confirmed in turn, until one comes back), after at least ``min_iter`` EM steps,
or, once ``max_iter`` EM steps (restarts included) are made first, *not converged*.  By default the steps are accelerated by SQUAREM (an
extrapolation is kept only where the marginal log-likelihood does not fall,
and convergence is tested on plain EM steps).
``accelerate=False`` runs plain EM (crowd-kit's run, iteration for iteration).
It monitors the marginal log-likelihood per label, which EM never lowers.
crowd-kit's ``DawidSkene`` stops instead on the first iteration whose "evidence
lower bound" rises by less than ``tol``; that quantity (the prior counted once
per label) is not monotone under EM and can fall early (MASC ``fair-j``: at
iteration 2), so it stops long before the parameters settle.  Run for the same
number of iterations (crowd-kit with ``tol=-inf``), both give the same
posteriors on hard labels (tests/core/test_competence.py).
What differs by design:

* **label space per lexelt**: a leaf of another lexelt is impossible, not just
  improbable (crowd-kit pools every label of the corpus into one space);
* **soft labels**: a label that is a distribution over leaves (a tag on an inner
  node, weighted tags) contributes its expected log-likelihood and splits its
  count in the M-step, where crowd-kit needs one label per answer.

**Three sets on an instance, or refused.**  With at most two labels per
instance the confusion matrices are not identifiable (a latent class model
needs three or more conditionally independent indicators: Kruskal 1977;
Allman, Matias & Rhodes 2009): the likelihood has a ridge of equally good
estimates, EM crawls along it (SemEval-2015 gold + lesk: 5,000 iterations,
not converged) and the figure it stops at is one point of a continuum.
:func:`require_three_sets` refuses such data, before EM, with
:class:`~hieradjudicate.core.errors.NotIdentifiable`.

Competence of an annotator: the expected share of its labels that are right,
``mean over its labels of sum_k p(k) posterior(k)``, with the standard error
``sqrt(a (1 - a) / n)`` over its ``n`` labels.  Difficulty of an instance: the
entropy (bits) of its posterior.  Vectorised over labels on compact arrays
(:mod:`hieradjudicate.core.crowd.ds_em`: each lexelt only as wide as its leaves, only
the confusion rows an annotator used; MASC: about 50 ms an iteration where the
padded arrays took 200); the loops run over EM iterations and over the (at
most K) widths of lexelts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

EPS = 1e-10
MAX_ITER = 5000  #: EM steps at most, per lexelt, confirming restarts included (MASC, accelerated: the slowest word, common-j, needs about 1,700 to 1e-12)
TOL = 1e-7  #: converged when parameters and posteriors are estimated within this of the fixed point (see squarem)
MIN_ITER = 5  #: never converged before this many iterations


@dataclass(frozen=True)
class Competence:
    """What :func:`dawid_skene` estimates.

    ``workers`` are the rater ids present (sorted); ``tasks`` the instance ids
    present (sorted); ``posterior[t]`` is over the local leaves of the task's
    lexelt (zero beyond its ``n_leaves``).
    """

    workers: np.ndarray
    accuracy: np.ndarray  # per worker
    stderr: np.ndarray  # per worker
    n_labels: np.ndarray  # per worker
    tasks: np.ndarray
    posterior: np.ndarray  # (tasks, K)
    entropy: np.ndarray  # per task, bits
    errors: np.ndarray | None  # (workers, lexelts, K, K); None when not asked for (dawid_skene(errors=False))
    priors: np.ndarray  # (lexelts, K)
    iterations: int
    converged: bool
    elbo: list[float]  # the monitored objective per iteration (Dawid & Skene: marginal log-likelihood per label)
    change: float = float("nan")  # the largest move of a parameter in the last iteration
    distance: float = float("inf")  # the estimated distance of parameters and posteriors from the fixed point
    passes: float = float("nan")  # the work: EM steps made (restarts included) in full passes over the labels
    runs: tuple = ()  # Dawid & Skene: where that work went, part by part (ds_parts.PartRuns)
    unconverged: tuple = ()  # Dawid & Skene: the lexelts (indices) whose fit did not converge


#: entries per block of :func:`_group_sums`: bounds each ``(entries, K)`` temporary to a few MB
_BLOCK = 1 << 16


def _group_sums(rows, starts: np.ndarray, n: int, K: int) -> np.ndarray:
    """``np.add.reduceat(rows(slice(0, n)), starts)`` computed over blocks of whole groups.

    ``rows(sl)`` makes the ``(len, K)`` values of the entries in ``sl``; made
    for all entries at once they would be ``n x K`` floats (MASC: 1.08 M x 17,
    147 MB, several times per EM iteration).  Blocks end at group starts, so
    each group is summed exactly as one ``reduceat`` would.
    """
    out = np.empty((len(starts), K))
    g = 0
    while g < len(starts):
        lo = int(starts[g])
        g1 = max(int(np.searchsorted(starts, lo + _BLOCK, side="left")), g + 1)
        hi = int(starts[g1]) if g1 < len(starts) else n
        out[g:g1] = np.add.reduceat(rows(slice(lo, hi)), starts[g:g1] - lo, axis=0)
        g = g1
    return out


def _start(P: np.ndarray, t_of: np.ndarray, T: int, K: int) -> np.ndarray:
    """Each instance's summed label distributions (the soft majority vote, not yet normalised)."""
    rows_by_task = np.argsort(t_of, kind="stable")
    ts = t_of[rows_by_task]
    ts_start = np.flatnonzero(np.r_[True, ts[1:] != ts[:-1]])
    out = np.zeros((T, K))
    out[ts[ts_start]] = _group_sums(lambda sl: P[rows_by_task[sl]], ts_start, len(ts), K)
    return out


def _unique_inverse(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(values, return_inverse=True)`` of non-negative ids by a count instead of a sort
    (no sorted copy and argsort of a million labels); the same two arrays."""
    if not values.size or int(values.min()) < 0:
        return np.unique(values, return_inverse=True)
    present = np.bincount(values) > 0
    code = np.cumsum(present) - 1
    return np.flatnonzero(present), code[values]


def _codes(values: np.ndarray) -> np.ndarray:
    """Integer codes as given when they are 32 or 64 bits (a crowd's layout holds its rows' codes in
    32: a 64-bit copy would be held through every iteration), else in 64 bits.  Whoever multiplies
    or adds them into a larger code widens them first."""
    values = np.asarray(values)
    return values if values.dtype in (np.int32, np.int64) else values.astype(np.int64)


def _ids(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_unique_inverse` of integer ``values``, the inverse being ``values`` itself (not a copy:
    read it only) when they are 32- or 64-bit and already number ``0 .. n - 1`` with none missing (a
    layout's instances and raters: MASC, 4.1 MiB each held through every iteration of an estimate)."""
    if values.size and int(values.min()) == 0 and values.dtype in (np.int32, np.int64):
        present = np.bincount(values) > 0
        if bool(present.all()):
            return np.arange(present.size), values
    return _unique_inverse(values)


def _entropy_bits(post: np.ndarray) -> np.ndarray:
    """Each row's entropy in bits, ``-sum_k p log2 p`` over its positive cells, in one temporary:
    ``-np.where(post > 0, post * np.log2(np.where(post > 0, post, 1.0)), 0.0).sum(axis=1)``, the
    same terms added in the same order."""
    pos = post > 0
    terms = np.where(pos, post, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        np.log2(terms, out=terms)
        terms *= post
    terms[~pos] = 0.0
    return -terms.sum(axis=1)


MIN_SETS = 3  #: an instance needs labels from this many different sets for the model to be identifiable


def sets_per_instance(inst: np.ndarray, rater: np.ndarray) -> int:
    """The largest number of different raters that labelled one instance (0 without labels)."""
    inst, rater = _codes(inst), _codes(rater)
    if not inst.size:
        return 0
    W = int(rater.max()) + 1
    key = inst.astype(np.int64)  # one per (instance, rater), several labels of a rater counted once
    key *= W
    key += rater
    n_keys = int(key.max()) + 1
    if int(inst.min()) >= 0 and int(rater.min()) >= 0 and n_keys <= max(16 * key.size, 1 << 24):
        # the distinct pairs by marking them in a table (MASC: 10 M bytes, 0.05 s) rather than by
        # np.unique's sort of a million keys (1.4 s); the same pairs
        present = np.zeros(n_keys, bool)
        present[key] = True
        pairs = np.flatnonzero(present)
    else:
        pairs = np.unique(key)
    return int(np.bincount(pairs // W).max())


def require_three_sets(inst: np.ndarray, rater: np.ndarray, names: Sequence[str] | None = None,
                       model: str = "Dawid & Skene", what: str = "their errors") -> None:
    """Raise :class:`~hieradjudicate.core.errors.NotIdentifiable` unless some instance has labels from
    :data:`MIN_SETS` or more different raters (``names[r]``: rater ``r``'s name; ``model`` and ``what``
    it could not tell apart, for the message)."""
    from hieradjudicate.core.errors import NotIdentifiable

    most = sets_per_instance(inst, rater)
    if most >= MIN_SETS:
        return
    present = np.unique(np.asarray(rater, np.int64)).tolist()
    if names is not None:
        shown = [str(names[r]) for r in present]
    else:
        shown = [str(r) for r in present]
    listed = ", ".join(shown[:10]) + (f" and {len(shown) - 10} more" if len(shown) > 10 else "")
    raise NotIdentifiable(
        f"{model} needs three or more annotator sets on an instance to tell {what} apart "
        f"(Kruskal 1977); here every instance has at most {most} (sets: {listed}). Add a set.")


def dawid_skene(inst: np.ndarray, rater: np.ndarray, P: np.ndarray | None, inst_lexelt: np.ndarray,
                n_leaves: np.ndarray, *, max_iter: int | None = None, tol: float = TOL,
                min_iter: int = MIN_ITER, accelerate: bool = True,
                progress: Callable[[int, int], object] | None = None,
                leaf: np.ndarray | None = None, K: int | None = None,
                names: Sequence[str] | None = None, errors: bool = True,
                processes: int | None = 1, nice: int = 0) -> Competence:
    """Dawid-Skene EM over leaf distributions (see the module docstring).

    Refused (:class:`~hieradjudicate.core.errors.NotIdentifiable`, before any EM step) unless some
    instance has labels from three or more raters (:func:`require_three_sets`).

    Parameters
    ----------
    inst, rater : ndarray of int, shape (R,)
        The instance and the annotator of every label.
    P : ndarray, shape (R, K)
        Every label as a distribution over its lexelt's local leaves.
    inst_lexelt : ndarray of int, shape (n_instances,)
    n_leaves : ndarray of int, shape (X,)
    max_iter : EM iterations at most (default :data:`MAX_ITER`, read at the call).
    accelerate : SQUAREM (:func:`hieradjudicate.core.crowd.squarem.squarem`), with the convergence test on
        plain EM steps; ``False``: plain EM (crowd-kit's run, iteration for iteration).
    progress : called as ``progress(k, max_iter)`` after every EM step (``k`` steps so far).
    leaf, K : instead of ``P`` (pass ``None``) when every label is one leaf: ``leaf[r]`` is the label's
        local leaf and ``K`` the width of ``P``; the same estimate as from the one-hot ``P`` (a crowd's
        ``P`` is 1.08 M x 17 floats, 141 MiB, and its entries would be found by a scan of it).
    names : ``names[r]`` is rater ``r``'s name, for the refusal's message.
    errors : ``False``: the confusion matrices are not kept (``Competence.errors`` is ``None``; a crowd's
        are ``(W, X, K, K)``, MASC 22.6 MiB, filled as the lexelts converge); every other figure the same.
    processes : the lexelts run in that many worker processes (1, the default: in this one; ``None``: one
        per CPU, up to four, for 262,144 label entries or more -- :mod:`hieradjudicate.core.crowd.ds_processes`);
        every figure the same to the bit.  Workers are *spawned*: each imports the program's main module
        again, so a script that asks for them runs its work under ``if __name__ == "__main__":``.
    nice : the worker processes' CPU priority lowered by this much (a window's background estimate: 10).
    """
    from hieradjudicate.core.crowd.ds_parts import fit_parts
    from hieradjudicate.core.crowd.squarem import plain_em, squarem

    max_iter = MAX_ITER if max_iter is None else max_iter
    inst, rater = _codes(inst), _codes(rater)  # 32-bit codes read as they are (no copy)
    require_three_sets(inst, rater, names)
    tasks, t_of = _ids(inst)  # read only: may be ``inst`` itself
    workers, w_of = _ids(rater)
    T, W = len(tasks), len(workers)
    x_task = np.asarray(inst_lexelt, np.int64)[tasks]
    # the labels as (row, observed leaf, weight) entries: one per nonzero of P
    if leaf is not None:  # one entry per label, in row order as nonzero(P > 0) finds them, each of weight 1
        k_e = _codes(leaf)
        r_e = wt_e = None  # the identity and ones: not made (MASC: 8.7 MB each, held through every iteration)
        K = int(K if K is not None else k_e.max(initial=0) + 1)
        w_e, te_ = w_of, t_of
        # start: the majority vote, counts of whole labels (sums of 1.0: exact in any order)
        cell = t_of.astype(np.int64)
        cell *= K
        cell += k_e
        post = np.bincount(cell, minlength=T * K).astype(np.float64).reshape(T, K)
        del cell
    else:
        P = np.asarray(P, np.float64)
        K = P.shape[1]
        r_e, k_e = np.nonzero(P > 0)
        wt_e = P[r_e, k_e]
        w_e, te_ = w_of[r_e], t_of[r_e]
        # start: the (soft) majority vote
        post = _start(P, t_of, T, K)
        del P
    post /= np.maximum(post.sum(axis=1, keepdims=True), EPS)
    fit = fit_parts(x_task, te_, w_e, k_e, wt_e, n_leaves, W, K, post, squarem if accelerate else plain_em,
                    max_iter=max_iter, tol=tol, min_iter=min_iter, progress=progress, errors=errors,
                    processes=processes, nice=nice)
    del te_, w_e, post
    post, E, pri = fit.post, fit.errors, fit.priors
    history = [v / max(len(inst), 1) for v in fit.loglik]
    if r_e is None:  # each label's posterior of its own leaf (times weight 1, summed alone: the same figure)
        right = post[t_of, k_e]
    else:
        right = np.bincount(r_e, weights=wt_e * post[t_of[r_e], k_e], minlength=len(inst))
    del t_of
    n_w = np.bincount(w_of, minlength=W).astype(float)
    acc = np.bincount(w_of, weights=right, minlength=W) / np.maximum(n_w, 1)
    del right, w_of
    se = np.sqrt(acc * (1 - acc) / np.maximum(n_w, 1))
    entropy = _entropy_bits(post)
    return Competence(workers, acc, se, n_w.astype(np.int64), tasks, post, entropy, E, pri, fit.iterations,
                      fit.converged, history, fit.change, fit.distance, fit.label_passes,
                      tuple(fit.runs), fit.unconverged)
