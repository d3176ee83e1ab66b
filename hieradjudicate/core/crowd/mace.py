"""MACE (Hovy, Berg-Kirkpatrick, Vaswani & Hovy 2013) over the leaves of each lexelt.

Each annotator ``w`` either knows the sense (probability ``theta_w``, its
competence) and answers it, or spams: answers leaf ``k`` of lexelt ``x``
with its own strategy ``xi[w, x, k]``, whatever the sense.  The true sense of
an instance is uniform over its lexelt's leaves.  Trained as crowd-kit's
``MACE`` trains it by default: variational Bayes with a symmetric Beta(0.5,
0.5) prior on ``theta`` and a symmetric Dirichlet(10) prior on each strategy,
from a start drawn with ``RandomState(seed)`` (crowd-kit's ten restarts all
draw that same start, so one run is its answer).  crowd-kit runs a fixed 50
iterations; this runs until its parameters and posteriors are estimated
within ``tol`` of the fixed point (as Dawid & Skene, :mod:`hieradjudicate.core.crowd.squarem`;
or ``max_iter`` iterations, then *not converged*); with ``max_iter=50, tol=0`` it is
crowd-kit's run, equal to 1e-9 (tests/core/test_mace.py).

**crowd-kit's MACE and renaming.**  crowd-kit pairs its per-worker and
per-label tables (sorted by name) with codes numbered in order of first
appearance, so merely renaming workers or labels (or reordering the rows) can
give another answer: a worker's labels are then weighed with another worker's
parameters.  Its answer is MACE's only when names sort in order of first
appearance; where the two disagree after a renaming, this module's answer
(invariant, up to ``tol``) is the one to believe (the tests show both).

Vectorised over labels with one identity: an annotation of leaf ``k`` with
``a = (1 - theta) xi[k]`` and ``b = theta`` has likelihood ``a + b`` when the
sense is ``k`` and ``a`` otherwise, so an instance's likelihood of sense
``t`` is ``prod_e a_e * prod_{e: k_e = t} (a_e + b_e) / a_e``; the first
product is the same for every sense and drops out of the posterior, the
second is one grouped product -- no (labels x leaves) array; a leaf no label
gave has the factor 1 (and the uniform prior cancels).  Each factor is at
least 1, so a product never underflows; if one overflows (hundreds of good
labels on an instance), that run takes from then on the logarithms, one
grouped sum of ``log((a_e + b_e) / a_e)`` less each instance's largest
(weighted labels always do: their factor would be a power).  The expected counts
follow from the posterior ``q`` of each label's own leaf: knowing
``q b / (a + b)``, spamming the rest of the label's weight.  The factors
depend only on (annotator, lexelt, leaf), so they are taken once per distinct
triple (MASC: 14,282 of them), and the posterior is held only on the (instance,
leaf) pairs the labels use (:mod:`hieradjudicate.core.crowd.mace_labels`: 0.17 M
where an (instances x K) array has 0.76 M cells).  An iteration is then two
gathers and two grouped reductions over the labels; only the strategies of
(annotator, lexelt) rows with labels are updated after the first (the others
are their prior's from then on), and only those rows' valid cells are held from then on.
MASC (1.08 M labels, 196 iterations to 1e-7 of the fixed point): 2.4-3.3 s CPU
(most runs 2.4-2.9) at load 9-14 on the 2-core machine, the logarithms 3.9-5.1 s in
the same runs (every figure within 2.7e-15 of theirs, the same most probable
senses); 10-11 s before the runs were summed by :mod:`hieradjudicate.core.crowd.slots`.

What differs from crowd-kit by design (tests/core/test_mace.py):

* **label space per lexelt**: the sense is one of its lexelt's leaves and a
  strategy is per annotator *and lexelt* (crowd-kit pools every label of the
  corpus into one space, so a leaf of another lexelt would be possible);
* **soft labels**: a label spread over several leaves (a tag on an inner
  node, weighted tags) contributes its expected log-likelihood and splits its
  counts, where crowd-kit needs one label per answer;
* **log domain**: the per-instance products are summed as logarithms
  (crowd-kit multiplies probabilities, which underflows past a few hundred
  labels per instance).

**Three sets on an instance, or refused.**  With two annotators the joint law of their labels in a
lexelt is ``m1(a) m2(b) + theta1 theta2 (1[a = b] / K - 1 / K**2)``, where the marginals ``m1, m2``
absorb the strategies: only the product ``theta1 theta2`` is determined, and what splits it is the
priors and the start (the demo: ann 0.79 beside ben, 0.85 beside cho; each pair's product the
same as with all three).  Such data are refused as Dawid & Skene's are.

Competence is crowd-kit's ``spamming_[:, 1]`` (the variational weight of
knowing); its spread is the standard deviation of the variational Beta
posterior of ``theta``.  The digamma function is written out here (numpy has
none; checked against SciPy's in the tests).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from hieradjudicate.core.crowd.competence import (MIN_ITER, TOL, Competence, _codes, _entropy_bits, _ids, _unique_inverse,
                                                 require_three_sets)
from hieradjudicate.core.crowd.mace_labels import Labels
from hieradjudicate.core.crowd.squarem import Distance

ALPHA, BETA = 0.5, 0.5  # Beta prior on (spamming, knowing), as crowd-kit
STRATEGY_PRIOR = 10.0  # symmetric Dirichlet prior on each strategy, as crowd-kit
MAX_ITER = 2000  #: iterations at most (crowd-kit runs a fixed 50; MASC to 1e-7 of the fixed point: about 200)
DEFAULT_NOISE = 0.5  # the start: uniform on [1, 1 + 1 + noise) then normalised, as crowd-kit


def digamma(x: np.ndarray) -> np.ndarray:
    """The digamma function for ``x > 0``: ``psi(x) = psi(x + 6) - sum_{i<6} 1 / (x + i)``, then the
    asymptotic series at ``x + 6 >= 6`` (error < 1e-13)."""
    x = np.asarray(x, dtype=np.float64)
    out = -(1.0 / x + 1.0 / (x + 1.0) + 1.0 / (x + 2.0) + 1.0 / (x + 3.0) + 1.0 / (x + 4.0) + 1.0 / (x + 5.0))
    x = x + 6.0
    inv = 1.0 / x
    inv2 = inv * inv
    series = inv2 * (1 / 12 - inv2 * (1 / 120 - inv2 * (1 / 252 - inv2 * (1 / 240 - inv2 * (1 / 132)))))
    return out + np.log(x) - 0.5 * inv - series


def _vb_normalise(counts: np.ndarray, prior: float | np.ndarray, valid: np.ndarray | None = None) -> np.ndarray:
    """crowd-kit's ``variational_normalize``: ``exp(digamma(c + prior)) / exp(digamma(sum(c + prior)))``
    over the last axis (over the ``valid`` entries only; others are 0)."""
    c = counts + prior
    if valid is not None:
        c = np.where(valid, c, 0.0)
    total = c.sum(axis=-1, keepdims=True)
    out = np.exp(digamma(np.where(c > 0, c, 1.0)) - digamma(np.maximum(total, 1e-300)))
    return np.where(c > 0, out, 0.0)


def _vb_normalise_cells(counts: np.ndarray, prior: float, valid: np.ndarray, cells: np.ndarray,
                        row: np.ndarray) -> np.ndarray:
    """:func:`_vb_normalise` of the rows ``counts`` at their ``valid`` ``cells`` only (flat indices,
    ``row`` each one's row), then a 0 (the cell of a key beyond its lexelt's leaves): the same figures
    to the bit, the digammas and exponentials of the valid cells only (MASC: 58 % of them).  The rows'
    totals are summed over the whole rows, as there (the same additions in the same order)."""
    c = counts + prior
    c = np.where(valid, c, 0.0)
    total = c.sum(axis=-1)
    cv = c.ravel()[cells]
    out = np.empty(cells.size + 1)
    np.exp(digamma(np.where(cv > 0, cv, 1.0)) - digamma(np.maximum(total, 1e-300))[row], out=out[:-1])
    out[:-1][cv <= 0] = 0.0
    out[-1] = 0.0
    return out


def mace(inst: np.ndarray, rater: np.ndarray, P: np.ndarray, inst_lexelt: np.ndarray, n_leaves: np.ndarray,
         *, max_iter: int = MAX_ITER, tol: float = TOL, min_iter: int = MIN_ITER, seed: int = 0,
         leaf: np.ndarray | None = None, K: int | None = None,
         names: list[str] | None = None, progress: Callable[[int, int], object] | None = None) -> Competence:
    """MACE over leaf distributions (see the module docstring); arguments as :func:`dawid_skene`.

    Refused, as Dawid & Skene, unless some instance has labels from three or more raters
    (:func:`~hieradjudicate.core.crowd.competence.require_three_sets`): with two, only the product
    of their thetas is determined by the data (see the module docstring).

    Returns a :class:`Competence` whose ``accuracy`` is each annotator's
    competence ``theta``, ``stderr`` the standard deviation of its
    variational posterior, ``errors`` the strategies ``xi`` (workers,
    lexelts, K) and ``priors`` the uniform prior over each lexelt's leaves.
    It stops when ``theta``, the strategies and the posteriors are estimated within ``tol``
    of the fixed point (after ``min_iter``), else after ``max_iter``
    iterations, not converged; ``tol=0`` runs ``max_iter`` iterations, as
    crowd-kit runs its ``n_iter`` (50).

    ``leaf`` (with ``K``, ``P`` then ``None``): each row's one leaf of mass 1, as a crowd's labels are
    (the one-hot ``P`` of MASC is 147 MB; the same figures, to the bit).

    ``progress(k, max_iter)``: called before the labels are arranged (``k`` 0) and after every
    iteration (``k`` so far); it may raise to stop (a window's estimate superseded by another stops
    there instead of running to its end beside it).
    """
    if progress is not None:
        progress(0, max_iter)
    inst, rater = _codes(inst), _codes(rater)  # 32-bit codes read as they are (no copy)
    require_three_sets(inst, rater, names, "MACE", "their competences")
    if leaf is None:
        P = np.asarray(P, np.float64)
        K = P.shape[1]
        r_e, k_e = np.nonzero(P > 0)
        wt_e = P[r_e, k_e]
        hard = bool((wt_e == 1.0).all())  # one leaf per label (a crowd's usual case): no weights to apply
    else:  # the entries nonzero(P > 0) gives for a one-hot P: one per row, in row order, of weight 1
        k_e = _codes(leaf)
        r_e, wt_e, hard = None, None, True
        assert K is not None, "mace(leaf=...) needs K, the number of leaf columns"
    X = len(n_leaves)
    n_leaves = np.asarray(n_leaves, np.int64)
    tasks, t_of = _ids(inst)  # np.unique's arrays, by a count instead of a sort (read only: may be ``inst``)
    workers, w_of = _ids(rater)
    T, W = len(tasks), len(workers)
    n_w = np.bincount(w_of, minlength=W).astype(np.int64)
    x_task = np.asarray(inst_lexelt, np.int64)[tasks]
    valid = np.arange(K)[None, :] < n_leaves[:, None]  # (X, K)
    # each label's (annotator, lexelt, leaf) key and its (instance, leaf) pair, made in place: the
    # million-label columns of the setup are freed as soon as they are used, not held through every
    # iteration (MASC: ~20 columns of 8.7 MB were alive at once, the window's peak, #33)
    t_e = t_of if r_e is None else t_of[r_e]
    strat_key = (w_of if r_e is None else w_of[r_e]).astype(np.int64)  # widened before it is multiplied
    strat_key *= X * K
    del w_of
    x_e = x_task[t_e]
    x_e *= K
    strat_key += x_e
    del x_e
    strat_key += k_e
    tk_key = t_e.astype(np.int64)
    tk_key *= K
    tk_key += k_e
    del t_e, t_of, r_e
    lp_task = -np.log(np.maximum(n_leaves, 1))[x_task]  # the log prior of each of an instance's leaves

    # the start crowd-kit draws: RandomState(seed) uniform on [1, 1 + 1.5), once for the spamming
    # weights and once (a fresh stream) for the strategies, each row normalised
    spam = 1.0 + (1.0 + DEFAULT_NOISE) * np.random.RandomState(seed).random_sample((W, 2))
    spam /= spam.sum(axis=1, keepdims=True)
    xi = 1.0 + (1.0 + DEFAULT_NOISE) * np.random.RandomState(seed).random_sample((W, X, K))
    xi = np.where(valid[None], xi, 0.0)
    xi /= xi.sum(axis=2, keepdims=True)

    # a label's terms depend on its (worker, lexelt, leaf) only: the logarithms are taken once per
    # distinct key, then gathered; the spam count of a label is its weight minus its knowing count
    # (whole labels: counted, sums of 1.0 exact in any order)
    wt_by_key = (np.bincount(strat_key, minlength=W * X * K).astype(np.float64) if wt_e is None
                 else np.bincount(strat_key, weights=wt_e, minlength=W * X * K))
    ukey, inv = _unique_inverse(strat_key)
    del strat_key
    w_u = ukey // (X * K)
    wt_u = wt_by_key[ukey]  # each distinct key's total label weight
    wt_w = wt_by_key.reshape(W, X * K).sum(axis=1)  # each annotator's label weight
    lab = Labels(tk_key, inv, None if hard else wt_e, T, K, n_leaves[x_task], lp_task)
    del tk_key, inv, wt_e
    # the strategies of an (annotator, lexelt) without labels are their prior's after one update;
    # only the rows with labels move after that
    act = np.unique(ukey // K)
    valid_act = valid[act % X]
    # from the second update on, the strategies are held only on those rows (MASC: 1,900 of the 10,260
    # (annotator, lexelt) rows), each key at its cell there; the same figures as on the whole array
    key_act = np.searchsorted(act, ukey // K) * K + ukey % K
    wt_act = wt_by_key.reshape(W * X, K)[act]
    know_by_key = np.zeros(W * X * K)  # zero but at the keys: each annotator's knowing count is its row's sum
    # and on those rows, only at their lexelt's leaves (the valid cells; a key beyond them: the last, a 0)
    cells = np.flatnonzero(valid_act)
    cell_row = cells // K
    key_cell = np.searchsorted(cells, key_act)
    key_cell[np.r_[cells, -1].take(key_cell) != key_act] = cells.size

    def e_step(spam: np.ndarray, xi_u: np.ndarray):
        """``xi_u``: the strategies at the keys; the knowing count of each key is the fourth result."""
        ratio = (spam[:, 0] / spam[:, 1]).take(w_u)  # a / b = (1 - theta) xi / theta
        ratio *= xi_u
        lr = np.log(np.maximum(ratio, 1e-300))
        q_pair, u, loglik = lab.posterior(ratio, lr)
        # log a = log b + log(a / b), summed per key -- by numpy's sum, not ``@``: OpenBLAS runs a dot
        # product of more than 10,000 terms (MASC: 14,282 keys) on every core, and its threads' waiting
        # doubled the CPU time of a whole run on a busy machine (4.4 -> 9.3 s); the figure is only shown
        lr += np.log(spam[:, 1]).take(w_u)
        lr *= wt_u
        loglik += float(lr.sum())
        # knowing: q b / (a + b) per label; b / (a + b) is the key's, so it multiplies the key's sum of q
        ratio += 1.0
        return q_pair, u, loglik, lab.key_sums(q_pair, hard) / ratio

    q, u, loglik, know_u = e_step(spam, xi.ravel()[ukey])
    xi_act = None
    history: list[float] = []
    prior_theta = np.array([ALPHA, BETA])
    counts2 = np.zeros((W, 2))
    converged = False
    change = prev_change = float("nan")
    dist = float("inf")
    bound = Distance()
    it = 0
    for it in range(1, max_iter + 1):
        know_by_key[ukey] = know_u
        kw = know_by_key.reshape(W, X * K).sum(axis=1)
        counts2[:, 1] = kw
        counts2[:, 0] = wt_w - kw
        spam_new = _vb_normalise(counts2, prior_theta)
        change = float(np.abs(spam_new - spam).max(initial=0.0))
        if xi_act is None:  # the first update: every row
            xi_new = _vb_normalise((wt_by_key - know_by_key).reshape(W, X, K), STRATEGY_PRIOR, valid[None])
            change = max(change, float(np.abs(xi_new - xi).max(initial=0.0)))
            xi, xi_act = xi_new, np.r_[xi_new.reshape(W * X, K)[act].ravel()[cells], 0.0]
        else:  # then only the rows with labels move
            know_act = np.zeros(wt_act.size)
            know_act[key_act] = know_u
            xi_new = _vb_normalise_cells(wt_act - know_act.reshape(-1, K), STRATEGY_PRIOR, valid_act, cells, cell_row)
            change = max(change, float(np.abs(xi_new - xi_act).max(initial=0.0)))
            xi_act = xi_new
        spam = spam_new
        q_old, u_old = q, u
        q, u, loglik, know_u = e_step(spam, xi_act.take(key_cell))
        history.append(loglik / max(len(inst), 1))
        if it > 1:  # the distance from the fixed point, estimated as Dawid & Skene's (core.squarem)
            dist = bound(prev_change, change, lab.posterior_change(q, u, q_old, u_old))
        prev_change = change
        if progress is not None:
            progress(it, max_iter)
        if it >= min_iter and dist < tol:
            converged = True
            break
    if xi_act is not None:
        rows = np.zeros(valid_act.shape)
        rows.ravel()[cells] = xi_act[:-1]
        xi.reshape(W * X, K)[act] = rows
    # the variational Beta posterior of theta (knowing): Beta(knowing + beta, spamming + alpha)
    know_by_key[ukey] = know_u
    kw = know_by_key.reshape(W, X * K).sum(axis=1)
    counts2[:, 1] = kw
    counts2[:, 0] = wt_w - kw
    a_post, b_post = counts2[:, 1] + BETA, counts2[:, 0] + ALPHA
    sd = np.sqrt(a_post * b_post / ((a_post + b_post) ** 2 * (a_post + b_post + 1.0)))
    q = lab.dense(q, u, valid[x_task])
    del lab, e_step  # the label columns, before the entropy's temporaries
    entropy = _entropy_bits(q)
    priors = np.where(valid, 1.0 / np.maximum(n_leaves, 1)[:, None], 0.0)
    return Competence(workers, spam[:, 1].copy(), sd, n_w, tasks, q, entropy, xi, priors, it, converged,
                      history, change, dist, float(it))
