"""MACE's labels arranged once for cheap iterations (used by :func:`hieradjudicate.core.crowd.mace.mace`).

An instance's posterior needs, per leaf, the product of its labels' factors on that leaf (or the sum
of their logarithms); a leaf no label of the instance gave has the factor 1.  So the posterior is held
only on the distinct (instance, leaf) *pairs* the labels use (MASC: 0.17 M of the 0.76 M cells of an
(instances x 17) array) plus one figure per instance for all its unlabelled leaves -- the products,
sums and divisions of an iteration run over those instead of the padded array.

The instances are taken in order of their number of pairs ``c`` (then of their ids), and the pairs of
the ``n`` instances with ``c`` pairs are laid out as a ``(c, n)`` block: the i-th pair of every such
instance in row ``i``.  An instance's sum (or maximum) over its pairs is then a reduction over the
first axis of a block, and its figure is divided into (subtracted from) its pairs by broadcasting: no
gather of the pairs at all (MASC: 12 blocks).  The labels are sorted twice (stably, so every sum of
logarithms adds the same terms in the same order as the ``bincount`` over the labels in their original
order did): by pair, to reduce their factors into the pairs, and by key (annotator, lexelt, leaf), to
sum the pairs' posteriors into the knowing counts -- each a gather of one label column and a reduction
over contiguous runs.  A pair has ~6 labels, so its runs are reduced by runs of equal length, laid out
once as ``(c, n)`` blocks of one index column (no per-run cost, as
:mod:`hieradjudicate.core.crowd.slots`); a key has ~76 labels, and its runs stay with ``reduceat``.
"""

from __future__ import annotations

import numpy as np

from hieradjudicate.core.crowd.slots import _reduceat_sum


def _sum_rows(v: np.ndarray, out: np.ndarray) -> None:
    """``out = v.sum(axis=0)`` added as ``np.add.reduceat`` adds a run of ``c = len(v)`` terms (as
    :func:`hieradjudicate.core.crowd.slots._reduceat_sum`, in fewer numpy calls): the first term plus
    numpy's pairwise sum of the other ``n = c - 1`` -- one by one when ``n < 8``, else into eight partial
    sums (term ``i`` into ``i % 8``) up to the last multiple of 8, combined as ``((r0 + r1) + (r2 + r3)) +
    ((r4 + r5) + (r6 + r7))``, then the rest one by one (past 129 terms: by ``reduceat`` itself)."""
    c = v.shape[0]
    n = c - 1
    if n == 0:
        out[...] = v[0]
    elif n < 8:
        np.add.reduce(v[1:], axis=0, out=out)
        out += v[0]
    elif n > 128:
        out[...] = _reduceat_sum(v)
    else:
        top = n - n % 8
        r = np.add.reduce(v[1:1 + top].reshape(top // 8, 8, -1), axis=0)
        r = r[0::2] + r[1::2]  # r0 + r1, r2 + r3, r4 + r5, r6 + r7
        r = r[0::2] + r[1::2]
        np.add(r[0], r[1], out=out)
        for i in range(1 + top, c):
            out += v[i]
        out += v[0]


class Labels:
    """Labels ``(tk_key = instance * K + leaf, inv = their key's index, weight)`` (``wt_e`` ``None``: every
    label of weight 1); ``n_task``: each instance's number of leaves, ``lp_task`` the log prior of each of
    them.  Only the pairs' arrays and two per-label columns are kept (the sorts' permutations are freed
    as they are used: MASC's labels are 8.7 MB a column).  The pairs and the instances are held in the
    blocks' order (see the module docstring): ``posterior`` gives them so, ``dense`` in the ids' order."""

    def __init__(self, tk_key: np.ndarray, inv: np.ndarray, wt_e: np.ndarray | None, T: int, K: int,
                 n_task: np.ndarray, lp_task: np.ndarray) -> None:
        """``tk_key`` is overwritten (with each label's pair): the caller's own column, not held twice."""
        by_tk = np.argsort(tk_key, kind="stable")  # cheap: the labels come in runs of ascending instances
        n_labels = np.bincount(tk_key, minlength=T * K)
        tk = np.flatnonzero(n_labels)  # the pairs in (instance, leaf) order
        n_labels = n_labels[tk]
        start_tk = np.cumsum(n_labels) - n_labels  # each pair's labels in ``by_tk``
        task_of = tk // K
        n_pairs = np.bincount(task_of, minlength=T)  # each instance's pairs, contiguous in ``tk``
        first = np.cumsum(n_pairs) - n_pairs
        self.task_order = np.argsort(n_pairs, kind="stable")  # the instances by their number of pairs
        self.task_back = np.empty(T, np.int64)  # each instance's place in that order
        self.task_back[self.task_order] = np.arange(T)
        counts = n_pairs[self.task_order]
        bounds = np.flatnonzero(np.r_[True, counts[1:] != counts[:-1], True]) if T else np.zeros(1, np.int64)
        self.blocks: list[tuple[int, int, int, int]] = []  # (first pair, c, n, first instance) of each block
        order = []  # the pairs in the blocks' order
        p0 = 0
        for lo, hi in zip(bounds[:-1].tolist(), bounds[1:].tolist()):
            c = int(counts[lo])
            if c:
                order.append((first[self.task_order[lo:hi]][None, :] + np.arange(c)[:, None]).ravel())
                self.blocks.append((p0, c, hi - lo, lo))
                p0 += c * (hi - lo)
        order = np.concatenate(order) if order else np.zeros(0, np.int64)
        del first
        # the labels by pair in the blocks' order: each pair's run of ``by_tk`` in turn, by a cumulative sum
        # of steps of 1 but at a run's start (no sort, no temporary but the column itself)
        n_labels, start_tk = n_labels[order], start_tk[order]
        pair_start = np.cumsum(n_labels) - n_labels
        by_pair = np.ones(by_tk.size, np.int64)
        if order.size:
            by_pair[pair_start] = start_tk - np.r_[0, (start_tk + n_labels - 1)[:-1]]
        np.cumsum(by_pair, out=by_pair)
        by_tk.take(by_pair, out=by_pair, mode="clip")  # in place (mode "raise" would buffer a copy)
        del by_tk, start_tk
        place = np.zeros(T * K, np.int64)  # each (instance, leaf)'s pair in the blocks' order
        place[tk[order]] = np.arange(order.size)
        rank = np.take(place, tk_key, out=tk_key, mode="clip")
        del place
        self.pair_tk = tk[order]
        del tk, task_of, order
        # the pairs' sums of their labels' terms, by runs of equal length ``c`` (a pair has ~6 labels on MASC,
        # and reduceat's cost per run was most of an iteration): the ``n`` runs of length ``c`` laid out as a
        # (c, n) block of one index column (the i-th label of each run in row i), gathered by one ``take``
        hard = wt_e is None or bool((wt_e == 1.0).all())
        by_len = np.argsort(n_labels, kind="stable")
        lengths = n_labels[by_len]
        del n_labels
        self.sum_idx = np.empty(rank.size, np.int64)
        self.sum_wt = None if hard else np.empty(rank.size)
        self.runs: list[tuple[int, int, int]] = []  # (first value, c, n) of each block of runs
        bounds = np.flatnonzero(np.r_[True, lengths[1:] != lengths[:-1], True]) if lengths.size else []
        v0 = 0
        for lo, hi in zip(bounds[:-1], bounds[1:]):
            c, n = int(lengths[lo]), int(hi - lo)
            runs = by_len[lo:hi]
            at = by_pair.take(pair_start[runs][None, :] + np.arange(c)[:, None])  # (c, n): labels
            inv.take(at, out=self.sum_idx[v0:v0 + c * n].reshape(c, n))
            if not hard:
                wt_e.take(at, out=self.sum_wt[v0:v0 + c * n].reshape(c, n))
            self.runs.append((v0, c, n))
            v0 += c * n
        self.sums = np.empty(by_len.size)  # the pairs' sums, in the runs' order
        self.sum_of = np.empty(by_len.size, np.int64)  # each pair's place there
        self.sum_of[by_len] = np.arange(by_len.size)
        del by_pair, pair_start, by_len, lengths
        self.values: np.ndarray | None = None  # one label column of gathered values, made at the first use
        self.overflowed = False
        by_key = np.argsort(inv, kind="stable")
        self.pair_by_key = rank[by_key]
        del rank
        self.wt_by_key = None if hard else wt_e[by_key]
        n_labels = np.bincount(inv)  # every key has labels (``inv`` numbers them from 0)
        self.key_start = np.cumsum(n_labels) - n_labels
        del by_key
        pair_task = self.pair_tk // K  # an instance's id
        self.invalid = (self.pair_tk % K) >= n_task[pair_task]  # a label beyond its lexelt's leaves
        self.any_invalid = bool(self.invalid.any())
        n_obs = np.bincount(pair_task[~self.invalid], minlength=T)
        self.n_unobs = np.maximum(n_task - n_obs, 0).astype(np.float64)[self.task_order]
        self.has_unobs = self.n_unobs > 0
        self.lp_task = lp_task[self.task_order]
        self.lp_pair = lp_task[pair_task]
        self.top0 = np.where(self.has_unobs, self.lp_task, -np.inf)

    def _gather(self, src: np.ndarray, idx: np.ndarray) -> np.ndarray:
        """``src.take(idx)`` into the one label column held for it (mode "clip": no bounds' copy)."""
        if self.values is None:
            self.values = np.empty(self.sum_idx.size)
        return src.take(idx, out=self.values, mode="clip")

    def posterior(self, ratio: np.ndarray, log_ratio: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
        """From each key's ``ratio`` ``a / b`` (and its logarithm): the posterior of every pair, that of
        each of an instance's unlabelled leaves, and the log-likelihood up to the sum of ``log a`` (see
        mace).  Whole labels: as products (see :meth:`_by_products`); weighted ones, or once a product
        has overflowed: as sums of logarithms."""
        if self.sum_wt is None and not self.overflowed:
            out = self._by_products(ratio)
            if out is not None:
                return out
            self.overflowed = True  # from then on, the logarithms: the same posteriors, every time
        return self._by_logarithms(np.log1p(ratio) - log_ratio)

    def _by_products(self, ratio: np.ndarray) -> tuple[np.ndarray, np.ndarray, float] | None:
        """The posterior as ``prior * prod_e (a_e + b_e) / a_e`` over each pair's labels, normalised per
        instance: its prior and the common factor ``prod_e a_e`` cancel, an unlabelled leaf's term is 1,
        and no logarithm, maximum or exponential of a pair is taken (they were a third of an iteration on
        MASC); ``None`` if a product overflows (then :meth:`_by_logarithms`).  Each factor is at least 1:
        no product underflows."""
        with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
            h = np.divide(1.0, ratio)
            h += 1.0  # (a + b) / a = 1 + b / a; a key beyond its lexelt's leaves (ratio 0): inf, masked below
            vals = self._gather(h, self.sum_idx)
            p0 = 0
            for v0, c, n in self.runs:
                np.multiply.reduce(vals[v0:v0 + c * n].reshape(c, n), axis=0, out=self.sums[p0:p0 + n])
                p0 += n
            z = self.sums.take(self.sum_of)
            if self.any_invalid:
                z[self.invalid] = 0.0
            s = self.n_unobs.copy()
            for p0, c, n, t0 in self.blocks:  # an instance's sum (its unlabelled leaves 1 each); its pairs over it
                block, s_b = z[p0:p0 + c * n].reshape(c, n), s[t0:t0 + n]
                s_b += np.add.reduce(block, axis=0)
                block /= s_b
            if not np.isfinite(s.max(initial=0.0)):
                return None
            u = np.divide(1.0, s, out=np.zeros(s.size), where=self.has_unobs)
            return z, u, float((np.log(s) + self.lp_task).take(self.task_back).sum())

    def _by_logarithms(self, g_key: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
        """The posterior from each key's term ``g_key = log((a + b) / a)``, summed per pair (as reduceat
        adds them) and exponentiated less each instance's largest."""
        vals = self._gather(g_key, self.sum_idx)
        if self.sum_wt is not None:
            vals *= self.sum_wt
        p0 = 0
        for v0, c, n in self.runs:  # each pair's sum, added as reduceat adds it
            _sum_rows(vals[v0:v0 + c * n].reshape(c, n), self.sums[p0:p0 + n])
            p0 += n
        logm = self.sums.take(self.sum_of)
        logm += self.lp_pair
        if self.any_invalid:
            logm[self.invalid] = -np.inf
        top = self.top0.copy()
        for p0, c, n, t0 in self.blocks:  # an instance's largest term, then its terms less that
            block, top_b = logm[p0:p0 + c * n].reshape(c, n), top[t0:t0 + n]
            np.maximum(top_b, block.max(axis=0), out=top_b)
            block -= top_b
        z = np.exp(logm, out=logm)
        with np.errstate(invalid="ignore"):
            u = np.where(self.has_unobs, np.exp(self.lp_task - top), 0.0)
        s = self.n_unobs * u
        for p0, c, n, t0 in self.blocks:  # an instance's sum, added as reduceat adds it; its pairs over it
            block, s_b = z[p0:p0 + c * n].reshape(c, n), s[t0:t0 + n]
            s_b += _reduceat_sum(block)
            block /= s_b
        u /= s
        return z, u, float((np.log(s) + top).take(self.task_back).sum())

    def key_sums(self, q_pair: np.ndarray, hard: bool) -> np.ndarray:
        """Per key, its labels' (weighted) posterior of their own leaf."""
        if not self.key_start.size:
            return np.zeros(0)
        vals = self._gather(q_pair, self.pair_by_key)
        if not hard:
            vals *= self.wt_by_key
        return np.add.reduceat(vals, self.key_start)

    def posterior_change(self, q: np.ndarray, u: np.ndarray, q_old: np.ndarray, u_old: np.ndarray) -> float:
        """The largest change of any cell of the (instances x K) posterior."""
        d = q - q_old
        du = u - u_old
        return max(float(np.abs(d, out=d).max(initial=0.0)),
                   float(np.abs(du, out=du).max(where=self.has_unobs, initial=0.0)))

    def dense(self, q: np.ndarray, u: np.ndarray, valid_task: np.ndarray) -> np.ndarray:
        """The (instances x K) posterior, the instances in the order of their ids."""
        out = np.where(valid_task, u[self.task_back][:, None], 0.0)
        out.ravel()[self.pair_tk] = q
        return out
