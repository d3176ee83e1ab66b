"""Timing of the agreement figures (prints, never asserts).

(a) 100,000 instances, 3 raters, 50 lexelts, K=8, soft vectors: pairwise
    matrix + Fleiss/Conger + alpha + per-lexelt figures (target ~20 ms).
(b) 1000 stratified bootstrap resamples of (a): pairwise kappas of the three
    pairs, Fleiss and alpha (target < 2 s).
(c) MASC-like: 44,682 instances, 45 lexelts, 229 raters, 24 random raters
    per instance, K=12, one-hot: all figures incl. the full pairwise matrix
    (target < 1 s).

Each figure is timed alone and, for (a) and (c), all three together through
``core.dashboard.all_figures`` (one layout); (b) through
``core.bootstrap.bootstrap_figures`` (one set of draws) and as five calls.
Times are best of several runs (the machine is shared).  Run it in an older
checkout (``PYTHONPATH=<checkout>``) for before/after figures.

Run: ``python benchmarks/bench_agreement.py``
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from hieradjudicate.core.agreement.multirater import multi_rater_agreement
from hieradjudicate.core.agreement.pairwise import pairwise_matrix
from hieradjudicate.core.agreement.alpha import krippendorff_alpha

try:
    from hieradjudicate.core.dashboard import all_figures as dashboard_figures
except ImportError:  # older checkouts (for before/after figures)
    dashboard_figures = None
from hieradjudicate.core.agreement.bootstrap import bootstrap_alpha, bootstrap_fleiss, bootstrap_pairwise

try:
    from hieradjudicate.core.agreement.bootstrap import bootstrap_figures
except ImportError:  # older checkouts
    bootstrap_figures = None


def best_of(fn: Callable[[], Any], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def dataset_a(seed: int = 0) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    n, m, K, X = 100_000, 3, 8, 50
    lex = np.sort(rng.integers(0, X, size=n))
    inst = np.repeat(np.arange(n), m)
    rater = np.tile(np.arange(m), n)
    P = rng.dirichlet(np.full(K, 0.3), size=n * m)
    return inst, rater, P, lex


def dataset_c(seed: int = 0) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    n, m, per, K, X = 44_682, 229, 24, 12, 45
    lex = np.sort(rng.integers(0, X, size=n))
    rater = np.argsort(rng.random((n, m)), axis=1)[:, :per].ravel()
    inst = np.repeat(np.arange(n), per)
    P = np.eye(K)[rng.integers(0, K, size=n * per)]
    return inst, rater, P, lex


def all_figures(inst: np.ndarray, rater: np.ndarray, P: np.ndarray, lex: np.ndarray) -> None:
    pairwise_matrix(inst, rater, P, lex)
    multi_rater_agreement(inst, rater, P, lex)
    krippendorff_alpha(inst, rater, P, lex)


def main() -> None:
    a = dataset_a()
    inst, rater, P, lex = a
    print(f"(a) {len(lex):,} instances, {len(inst):,} annotations, 3 raters, 50 lexelts, K=8")
    t_pm = best_of(lambda: pairwise_matrix(inst, rater, P, lex))
    t_mr = best_of(lambda: multi_rater_agreement(inst, rater, P, lex))
    t_al = best_of(lambda: krippendorff_alpha(inst, rater, P, lex))
    print(f"    pairwise matrix {1e3 * t_pm:7.1f} ms | Fleiss+Conger {1e3 * t_mr:6.1f} ms | "
          f"alpha {1e3 * t_al:6.1f} ms | total {1e3 * (t_pm + t_mr + t_al):6.1f} ms (per-lexelt figures included)")
    if dashboard_figures is not None:
        t_all = best_of(lambda: dashboard_figures(inst, rater, P, lex), repeat=9)
        print(f"    all three from one layout (core.dashboard.all_figures) {1e3 * t_all:6.1f} ms")

    pairs = [(P[rater == r], lex) for r in range(3)]

    def boot() -> None:
        for x, y in ((0, 1), (0, 2), (1, 2)):
            bootstrap_pairwise(pairs[x][0], pairs[y][0], lex)
        bootstrap_fleiss(inst, rater, P, lex)
        bootstrap_alpha(inst, rater, P, lex)

    t_b = best_of(boot, repeat=2)
    t_b1 = best_of(lambda: bootstrap_fleiss(inst, rater, P, lex), repeat=2)
    if bootstrap_figures is not None:
        t_ball = best_of(lambda: bootstrap_figures(inst, rater, P, lex), repeat=3)
        print(f"(b) 1000 resamples, 3 pairwise (both kappas) + Fleiss + alpha: shared draws (bootstrap_figures) "
              f"{t_ball:6.2f} s")
    print(f"    five separate calls {t_b:6.2f} s (one figure, e.g. Fleiss: {t_b1:5.2f} s)")

    c = dataset_c()
    print(f"(c) MASC-like: {len(c[3]):,} instances, {len(c[0]):,} annotations, 229 raters, 45 lexelts, K=12")
    t_cpm = best_of(lambda: pairwise_matrix(*c), repeat=3)
    t_cmr = best_of(lambda: multi_rater_agreement(*c), repeat=3)
    t_cal = best_of(lambda: krippendorff_alpha(*c), repeat=3)
    print(f"    pairwise matrix {1e3 * t_cpm:7.1f} ms | Fleiss+Conger {1e3 * t_cmr:6.1f} ms | "
          f"alpha {1e3 * t_cal:6.1f} ms | total {1e3 * (t_cpm + t_cmr + t_cal):6.1f} ms")
    if dashboard_figures is not None:
        t_call = best_of(lambda: dashboard_figures(*c), repeat=3)
        print(f"    all three from one layout (core.dashboard.all_figures) {1e3 * t_call:6.1f} ms")


if __name__ == "__main__":
    main()
