"""The reliability suite extended to #22's classes (see tests/store_trials.py): a few seeded trials
each by default, ``HIERADJ_RELIABILITY_TRIALS=200`` for a long run; every assertion holds for every
random place and moment (benchmarks/reliability_trials.py prints trials and failures per class)."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from tests.store_trials import CLASSES

TRIALS = int(os.environ.get("HIERADJ_RELIABILITY_TRIALS", "3"))


@pytest.mark.parametrize("name", list(CLASSES))
def test_integrity_class(tmp_path: Path, name: str) -> None:
    rng = random.Random(f"22-{name}")
    outcomes: dict[str, int] = {}
    for k in range(TRIALS):
        folder = tmp_path / str(k)
        folder.mkdir()
        outcome = CLASSES[name](rng, folder)
        key = outcome.split(":")[0]
        outcomes[key] = outcomes.get(key, 0) + 1
    print(name, outcomes)
