"""Coverage of the 95 % agreement intervals on all-words data: small lexelts resampled whole or alone.

All-words data are mostly lexelts of one to three instances.  Each lexelt here has its own mix of three
senses (Dirichlet(1)); an instance's true sense is drawn from it, and each annotator gives the true sense
with probability 0.6, else a fresh draw from the mix.  The population value of a figure (Cohen's kappa of
two annotators, Fleiss' kappa and Krippendorff's alpha of three, chance agreement within each lexelt) is
the figure on 100,000 lexelts drawn the same way; the coverage is the share of samples of ``X`` lexelts
whose interval holds it, with the lexelts of fewer than 10 instances resampled whole as one stratum (the
default) and with every lexelt resampled alone (``min_stratum=1``, as before).  Nominal: 0.95.

    python benchmarks/bench_ci_coverage_all_words.py [TRIALS] [X]     (default 200 samples of 150 lexelts)
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np

from hieradjudicate.core.agreement.multirater import fleiss_agreement
from hieradjudicate.core.agreement.layout import make_layout
from hieradjudicate.core.agreement.pairwise import pairwise_agreement
from hieradjudicate.core.agreement.alpha import krippendorff_alpha
from hieradjudicate.core.agreement.bootstrap import bootstrap_alpha, bootstrap_fleiss, bootstrap_pairwise

K = 3


def sample(rng: np.random.Generator, n_lexelts: int, m: int) -> tuple[list[np.ndarray], np.ndarray]:
    lex = np.repeat(np.arange(n_lexelts), rng.integers(1, 4, n_lexelts))
    mix = rng.dirichlet(np.ones(K), n_lexelts)[lex].cumsum(axis=1)

    def draw() -> np.ndarray:
        return np.minimum((rng.random(lex.size)[:, None] > mix).sum(axis=1), K - 1)

    truth = draw()
    return [np.where(rng.random(lex.size) < 0.6, truth, draw()) for _ in range(m)], lex


def long_form(labels: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n = labels[0].size
    return np.tile(np.arange(n), len(labels)), np.repeat(np.arange(len(labels)), n), np.eye(K)[np.concatenate(labels)]


def figure(name: str, labels: list[np.ndarray], lex: np.ndarray, X: int) -> float:
    if name == "cohen":
        return pairwise_agreement(np.eye(K)[labels[0]], np.eye(K)[labels[1]], lex, n_lexelts=X).cohen.kappa.value
    inst, rater, P = long_form(labels)
    if name == "fleiss":
        return fleiss_agreement(make_layout(inst, rater, P, lex, n_lexelts=X)).kappa.value
    return krippendorff_alpha(inst, rater, P, lex, n_lexelts=X).alpha.value


def interval(name: str, labels: list[np.ndarray], lex: np.ndarray, X: int, seed: int, method: str,
             min_stratum: int):
    kw = dict(n_lexelts=X, n_resamples=400, seed=seed, method=method, min_stratum=min_stratum)
    if name == "cohen":
        return bootstrap_pairwise(np.eye(K)[labels[0]], np.eye(K)[labels[1]], lex, **kw)[1]
    boot = bootstrap_fleiss if name == "fleiss" else bootstrap_alpha
    return boot(*long_form(labels), lex, **kw)


def main() -> None:
    trials = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    X = int(sys.argv[2]) if len(sys.argv) > 2 else 150
    print(f"load average {os.getloadavg()[0]:.2f}; {trials} samples of {X} lexelts of 1-3 instances, 400 resamples")
    for name, m in (("cohen", 2), ("fleiss", 3), ("alpha", 3)):
        truth = figure(name, *sample(np.random.default_rng(99), 100_000, m), 100_000)
        t0 = time.process_time()
        rng = np.random.default_rng(12)
        hits: dict[str, int] = {}
        width: dict[str, float] = {}
        for t in range(trials):
            labels, lex = sample(rng, X, m)
            for label, ms in (("whole", 10), ("alone", 1)):
                for method in ("bca", "percentile"):
                    ci = interval(name, labels, lex, X, t, method, ms)
                    key = f"{label} {method}"
                    hits[key] = hits.get(key, 0) + (ci.low <= truth <= ci.high)
                    width[key] = width.get(key, 0.0) + (ci.high - ci.low) / trials
        cover = ", ".join(f"{k} {v / trials:.3f} (width {width[k]:.3f})" for k, v in hits.items())
        print(f"{name:6s} population {truth:.3f}: {cover}; {time.process_time() - t0:.0f} CPU s")


if __name__ == "__main__":
    main()
