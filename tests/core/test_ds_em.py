"""#24 follow-up: Dawid & Skene on compact arrays (same figures as the padded code) and SQUAREM
(fewer EM steps, the same fixed point, convergence claimed only on a plain EM step)."""

from __future__ import annotations

import numpy as np
import pytest

from hieradjudicate.core.crowd.competence import dawid_skene
from tests.core.ds_reference import dawid_skene_padded
from tests.core.test_competence import crowd

FIELDS = ("accuracy", "stderr", "n_labels", "posterior", "entropy", "errors", "priors")


def _same(a, b, tol=1e-10) -> None:
    assert a.iterations == b.iterations and a.converged == b.converged
    assert np.array_equal(a.workers, b.workers) and np.array_equal(a.tasks, b.tasks)
    for f in FIELDS:
        x, y = getattr(a, f), getattr(b, f)
        assert x.shape == y.shape, f
        assert np.abs(x - y).max(initial=0.0) < tol, f
    assert np.abs(np.array(a.elbo) - np.array(b.elbo)).max() < tol
    assert a.change == pytest.approx(b.change, abs=tol)


def _soft(seed: int):
    """Hard and soft labels mixed, lexelts of different widths, one lexelt without instances, one
    label that is all zeros (its instance has no other label), annotators absent from some lexelts."""
    inst, rater, P, lex, n_leaves, _, _ = crowd(seed, n=300, workers=9, X=6, K=5)
    rng = np.random.default_rng(seed)
    soft = rng.random(len(inst)) < 0.3
    for r in np.flatnonzero(soft):
        n = n_leaves[lex[inst[r]]]
        w = rng.random(n) * (rng.random(n) < 0.6)
        if w.sum() > 0:
            P[r] = 0.0
            P[r, :n] = w / w.sum()
    lex = np.where(lex == 5, 4, lex)  # lexelt 5 keeps its leaves but has no instance
    lone = int(inst.max()) + 1
    inst = np.r_[inst, lone]
    rater = np.r_[rater, 0]
    P = np.vstack([P, np.zeros(P.shape[1])])
    lex = np.r_[lex, 2]
    return inst, rater, P, lex, n_leaves


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_compact_arrays_give_the_padded_figures(seed: int) -> None:
    args = _soft(seed)
    for kw in ({"max_iter": 7, "tol": 0.0}, {"max_iter": 150, "tol": 0.0}):  # the EM map, short and long
        _same(dawid_skene(*args, accelerate=False, **kw), dawid_skene_padded(*args, **kw))
    hard = crowd(seed + 10)[:5]
    _same(dawid_skene(*hard, accelerate=False, max_iter=150, tol=0.0), dawid_skene_padded(*hard, max_iter=150, tol=0.0))


def test_masc_subset_equals_the_padded_code(realdata) -> None:
    """Twelve MASC lexelts (all widths from 5 to 17 leaves among them), 25 EM steps: equal to 1e-10."""
    from hieradjudicate.app.loading.load import AnnotationSpec, load

    d = realdata / "masc_amt"
    c = load([str(d / "inventory_tree.tsv")], [AnnotationSpec(str(d / "masc_amt_labels_wide.tsv.gz"))], []).corpus
    inst, rater, P, _ = c.long_form(sets=[k for k, s in enumerate(c.sets) if s.role == "annotator"])
    nl = c.inventory.n_leaves
    pick = np.r_[np.argsort(nl)[::4], np.argmax(nl)]  # lexelts of many widths, the widest among them
    keep = np.isin(c.inst_lexelt[inst], pick)
    args = (inst[keep], rater[keep], P[keep], c.inst_lexelt, nl)
    _same(dawid_skene(*args, max_iter=25, tol=0.0, accelerate=False), dawid_skene_padded(*args, max_iter=25, tol=0.0))


def _model(seed: int):
    from hieradjudicate.core.crowd.competence import EPS, _start
    from hieradjudicate.core.crowd.ds_em import DSModel

    inst, rater, P, lex, n_leaves = _soft(seed)
    tasks, t_of = np.unique(inst, return_inverse=True)
    workers, w_of = np.unique(rater, return_inverse=True)
    r_e, k_e = np.nonzero(P > 0)
    m = DSModel(t_of, len(tasks), lex[tasks], w_of[r_e], t_of[r_e], k_e, P[r_e, k_e], n_leaves, len(workers), P.shape[1])
    post = _start(P, t_of, len(tasks), P.shape[1])
    post /= np.maximum(post.sum(axis=1, keepdims=True), EPS)
    return m, m.m_step(m.start(post))


@pytest.mark.parametrize("seed", [3, 4])
def test_squarem_converges_only_on_a_plain_em_step_and_never_lowers_the_likelihood(seed: int) -> None:
    from hieradjudicate.core.crowd.squarem import plain_em, squarem

    m, theta0 = _model(seed)
    tol = 1e-8
    fit = squarem(m.e_step, m.m_step, theta0, max_iter=5000, tol=tol, min_iter=5)
    plain = plain_em(m.e_step, m.m_step, theta0, max_iter=5000, tol=tol, min_iter=5)
    assert fit.converged and plain.converged
    # the claim is checked on the un-accelerated map: posts are those of `start`, theta = F(start)
    posts, _ = m.e_step(fit.start)
    for a, b in zip(posts, fit.posts):
        assert np.array_equal(a, b)
    assert np.array_equal(m.m_step(fit.posts), fit.theta)
    assert np.abs(fit.theta - fit.start).max() == fit.change and fit.distance < tol
    # the safeguard: never below where a cycle started, up to rounding (a plain step's log-likelihood, a
    # sum of logs, can fall by a few units in its last place: 2e-13 of 1,257 on an AVX-512 machine)
    ll = np.asarray(fit.loglik)
    assert np.all(np.diff(ll) >= -1e-12 * np.abs(ll[1:]))
    assert fit.extrapolations > 0 and fit.iterations < plain.iterations
    # the same fixed point (both within about tol / (1 - rate) of it)
    assert np.abs(fit.theta - plain.theta).max() < 1e-5


def test_max_iter_bounds_the_em_steps_and_progress_counts_them() -> None:
    args = _soft(5)
    seen: list[tuple[int, int]] = []
    for acc in (True, False):
        seen.clear()
        out = dawid_skene(*args, max_iter=9, tol=0.0, accelerate=acc, progress=lambda k, n: seen.append((k, n)))
        assert out.iterations == 9 and not out.converged
        assert seen == [(k, 9) for k in range(1, 10)]


def test_accelerated_and_plain_agree_on_what_is_shown() -> None:
    args = crowd(6, n=1500)[:5]
    a = dawid_skene(*args, tol=1e-9, max_iter=5000)
    b = dawid_skene(*args, tol=1e-9, max_iter=5000, accelerate=False)
    assert a.converged and b.converged and a.iterations < b.iterations
    assert np.abs(a.accuracy - b.accuracy).max() < 1e-6
    assert np.abs(a.posterior - b.posterior).max() < 1e-5


def test_the_work_part_by_part_adds_up_to_the_passes(monkeypatch) -> None:
    from hieradjudicate.core.crowd import ds_parts

    monkeypatch.setattr(ds_parts, "PART_LABELS", 400)  # several parts from a small crowd
    inst, rater, P, lex, n_leaves = crowd(6, n=1500)[:5]
    out = dawid_skene(inst, rater, P, lex, n_leaves, tol=1e-9, max_iter=5000)
    assert len(out.runs) > 1
    assert sorted(x for pr in out.runs for x in pr.lexelts) == list(range(len(n_leaves)))
    assert sum(pr.labels for pr in out.runs) == len(inst)  # one-hot labels: one entry each
    work = sum(sum(pr.steps) * pr.labels for pr in out.runs) / len(inst)
    assert work == pytest.approx(out.passes)
    for pr in out.runs:
        assert len(pr.steps) == len(pr.loglik) == len(pr.escaped) >= 2 and not pr.escaped[0]
