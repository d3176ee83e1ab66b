"""Trials and failures per integrity class of #22 (tests/store_trials.py), as the reliability note
reports them.  Run from the repository root:

    python benchmarks/reliability_trials.py [TRIALS_PER_CLASS] [CLASS ...]

Each trial is seeded (``22-<class>-<k>``), so a failure reproduces; a failure prints its message.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.store_trials import CLASSES  # noqa: E402


def main() -> None:
    trials = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    names = sys.argv[2:] or list(CLASSES)
    print(f"{'class':<18} {'trials':>6} {'failures':>8}  {'seconds':>7}  outcomes")
    for name in names:
        failures: list[str] = []
        outcomes: Counter[str] = Counter()
        start = time.perf_counter()
        for k in range(trials):
            rng = random.Random(f"22-{name}-{k}")
            with tempfile.TemporaryDirectory(prefix="hadj-trial-") as tmp:
                try:
                    outcomes[CLASSES[name](rng, Path(tmp)).split(":")[0]] += 1
                except AssertionError as exc:
                    failures.append(f"trial {k}: {exc}")
                except Exception as exc:  # noqa: BLE001 - an exception is a failure too
                    failures.append(f"trial {k}: {type(exc).__name__}: {exc}")
        took = time.perf_counter() - start
        shown = ", ".join(f"{n} {o}" for o, n in outcomes.most_common())
        print(f"{name:<18} {trials:>6} {len(failures):>8}  {took:>7.1f}  {shown}")
        for f in failures[:5]:
            print(f"    {f[:300]}")


if __name__ == "__main__":
    main()
