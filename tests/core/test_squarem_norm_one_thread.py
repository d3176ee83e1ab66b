"""SQUAREM's step length needs |r| and |v|: a long vector's squared norm is added one BLAS dot per
8,192 terms (OpenBLAS spreads a longer dot over every core, whose waiting threads cost a 228-set
crowd three quarters of its Dawid & Skene time), and a short one exactly as ``x @ x`` did."""

from __future__ import annotations

import numpy as np

from hieradjudicate.core.crowd.squarem import DOT_CHUNK, sq_norm


def test_a_vector_of_one_chunk_is_added_exactly_as_one_dot():
    rng = np.random.default_rng(3)
    for n in (0, 1, 7, 1000, DOT_CHUNK):
        x = rng.standard_normal(n)
        assert sq_norm(x) == float(x @ x)


def test_a_long_vector_is_added_chunk_by_chunk_in_order():
    x = np.random.default_rng(4).standard_normal(3 * DOT_CHUNK + 5)
    parts = [x[i:i + DOT_CHUNK] for i in range(0, x.size, DOT_CHUNK)]
    assert len(parts) == 4
    want = 0.0
    for p in parts:
        want += float(p @ p)
    assert sq_norm(x) == want
    assert abs(sq_norm(x) - float(np.sum(x * x))) <= 1e-12 * float(np.sum(x * x))
