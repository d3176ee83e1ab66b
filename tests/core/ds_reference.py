"""Test oracle: Dawid & Skene as hieradjudicate computed it before the compact arrays of
hieradjudicate/core/crowd/ds_em.py (padded to K leaves, one (W, X, K, K) table), kept verbatim so
that tests/core/test_ds_em.py can show the figures did not change."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

EPS = 1e-10
MAX_ITER = 200  #: EM iterations at most
TOL = 1e-5  #: converged when no confusion probability or prior moves by this much in an iteration
MIN_ITER = 5  #: never converged before this many iterations


@dataclass(frozen=True)
class _Competence:
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
    errors: np.ndarray  # (workers, lexelts, K, K)
    priors: np.ndarray  # (lexelts, K)
    iterations: int
    converged: bool
    elbo: list[float]  # the monitored objective per iteration (Dawid & Skene: marginal log-likelihood per label)
    change: float = float("nan")  # the largest move of a parameter in the last iteration


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


def dawid_skene_padded(inst: np.ndarray, rater: np.ndarray, P: np.ndarray, inst_lexelt: np.ndarray,
                n_leaves: np.ndarray, *, max_iter: int = MAX_ITER, tol: float = TOL,
                min_iter: int = MIN_ITER) -> _Competence:
    """Dawid-Skene EM over leaf distributions (see the module docstring).

    Parameters
    ----------
    inst, rater : ndarray of int, shape (R,)
        The instance and the annotator of every label.
    P : ndarray, shape (R, K)
        Every label as a distribution over its lexelt's local leaves.
    inst_lexelt : ndarray of int, shape (n_instances,)
    n_leaves : ndarray of int, shape (X,)
    """
    inst = np.asarray(inst, np.int64)
    rater = np.asarray(rater, np.int64)
    P = np.asarray(P, np.float64)
    K = P.shape[1]
    X = len(n_leaves)
    tasks, t_of = np.unique(inst, return_inverse=True)
    workers, w_of = np.unique(rater, return_inverse=True)
    T, W = len(tasks), len(workers)
    x_task = np.asarray(inst_lexelt, np.int64)[tasks]
    x_row = x_task[t_of]
    valid = np.arange(K)[None, :] < np.asarray(n_leaves)[:, None]  # (X, K)
    # the labels as (row, observed leaf, weight) entries: one per nonzero of P
    r_e, k_e = np.nonzero(P > 0)
    wt_e = P[r_e, k_e]
    t_e, w_e, x_e = t_of[r_e], w_of[r_e], x_row[r_e]
    block = (w_e * X + x_e) * K + k_e  # (worker, lexelt, observed leaf)
    used = np.zeros(W * X * K, bool)
    used[block] = True
    # #36: a leaf no label of its lexelt uses keeps prior 0 (a lexelt without labels: EPS, as before)
    leaf_used = np.zeros((X, K), bool)
    leaf_used[x_e, k_e] = True
    prior_free = valid & (leaf_used | ~leaf_used.any(axis=1, keepdims=True))
    # entries grouped by confusion row and by instance once, so that every sum is one reduceat
    by_block = np.argsort(block, kind="stable")
    b_sorted = block[by_block]
    b_start = np.flatnonzero(np.r_[True, b_sorted[1:] != b_sorted[:-1]])
    b_ids = b_sorted[b_start]
    by_task = np.argsort(t_e, kind="stable")
    t_sorted = t_e[by_task]
    t_start = np.flatnonzero(np.r_[True, t_sorted[1:] != t_sorted[:-1]])
    t_ids = t_sorted[t_start]
    x_of_task = x_task
    hard = bool((wt_e == 1.0).all())  # one leaf per label (a crowd's usual case): no weights to apply
    wt_b, t_b = wt_e[by_block], t_e[by_block]  # entries in confusion-row order
    wt_t, blk_t = wt_e[by_task], block[by_task]  # entries in instance order
    # a crowd has a million entries: each index array is 8.7 MB, so those no longer needed go now
    del x_row, w_e, x_e, block, by_block, b_sorted, by_task, t_sorted

    def m_step(post: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        counts = np.zeros((W * X * K, K))
        rows = (lambda sl: post[t_b[sl]]) if hard else (lambda sl: wt_b[sl, None] * post[t_b[sl]])
        counts[b_ids] = _group_sums(rows, b_start, len(wt_b), K)
        counts[used] = np.maximum(counts[used], EPS)
        E = counts.reshape(W, X, K, K)
        E /= np.maximum(E.sum(axis=2, keepdims=True), EPS * EPS)
        order = np.argsort(x_of_task, kind="stable")
        xs = x_of_task[order]
        starts = np.flatnonzero(np.r_[True, xs[1:] != xs[:-1]])
        pri = np.zeros((X, K))
        pri[xs[starts]] = np.add.reduceat(post[order], starts, axis=0)
        pri /= np.maximum(np.bincount(x_task, minlength=X), 1)[:, None]
        return E, np.where(prior_free, np.maximum(pri, EPS), 0.0)

    def loglik(E: np.ndarray, pri: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore"):
            logE = np.log(np.where(E > 0, E, 1.0)).reshape(W * X * K, K)
            ll = np.where(valid, np.log(np.where(valid, pri, 1.0)), -np.inf)[x_task]
        rows = (lambda sl: logE[blk_t[sl]]) if hard else (lambda sl: wt_t[sl, None] * logE[blk_t[sl]])
        ll[t_ids] += _group_sums(rows, t_start, len(wt_t), K)
        return ll

    # start: the (soft) majority vote
    post = _start(P, t_of, T, K)  # its index arrays are gone before the EM loop
    post /= np.maximum(post.sum(axis=1, keepdims=True), EPS)
    E, pri = m_step(post)
    history: list[float] = []
    converged = False
    it = 0
    change = float("nan")
    ll_next = loglik(E, pri)
    for it in range(1, max_iter + 1):
        # E-step; its normaliser is the marginal log-likelihood of the current parameters, which EM
        # never lowers (the monitored quantity, per label)
        top = ll_next.max(axis=1, keepdims=True)
        z = np.exp(ll_next - top)
        s = z.sum(axis=1, keepdims=True)
        post = z / s
        history.append(float((np.log(s[:, 0]) + top[:, 0]).sum() / max(len(inst), 1)))
        E_new, pri_new = m_step(post)
        change = max(float(np.abs(E_new - E).max(initial=0.0)), float(np.abs(pri_new - pri).max(initial=0.0)))
        E, pri = E_new, pri_new
        ll_next = loglik(E, pri)
        if it >= min_iter and change < tol:
            converged = True
            break
    right = np.bincount(r_e, weights=wt_e * post[t_e, k_e], minlength=len(inst))
    n_w = np.bincount(w_of, minlength=W).astype(float)
    acc = np.bincount(w_of, weights=right, minlength=W) / np.maximum(n_w, 1)
    se = np.sqrt(acc * (1 - acc) / np.maximum(n_w, 1))
    with np.errstate(divide="ignore", invalid="ignore"):
        entropy = -np.where(post > 0, post * np.log2(np.where(post > 0, post, 1.0)), 0.0).sum(axis=1)
    return _Competence(workers, acc, se, n_w.astype(np.int64), tasks, post, entropy, E, pri, it,
                      converged, history, change)
