"""The most raters on one instance is counted the same whatever the ids' range (a table of the
(instance, rater) pairs for compact ids, numpy's unique for sparse ones)."""

from __future__ import annotations

import numpy as np

from hieradjudicate.core.crowd.competence import sets_per_instance


def _expected(inst: np.ndarray, rater: np.ndarray) -> int:
    return max(len({r for i2, r in zip(inst.tolist(), rater.tolist()) if i2 == i}) for i in set(inst.tolist()))


def test_compact_and_sparse_ids_give_the_same_count() -> None:
    rng = np.random.default_rng(3)
    inst = rng.integers(0, 40, 600)
    rater = rng.integers(0, 9, 600)
    want = _expected(inst, rater)
    assert sets_per_instance(inst, rater) == want
    assert sets_per_instance(inst * 10_000_019, rater) == want  # keys far beyond the table's bound
    assert sets_per_instance(inst + 7, rater * 1_000_003) == want  # sparse rater ids


def test_a_rater_labelling_an_instance_twice_counts_once() -> None:
    inst = np.array([0, 0, 0, 1, 1, 1, 1])
    rater = np.array([0, 0, 1, 0, 1, 2, 2])
    assert sets_per_instance(inst, rater) == 3
    assert sets_per_instance(inst[:3], rater[:3]) == 2
