"""Coverage of the 95 % bootstrap intervals by simulation (#13 item 5): BCa against percentile.

A known population (two raters' joint distribution over three senses; its Cohen kappa
is known exactly); many samples of ``n`` instances; the share of samples whose
interval holds the population kappa.  Nominal: 0.95.

    python benchmarks/bench_ci_coverage.py [TRIALS] [N]
"""

from __future__ import annotations

import sys
import time

import numpy as np

from hieradjudicate.core.agreement.bootstrap import bootstrap_pairwise

JOINT = np.array([[0.30, 0.05, 0.02], [0.04, 0.25, 0.06], [0.03, 0.05, 0.20]])


def main() -> None:
    trials = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 60
    po, pe = np.trace(JOINT), JOINT.sum(1) @ JOINT.sum(0)
    truth = (po - pe) / (1 - pe)
    for method in ("bca", "percentile"):
        rng = np.random.default_rng(0)
        hits = below = 0
        t0 = time.perf_counter()
        for t in range(trials):
            cells = rng.choice(9, size=n, p=JOINT.ravel())
            _, cohen = bootstrap_pairwise(np.eye(3)[cells // 3], np.eye(3)[cells % 3], n_resamples=1000,
                                          seed=t, method=method)
            hits += cohen.low <= truth <= cohen.high
            below += truth < cohen.low
        print(f"{method:10s}: coverage {hits / trials:.3f} of nominal 0.95 ({trials} samples of {n} "
              f"instances, 1000 resamples; truth below the interval {below / trials:.3f}); "
              f"{time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
