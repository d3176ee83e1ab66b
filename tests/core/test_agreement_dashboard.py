"""all_figures (one shared layout, complete- and uniform-design shortcuts) equals the three separate functions."""

from __future__ import annotations

import numpy as np
import pytest

from hieradjudicate.core.agreement.layout import make_layout
from hieradjudicate.core.agreement.multirater import multi_rater_agreement
from hieradjudicate.core.agreement.pairwise import pairwise_matrix
from hieradjudicate.core.agreement.alpha import krippendorff_alpha
from hieradjudicate.core.dashboard import all_figures, complete_design


def design(kind: str, seed: int, one_lexelt: bool = False) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    n, m, K, X = int(rng.integers(2, 120)), int(rng.integers(2, 6)), int(rng.integers(1, 6)), int(rng.integers(1, 4))
    X = 1 if one_lexelt else X
    lex = rng.integers(0, X, size=n)
    if kind == "complete":  # same raters on every instance, in a fixed (unsorted) order
        inst = np.repeat(np.arange(n), m)
        rater = np.tile(rng.permutation(m + 1)[:m], n)
    elif kind == "uniform":  # c random raters of m + 2 on every instance, rows shuffled
        c = int(rng.integers(2, m + 1))
        inst = np.repeat(np.arange(n), c)
        rater = np.argsort(rng.random((n, m + 2)), axis=1)[:, :c].ravel()
        perm = rng.permutation(len(inst))
        inst, rater = inst[perm], rater[perm]
    else:  # missing data, some instances with a single annotation
        inst, rater = np.nonzero(rng.random((n, m)) < 0.6)
    if seed % 2:
        P = np.eye(K)[rng.integers(0, K, size=len(inst))]
    else:
        P = rng.dirichlet(np.ones(K), size=len(inst))
    return inst, rater, P, lex, m + 2, X


def _same_estimate(a, b) -> None:  # type: ignore[no-untyped-def]
    assert (a.value is None) == (b.value is None) and a.n == b.n and a.reason == b.reason
    if a.value is not None:
        assert b.value == pytest.approx(a.value, rel=1e-11, abs=1e-12)


@pytest.mark.parametrize("kind", ["complete", "uniform", "missing"])
@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("opts", [{}, {"lexelt_chance": "pooled"}, {"distance": "ordinal"}])
def test_all_figures_equals_separate_functions(kind: str, seed: int, opts: dict) -> None:
    # the ordinal distance orders the leaves of one lexelt: its designs have one (every case checks)
    inst, rater, P, lex, m, X = design(kind, seed, one_lexelt=opts.get("distance") == "ordinal")
    if len(inst) < 2:
        pytest.skip(f"the {kind} design of seed {seed} has {len(inst)} annotation(s): nothing to agree on")
    f = all_figures(inst, rater, P, lex, n_raters=m, n_lexelts=X, per_lexelt=True, **opts)
    pm = pairwise_matrix(inst, rater, P, lex, n_raters=m, n_lexelts=X, per_lexelt=True)
    for name in ("n", "observed", "expected_scott", "expected_cohen", "kappa_scott", "kappa_cohen",
                 "macro_scott", "macro_cohen", "lexelt_n", "lexelt_sum_a", "lexelt_pe_scott", "lexelt_pe_cohen"):
        a, b = getattr(pm, name), getattr(f.pairwise, name)
        if isinstance(a, np.ma.MaskedArray):
            assert (a.mask == b.mask).all(), name
        np.testing.assert_allclose(np.asarray(b), np.asarray(a), rtol=1e-11, atol=1e-12, err_msg=name)
    assert (pm.reason_scott == f.pairwise.reason_scott).all() and (pm.reason_cohen == f.pairwise.reason_cohen).all()
    mr = multi_rater_agreement(inst, rater, P, lex, n_lexelts=X)
    for name in ("fleiss", "conger"):
        for a, b in [(getattr(mr, name), getattr(f.multi, name)),
                     *zip(getattr(mr, "lexelt_" + name), getattr(f.multi, "lexelt_" + name))]:
            _same_estimate(a.kappa, b.kappa)
            assert (a.expected is None) == (b.expected is None)
            if a.expected is not None:
                assert b.expected == pytest.approx(a.expected, rel=1e-11, abs=1e-12)
        _same_estimate(getattr(mr, "macro_" + name), getattr(f.multi, "macro_" + name))
    al = krippendorff_alpha(inst, rater, P, lex, n_lexelts=X, **opts)
    _same_estimate(al.alpha, f.alpha.alpha)
    _same_estimate(al.macro_alpha, f.alpha.macro_alpha)
    for a, b in zip(al.lexelt_alpha, f.alpha.lexelt_alpha):
        _same_estimate(a, b)
    assert f.alpha.n_pairable == pytest.approx(al.n_pairable, rel=1e-12)
    np.testing.assert_allclose(f.alpha.coincidence, al.coincidence, rtol=1e-11, atol=1e-11)
    lay = make_layout(inst, rater, P, lex, n_lexelts=X)
    assert (complete_design(lay) is not None) == (kind == "complete")


def test_worked_example_through_all_figures() -> None:
    """Fleiss 309/701 and alpha 2977/6309 of metrics.md (three annotators, complete design)."""
    from tests.core.test_agreement_worked_example import PAIRS, figure1

    inst, rater, P, lex, _ = figure1()
    f = all_figures(inst, rater, P, lex)
    assert complete_design(make_layout(inst, rater, P, lex)) is not None
    assert f.multi.fleiss.observed == pytest.approx(59 / 108, abs=1e-12)
    assert f.multi.fleiss.expected == pytest.approx(163 / 864, abs=1e-12)
    assert f.multi.fleiss.kappa.value == pytest.approx(309 / 701, abs=1e-12)
    assert f.alpha.alpha.value == pytest.approx(2977 / 6309, abs=1e-12)
    for (a, b), (obs, pe_s, k_s, pe_c, k_c) in PAIRS.items():
        assert float(f.pairwise.observed[a, b]) == pytest.approx(float(obs), abs=1e-12)
        assert float(f.pairwise.expected_scott[a, b]) == pytest.approx(float(pe_s), abs=1e-12)
        assert float(f.pairwise.kappa_scott[a, b]) == pytest.approx(float(k_s), abs=1e-12)
        assert float(f.pairwise.expected_cohen[a, b]) == pytest.approx(float(pe_c), abs=1e-12)
        assert float(f.pairwise.kappa_cohen[a, b]) == pytest.approx(float(k_c), abs=1e-12)
