"""MACE's labels arranged once for cheap iterations (used by :func:`hieradjudicate.core.crowd.mace.mace`).

An instance's posterior needs, per leaf, the sum of its labels' terms on that leaf; a leaf no label
of the instance gave has the term 0 and its prior only.  So the posterior is held only on the
distinct (instance, leaf) *pairs* the labels use (MASC: 0.17 M of the 0.76 M cells of an (instances x
17) array) plus one figure per instance for all its unlabelled leaves -- the exponentials, maxima and
sums of an iteration run over those instead of the padded array.  The labels are sorted twice
(stably, so every sum adds the same terms in the same order as the ``bincount`` over the labels in
their original order did): by pair, to sum their terms into the pairs, and by key (annotator,
lexelt, leaf), to sum the pairs' posteriors into the knowing counts -- each a gather and one
sum over contiguous runs.  A pair has ~6 labels and an instance ~4 pairs, so those runs are summed
(and maximised) by runs of equal length (:mod:`hieradjudicate.core.crowd.slots`, added exactly as
``reduceat`` adds them, without its cost per run: MASC's posterior 13.6 -> 9 ms an iteration); a key
has ~76 labels, and its runs stay with ``reduceat``.
"""

from __future__ import annotations

import numpy as np

from hieradjudicate.core.crowd.slots import Slots


def _starts(sorted_keys: np.ndarray) -> np.ndarray:
    return np.flatnonzero(np.r_[True, sorted_keys[1:] != sorted_keys[:-1]]) if sorted_keys.size else \
        np.zeros(0, np.int64)


class Labels:
    """Labels ``(tk_key = instance * K + leaf, inv = their key's index, weight)`` (``wt_e`` ``None``: every
    label of weight 1); ``n_task``: each instance's number of leaves, ``lp_task`` the log prior of each of
    them.  Only the pairs' arrays and two per-label columns are kept (the sorts' permutations are freed
    as they are used: MASC's labels are 8.7 MB a column)."""

    def __init__(self, tk_key: np.ndarray, inv: np.ndarray, wt_e: np.ndarray | None, T: int, K: int,
                 n_task: np.ndarray, lp_task: np.ndarray) -> None:
        by_tk = np.argsort(tk_key, kind="stable")
        tk = tk_key[by_tk]
        self.pair_start = _starts(tk)
        self.pair_tk = tk[self.pair_start]
        del tk
        pair_of = np.empty(by_tk.size, np.int64)
        pair_of[by_tk] = np.repeat(np.arange(self.pair_start.size), np.diff(np.r_[self.pair_start, by_tk.size]))
        # the pairs' sums of their labels' terms, by runs of equal length (core.crowd.slots: a pair has ~6
        # labels on MASC, and reduceat's cost per run was most of an iteration)
        hard = wt_e is None or bool((wt_e == 1.0).all())
        self.pair_sums = Slots(self.pair_start, inv[by_tk], None if hard else wt_e[by_tk])
        del by_tk
        by_key = np.argsort(inv, kind="stable")
        self.pair_by_key = pair_of[by_key]
        del pair_of
        self.wt_by_key = None if hard else wt_e[by_key]
        self.key_start = _starts(inv[by_key])
        del by_key
        self.pair_task = self.pair_tk // K
        self.invalid = (self.pair_tk % K) >= n_task[self.pair_task]  # a label beyond its lexelt's leaves
        self.any_invalid = bool(self.invalid.any())
        self.task_start = _starts(self.pair_task)
        self.task_ids = self.pair_task[self.task_start]
        self.task_runs = Slots(self.task_start, np.arange(self.pair_task.size))  # an instance's pairs (~4)
        n_obs = np.bincount(self.pair_task[~self.invalid], minlength=T)
        self.n_unobs = np.maximum(n_task - n_obs, 0).astype(np.float64)
        self.has_unobs = self.n_unobs > 0
        self.lp_task = lp_task
        self.lp_pair = lp_task[self.pair_task]
        self.top0 = np.where(self.has_unobs, lp_task, -np.inf)

    def posterior(self, g_key: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
        """From each key's term ``g_key``: the posterior of every pair, that of each of an instance's
        unlabelled leaves, and the log-likelihood up to the sum of ``log a`` (see mace)."""
        top = self.top0.copy()
        if self.pair_start.size:
            logm = self.pair_sums.sum_take(g_key)
            logm += self.lp_pair
            if self.any_invalid:
                logm[self.invalid] = -np.inf
            top[self.task_ids] = np.maximum(top[self.task_ids], self.task_runs.max_take(logm))
            logm -= top.take(self.pair_task)
            z = np.exp(logm, out=logm)
        else:
            z = np.zeros(0)
        with np.errstate(invalid="ignore"):
            u = np.where(self.has_unobs, np.exp(self.lp_task - top), 0.0)
        s = self.n_unobs * u
        if z.size:
            s[self.task_ids] += self.task_runs.sum_take(z)
        z /= s.take(self.pair_task)
        u /= s
        return z, u, float((np.log(s) + top).sum())

    def key_sums(self, q_pair: np.ndarray, hard: bool) -> np.ndarray:
        """Per key, its labels' (weighted) posterior of their own leaf."""
        if not self.key_start.size:
            return np.zeros(0)
        vals = q_pair.take(self.pair_by_key)
        if not hard:
            vals *= self.wt_by_key
        return np.add.reduceat(vals, self.key_start)

    def posterior_change(self, q: np.ndarray, u: np.ndarray, q_old: np.ndarray, u_old: np.ndarray) -> float:
        """The largest change of any cell of the (instances x K) posterior."""
        return max(float(np.abs(q - q_old).max(initial=0.0)),
                   float(np.abs(u - u_old)[self.has_unobs].max(initial=0.0)))

    def dense(self, q: np.ndarray, u: np.ndarray, valid_task: np.ndarray) -> np.ndarray:
        """The (instances x K) posterior."""
        out = np.where(valid_task, u[:, None], 0.0)
        out.ravel()[self.pair_tk] = q
        return out
