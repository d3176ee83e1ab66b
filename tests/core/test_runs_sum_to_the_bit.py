"""Sums over runs of gathered values (core.crowd.slots) equal numpy's reduceat to the bit.

An EM that compares log-likelihoods (Dawid & Skene's SQUAREM safeguard) or stops on a distance takes
other steps when a sum moves by one rounding, so the faster sums must add exactly as reduceat does:
runs of every length (pairwise summation from 9 terms on, reduceat itself past 129), weighted or not,
one row of values or several.
"""

from __future__ import annotations

import numpy as np
import pytest

from hieradjudicate.core.crowd.slots import MAX_VALUES, Slots


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("longest", [1, 9, 30, 300])
def test_sums_and_maxima_equal_reduceat_to_the_bit(seed: int, longest: int) -> None:
    rng = np.random.default_rng(seed)
    lengths = rng.integers(1, longest + 1, size=300)
    starts = np.r_[0, np.cumsum(lengths)[:-1]]
    idx = rng.integers(0, 60, int(lengths.sum()))
    src = rng.normal(size=(4, 60)) * 10.0 ** rng.integers(-3, 4, size=(4, 60))
    wt = rng.random(idx.size) if seed % 2 else None
    gathered = src.take(idx, axis=1) * (1.0 if wt is None else wt)
    assert np.array_equal(Slots(starts, idx, wt, width=4).sum_take(src), np.add.reduceat(gathered, starts, axis=1))
    assert np.array_equal(Slots(starts, idx, wt).sum_take(src[1]), np.add.reduceat(gathered[1], starts))
    assert np.array_equal(Slots(starts, idx).max_take(src[2]), np.maximum.reduceat(src[2].take(idx), starts))


def test_runs_of_one_length_in_order_and_pieces_give_the_same_sums(monkeypatch) -> None:
    rng = np.random.default_rng(7)
    starts = np.arange(0, 25 * 400, 25)
    idx = rng.integers(0, 40, 25 * 400)
    src = rng.normal(size=(3, 40))
    want = np.add.reduceat(src.take(idx, axis=1), starts, axis=1)
    assert np.array_equal(Slots(starts, idx, width=3).sum_take(src), want)
    monkeypatch.setattr("hieradjudicate.core.crowd.slots.MAX_VALUES", 25 * 3 * 7)  # pieces of 7 runs
    cut = Slots(starts, idx, width=3)
    assert len(cut.groups) > 1 and MAX_VALUES > 25 * 3 * 7
    assert np.array_equal(cut.sum_take(src), want)


@pytest.mark.parametrize("c", [1, 2, 7, 8, 9, 16, 17, 24, 25, 40, 129, 130, 200])
def test_mace_pairs_sums_of_a_block_of_runs_equal_reduceat_to_the_bit(c: int) -> None:
    from hieradjudicate.core.crowd.mace_labels import _sum_rows

    rng = np.random.default_rng(c)
    n = 50
    block = rng.normal(size=(c, n)) * 10.0 ** rng.integers(-4, 5, size=(c, n))  # the i-th term of each run in row i
    out = np.full(n, np.nan)
    _sum_rows(block, out)
    assert np.array_equal(out, np.add.reduceat(block.T.ravel(), np.arange(0, c * n, c)))
