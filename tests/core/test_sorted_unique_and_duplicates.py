"""``core.arrays.sorted_unique`` equals ``np.unique``; ``has_duplicate_u64`` finds every duplicate,
also among values whose high 32 bits meet without being equal (the case its second pass decides)."""

from __future__ import annotations

import numpy as np
import pytest

from hieradjudicate.core.arrays import has_duplicate_u64, sorted_unique


@pytest.mark.parametrize("dtype", [np.int64, np.uint64, np.int32])
@pytest.mark.parametrize("n", [0, 1, 2, 7, 1000])
def test_sorted_unique_equals_numpy_unique(dtype, n):
    rng = np.random.default_rng(n)
    values = rng.integers(0, max(n // 3, 1), n).astype(dtype)
    got = sorted_unique(values)
    assert got.dtype == values.dtype
    assert np.array_equal(got, np.unique(values))


def test_sorted_unique_leaves_its_input_unchanged():
    values = np.array([5, 1, 5, 3], dtype=np.uint64)
    sorted_unique(values)
    assert values.tolist() == [5, 1, 5, 3]


def test_no_duplicate_among_distinct_hashes():
    values = np.random.default_rng(0).integers(0, 2**63, 50_000, dtype=np.int64).astype(np.uint64)
    assert len(set(values.tolist())) == values.size  # the premise
    assert not has_duplicate_u64(values)


def test_a_duplicate_is_found_wherever_it_is():
    values = np.random.default_rng(1).integers(0, 2**63, 10_000, dtype=np.int64).astype(np.uint64)
    for a, b in [(0, 1), (0, 9_999), (4_321, 17)]:
        twice = values.copy()
        twice[b] = twice[a]
        assert has_duplicate_u64(twice)


def test_equal_high_halves_with_different_low_halves_are_not_duplicates():
    high = np.uint64(0xDEADBEEF) << np.uint64(32)
    values = np.array([high | np.uint64(1), high | np.uint64(2), np.uint64(7), high | np.uint64(3)], dtype=np.uint64)
    assert not has_duplicate_u64(values)
    values[3] = values[1]
    assert has_duplicate_u64(values)


@pytest.mark.parametrize("values", [[], [3]])
def test_fewer_than_two_values_have_no_duplicate(values):
    assert not has_duplicate_u64(np.array(values, dtype=np.uint64))
