"""The pairwise matrix's two ways to the pair sums (dense matmuls, pairs within instances) agree with each other
and with :func:`pairwise_agreement` on every pair."""

from __future__ import annotations

import numpy as np
import pytest

from hieradjudicate.core.agreement import pairwise


def sparse_data(seed: int) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    n, m, K, X = int(rng.integers(20, 200)), int(rng.integers(3, 30)), int(rng.integers(1, 6)), int(rng.integers(1, 4))
    lex = rng.integers(0, X, size=n)
    inst, rater = np.nonzero(rng.random((n, m)) < rng.uniform(0.05, 0.6))
    perm = rng.permutation(len(inst))
    inst, rater = inst[perm], rater[perm]
    if seed % 2:
        P = np.eye(K)[rng.integers(0, K, size=len(inst))]
    else:
        P = rng.dirichlet(np.full(K, 0.5), size=len(inst)) * (rng.random((len(inst), 1)) < 0.9)
    return inst, rater, P, lex, m, X


@pytest.mark.parametrize("seed", range(12))
def test_dense_and_sparse_paths_equal_pairwise_agreement(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    inst, rater, P, lex, m, X = sparse_data(seed)
    results = []
    for cost in (0.0, 1e12):  # 0: always the pairs within instances; huge: always dense
        monkeypatch.setattr(pairwise, "_DENSE_FLOP_COST", cost)
        results.append(pairwise.pairwise_matrix(inst, rater, P, lex, n_raters=m, n_lexelts=X, per_lexelt=True))
    sp, de = results
    for f in ("n", "observed", "expected_scott", "expected_cohen", "kappa_scott", "kappa_cohen",
              "macro_scott", "macro_cohen", "lexelt_n", "lexelt_sum_a", "lexelt_pe_scott", "lexelt_pe_cohen"):
        a, b = getattr(sp, f), getattr(de, f)
        if isinstance(a, np.ma.MaskedArray):
            assert (a.mask == b.mask).all(), f
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=0, atol=1e-12, err_msg=f)
    assert (sp.reason_scott == de.reason_scott).all() and (sp.reason_cohen == de.reason_cohen).all()
    for a in range(m):
        for b in range(a + 1, m):
            ia, ib = inst[rater == a], inst[rater == b]
            shared, pa_i, pb_i = np.intersect1d(ia, ib, return_indices=True)
            ref = pairwise.pairwise_agreement(P[rater == a][pa_i], P[rater == b][pb_i], lex[shared], n_lexelts=X)
            assert sp.n[a, b] == len(shared)
            for cell, est in ((sp.kappa_scott[a, b], ref.scott.kappa), (sp.kappa_cohen[a, b], ref.cohen.kappa)):
                if est.value is None:
                    assert cell is np.ma.masked
                else:
                    assert float(cell) == pytest.approx(est.value, abs=1e-12)
