"""The Dawid & Skene EM map on compact arrays (used by :func:`hieradjudicate.core.crowd.competence.dawid_skene`).

A leaf that no label of a lexelt gives any weight has prior 0 there (so posterior 0 on every
instance); only the priors of used leaves are clipped at EPS.

A lexelt with ``n`` leaves needs only ``n`` columns, and an annotator only the
confusion rows of the leaves it used in that lexelt; padding every sum to the
widest lexelt (MASC: 17 leaves where the label-weighted mean is 9.8) and every
confusion table to (annotators x lexelts x K x K) (MASC: 3 M cells, of which
about 9 % are used) made each iteration several times dearer than its sums.
So the lexelts are grouped by their number of leaves; within a group the
instances are numbered in lexelt order, the used confusion rows (annotator,
lexelt, observed leaf) in that order too, and index arrays made once map every
label entry to its instance and its row.  An iteration is then, per group, one
gather + ``reduceat`` of width ``n`` for the E-step and one for the M-step.

Every sum adds the same terms in the same order as the padded code did (zeros
aside), so the figures are the same (tests/core/test_ds_em.py: to 1e-10 against
that code kept as a test oracle).

The parameters are one flat vector (each group's confusion rows, then its
lexelts' priors), so that an accelerator (:mod:`hieradjudicate.core.crowd.squarem`)
can extrapolate them.

The gathers and ``reduceat``s are two thirds of a MASC run (py-spy); other forms measured no cheaper
(MASC, one E-step over every word, CPU, beside this one's 22 ms of sums): whole confusion rows gathered
row-major, 32 bytes an index, halve the gather (6 ms against 10.5) but adding the gathered block in
``reduceat``'s order takes more passes over it than ``reduceat`` (a whole run no faster); the one-hot
labels as a dense matrix times the log table (BLAS on one thread) 37 ms.  Adding a task's gathered rows
one after the other (14 ms) changes last bits and with them which steps SQUAREM keeps: 10 of MASC's 45 words
then take other steps and 5 stop up to 7e-7 from where they stop now, more than the 1e-9 its stored
figures are held to (tests/core/test_competence_masc_reference.py).  So every sum adds in this order.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

EPS = 1e-10


#: entries per ``reduceat`` call: numpy holds the GIL through a ``reduceat`` (``take``, ``exp``... release
#: it), so a window running this in the background would freeze for a whole one (MASC: 20 ms); in
#: pieces of whole runs of this many entries it waits ~1 ms at most, and every sum is unchanged
CHUNK = 1 << 16


class _Runs:
    """``np.add.reduceat(vals, starts, axis=1)`` in pieces of whole runs of at most ~CHUNK entries."""

    def __init__(self, starts: np.ndarray, n_entries: int) -> None:
        self.n = len(starts)
        self.pieces = []
        g = 0
        while g < self.n:
            lo = int(starts[g])
            g1 = max(int(np.searchsorted(starts, lo + CHUNK, side="left")), g + 1)
            hi = int(starts[g1]) if g1 < self.n else n_entries
            self.pieces.append((g, g1, lo, hi, starts[g:g1] - lo))
            g = g1

    def sum_take(self, src: np.ndarray, idx: np.ndarray, wt: np.ndarray | None) -> np.ndarray:
        """``sum(np.take(src, idx, axis=1) * wt)`` gathering one piece at a time: the same sums, without
        the ``(n, entries)`` gather of every entry at once (MASC: up to 17 x 1.08 M floats, #23).  Every
        index is in range (made so by the model), so ``mode="wrap"`` gathers exactly the values the
        default ``"raise"`` would, without its per-index bounds check (a third less time for the gather,
        the larger part of an EM step)."""
        if len(self.pieces) == 1:  # one piece (a word of MASC): its sums are the answer, no copy
            _, _, lo, hi, local = self.pieces[0]
            vals = np.take(src, idx[lo:hi], axis=1, mode="wrap")
            if wt is not None:
                vals *= wt[lo:hi]
            return np.add.reduceat(vals, local, axis=1)
        out = np.empty((src.shape[0], self.n))
        for g, g1, lo, hi, local in self.pieces:
            vals = np.take(src, idx[lo:hi], axis=1, mode="wrap")
            if wt is not None:
                vals *= wt[lo:hi]
            out[:, g:g1] = np.add.reduceat(vals, local, axis=1)
        return out


def _starts(sorted_keys: np.ndarray) -> np.ndarray:
    return np.flatnonzero(np.r_[True, sorted_keys[1:] != sorted_keys[:-1]]) if sorted_keys.size else \
        np.zeros(0, np.int64)


@dataclass
class _Group:
    """The lexelts with ``n`` leaves."""

    n: int
    tasks: np.ndarray  # global task index of each local task (local order: by lexelt, then task)
    lex_start: np.ndarray  # local task where each lexelt of the group starts
    lexelts: np.ndarray  # the group's lexelts (with at least one task), in local order
    lex_count: np.ndarray  # tasks per lexelt (float)
    rows: np.ndarray  # global confusion row id (w*X + x)*K + k_obs of each local row, ascending
    wx_start: np.ndarray  # local row where each (annotator, lexelt) starts
    wx_len: np.ndarray  # rows per (annotator, lexelt)
    b_task: np.ndarray  # per entry in row order: its local task
    b_wt: np.ndarray | None  # its weight (None: all 1)
    b_start: np.ndarray  # where each local row's entries start
    t_row: np.ndarray  # per entry in task order: its local row
    t_wt: np.ndarray | None
    t_start: np.ndarray  # where each local task's entries start
    t_ids: np.ndarray  # the local task of each of those runs (a task whose labels are all zero has none)
    used: np.ndarray | None = None  # (n, lexelts): a label of the lexelt gives the leaf weight (else its prior is 0)
    b_runs: _Runs | None = None  # the M-step's sums over b_start, in pieces
    t_runs: _Runs | None = None  # the E-step's sums over t_start, in pieces
    in_order: bool = False  # the runs are every local task, in order (t_ids is 0, 1, 2, ...)
    e_off: int = 0  # offset of the confusion rows in the flat parameter vector
    p_off: int = 0  # offset of the priors


class DSModel:
    """The labels of :func:`dawid_skene` arranged once for cheap EM iterations."""

    def __init__(self, t_of: np.ndarray, T: int, x_task: np.ndarray, w_e: np.ndarray, t_e: np.ndarray,
                 k_e: np.ndarray, wt_e: np.ndarray, n_leaves: np.ndarray, W: int, K: int) -> None:
        X = len(n_leaves)
        self.T, self.W, self.X, self.K = T, W, X, K
        self.n_leaves = np.asarray(n_leaves, np.int64)
        w_e, k_e = np.asarray(w_e, np.int64), np.asarray(k_e, np.int64)  # a part's (32-bit codes widened)
        hard = bool((wt_e == 1.0).all())
        x_e = x_task[t_e]
        block = (w_e * X + x_e) * K + k_e
        n_task = self.n_leaves[x_task]
        self.groups: list[_Group] = []
        off = 0
        # entries in the order of the padded code's sorts: by row (stable) and by task (stable)
        by_block = np.argsort(block, kind="stable")
        by_task = np.argsort(t_e, kind="stable")
        n_e = n_task[t_e]
        for n in np.unique(n_task):
            n = int(n)
            g_tasks = np.flatnonzero(n_task == n)
            g_tasks = g_tasks[np.argsort(x_task[g_tasks], kind="stable")]  # by lexelt, then task
            local = np.full(T, -1, np.int64)
            local[g_tasks] = np.arange(g_tasks.size)
            gx = x_task[g_tasks]
            ls = _starts(gx)
            eb = by_block[n_e[by_block] == n]
            bs = block[eb]
            b_start = _starts(bs)
            rows = bs[b_start]
            wx_start = _starts(rows // K)
            et = by_task[n_e[by_task] == n]
            lt = local[t_e[et]]
            t_start = _starts(lt)
            g = _Group(n, g_tasks, ls, gx[ls], np.diff(np.r_[ls, g_tasks.size]).astype(float), rows, wx_start,
                       np.diff(np.r_[wx_start, rows.size]), local[t_e[eb]], None if hard else wt_e[eb], b_start,
                       np.searchsorted(rows, block[et]), None if hard else wt_e[et], t_start, lt[t_start])
            g.used = np.zeros((n, g.lexelts.size), bool)
            pos = np.searchsorted(g.lexelts, x_e[eb])
            on = (wt_e[eb] > 0) & (k_e[eb] < n)
            g.used[k_e[eb][on], pos[on]] = True
            g.in_order = g.t_ids.size == g_tasks.size and bool((g.t_ids == np.arange(g_tasks.size)).all())
            g.b_runs = _Runs(b_start, eb.size)
            g.t_runs = _Runs(t_start, et.size)
            g.e_off = off
            off += rows.size * n
            g.p_off = off
            off += g.lexelts.size * n
            self.groups.append(g)
        self.size = off

    # -- the EM map (arrays transposed, (leaves, items): every gather and sum runs along contiguous rows) --
    def m_step(self, posts: list[np.ndarray]) -> np.ndarray:
        """The parameters (flat) from each group's posteriors ``(n, tasks)``: confusion rows clipped at
        EPS and normalised over the observed leaves of each (annotator, lexelt), priors = mean posterior."""
        theta = np.empty(self.size)
        for g, post in zip(self.groups, posts):
            if g.rows.size:
                counts = g.b_runs.sum_take(post, g.b_task, g.b_wt)
                np.maximum(counts, EPS, out=counts)
                norm = np.add.reduceat(counts, g.wx_start, axis=1)
                counts /= np.maximum(np.repeat(norm, g.wx_len, axis=1), EPS * EPS)
                theta[g.e_off:g.p_off] = counts.ravel()
            pri = np.add.reduceat(post, g.lex_start, axis=1) / np.maximum(g.lex_count, 1)
            # a leaf no label of the lexelt gives weight keeps prior 0: clipped at EPS it would be a class
            # every annotator confuses uniformly, free to absorb instances no one gave it (MASC number-n)
            theta[g.p_off:g.p_off + pri.size] = np.where(g.used, np.maximum(pri, EPS), 0.0).ravel()
        return theta

    def e_step(self, theta: np.ndarray) -> tuple[list[np.ndarray], float]:
        """Each group's posteriors ``(n, tasks)`` under ``theta`` and the marginal log-likelihood (summed)."""
        posts = []
        total = 0.0
        with np.errstate(divide="ignore"):
            for g in self.groups:
                logE = np.log(theta[g.e_off:g.p_off].reshape(g.n, -1))
                logp = np.log(theta[g.p_off:g.p_off + g.lexelts.size * g.n].reshape(g.n, -1))
                if g.in_order:  # every task has labels, its runs in order: its sums plus its prior (the same adds)
                    ll = g.t_runs.sum_take(logE, g.t_row, g.t_wt)
                    ll += logp if g.lexelts.size == 1 else np.repeat(logp, g.lex_count.astype(np.int64), axis=1)
                else:
                    ll = np.repeat(logp, g.lex_count.astype(np.int64), axis=1)
                    if g.t_row.size:
                        ll[:, g.t_ids] += g.t_runs.sum_take(logE, g.t_row, g.t_wt)
                top = ll.max(axis=0)
                ll -= top
                z = np.exp(ll, out=ll)
                s = z.sum(axis=0)
                z /= s
                posts.append(z)
                total += float((np.log(s) + top).sum())
        return posts, total

    def start(self, P_task: np.ndarray) -> list[np.ndarray]:
        """Each group's part of the (T, K) start (the normalised soft majority vote), as ``(n, tasks)``."""
        return [np.ascontiguousarray(P_task[g.tasks, :g.n].T) for g in self.groups]

    # -- back to the padded arrays ---------------------------------------------------------------------
    def posterior(self, posts: list[np.ndarray]) -> np.ndarray:
        out = np.zeros((self.T, self.K))
        for g, post in zip(self.groups, posts):
            out[g.tasks, :g.n] = post.T
        return out

    def padded_blocks(self, theta: np.ndarray, errors: bool = True) -> tuple[list, list]:
        """This model's cells of :meth:`padded`'s arrays, group by group: ``[(rows, (rows, K) block)]`` of
        the confusion rows (empty when not ``errors``; a used row's padding columns are normalised EPS,
        i.e. 1 / (rows of its (annotator, lexelt))) and ``[(lexelts, (lexelts, n) block)]`` of the priors.
        :func:`write_blocks` puts them into those arrays (a worker process sends these instead of whole arrays)."""
        counts, pri = [], []
        for g in self.groups:
            if errors:
                block = np.empty((g.rows.size, self.K))
                block[:, g.n:] = (1.0 / np.repeat(g.wx_len, g.wx_len))[:, None]
                block[:, :g.n] = theta[g.e_off:g.p_off].reshape(g.n, -1).T
                counts.append((g.rows, block))
            pri.append((g.lexelts, theta[g.p_off:g.p_off + g.lexelts.size * g.n].reshape(g.n, -1).T))
        return counts, pri

    def padded(self, theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(errors (W, X, K, K), priors (X, K))`` as the padded code had them: a used confusion row is
        EPS beyond its lexelt's leaves (normalised like the rest), a lexelt without instances has EPS priors."""
        W, X, K = self.W, self.X, self.K
        counts = np.zeros((W * X * K, K))
        valid = np.arange(K)[None, :] < self.n_leaves[:, None]
        pri = np.where(valid, EPS, 0.0)
        for g in self.groups:
            counts[g.rows, g.n:] = EPS  # the padding columns: EPS, normalised below as the padded code did
            pri[g.lexelts, :g.n] = theta[g.p_off:g.p_off + g.lexelts.size * g.n].reshape(g.n, -1).T
        E4 = counts.reshape(W, X, K, K)
        E4 /= np.maximum(E4.sum(axis=2, keepdims=True), EPS * EPS)
        for g in self.groups:
            counts[g.rows, :g.n] = theta[g.e_off:g.p_off].reshape(g.n, -1).T
        return E4, pri


def write_blocks(blocks: tuple[list, list], counts: np.ndarray | None, pri: np.ndarray) -> None:
    """Write :meth:`DSModel.padded_blocks` into ``counts`` (``None``: not kept) and ``pri``."""
    rows, priors = blocks
    if counts is not None:
        for r, block in rows:
            counts[r] = block
    for x, block in priors:
        pri[x, :block.shape[1]] = block
