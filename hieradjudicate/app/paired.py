"""Paired significance tests of systems scored on one gold: the one code path of ``compare``, the
dashboard's paired panel, its stored-runs panel and the report (no Qt).

Every place that tests two systems calls :func:`run_tests` with the same settings
(:data:`SHUFFLES`, :data:`RESAMPLES`, :data:`SEED`: ``compare``'s defaults), the same groupings
(:func:`groupings`: the whole evaluation, each data set of the WSD framework's ``ALL`` files, each
part of speech) and the same correctness rule (``score >= threshold``,
:func:`~hieradjudicate.core.compare.comparison.correct_matrix`), so one seed gives one set of figures in
the window, the report and on the command line (#31 item 4: the paired panel used the agreement
bootstrap's seed, 20240601, the stored-runs panel and ``compare`` 0; and the draws depended on the
order the two systems were given in, fixed in :func:`~hieradjudicate.core.compare.significance.paired_test`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from hieradjudicate.core.compare.comparison import correct_matrix
from hieradjudicate.core.compare.regression import ALL, Grouping, grouping, tests_by_group
from hieradjudicate.core.compare.significance import PairTest, pairs_of

#: approximate randomization shuffles, paired bootstrap resamples, their seed, the interval's level
SHUFFLES = 10_000
RESAMPLES = 1_000
SEED = 0
CONFIDENCE = 0.95


@dataclass(frozen=True)
class Settings:
    shuffles: int = SHUFFLES
    resamples: int = RESAMPLES
    seed: int = SEED
    confidence: float = CONFIDENCE
    threshold: float = 1.0

    def text(self) -> str:
        """The settings in words (every place that shows the tests says them)."""
        return (f"{self.confidence:.0%} paired bootstrap interval ({self.resamples:,} resamples), approximate "
                f"randomization ({self.shuffles:,} shuffles), seed {self.seed}; correct = score >= "
                f"{self.threshold:g}")


def groupings(ids_at: Callable[[np.ndarray], Sequence], n: int, lex_code: np.ndarray, lexelts: Sequence[str],
              *, by_lexelt: bool = False) -> list[Grouping]:
    """The groups the tests are run in besides the whole evaluation: ``data set`` (instance ids of
    the WSD framework's ``ALL`` files, ``senseval2.d000.s000.t000``, more than one prefix), ``part of
    speech`` (from each lexelt's suffix) and, when asked, ``lexelt``.  ``ids_at(idx)`` gives the
    instance ids of scored instances ``idx``; ``lex_code[i]`` the lexelt (index into ``lexelts``)."""
    from hieradjudicate.app.datasets import FRAMEWORK_ID
    from hieradjudicate.core.scoring.figures import lexelt_pos

    out = []
    if n and all(FRAMEWORK_ID.match(str(i)) for i in ids_at(np.array([0, n - 1]))):
        prefix = np.char.partition(np.asarray(ids_at(np.arange(n)), dtype=str), ".")[:, 0]
        if len(np.unique(prefix)) > 1:
            out.append(grouping("data set", prefix))
    pos_of = np.asarray([lexelt_pos(x) for x in lexelts] or [""], dtype=str)
    out.append(grouping("part of speech", pos_of[np.asarray(lex_code, np.int64)] if n else np.array([], str)))
    if by_lexelt:
        out.append(Grouping("lexelt", np.asarray(lex_code, np.int64), list(lexelts)))
    return out


def run_tests(scores: np.ndarray, attempted: np.ndarray, names: Sequence[str], groups: Sequence[Grouping] = (),
              pairs: Sequence[tuple[int, int]] | None = None, settings: Settings = Settings()
              ) -> dict[str, dict[str, list[PairTest]]]:
    """``{grouping: {group: [PairTest per pair]}}`` (the whole evaluation under ``ALL``), Holm-adjusted
    over the pairs of each group with more than two systems.  ``scores`` and ``attempted`` are
    (systems, instances); NaN score = not answered.  ``pairs`` default: every pair ``a < b``."""
    s = np.asarray(scores, np.float64)
    return tests_by_group(s, attempted, list(names), list(pairs_of(len(names)) if pairs is None else pairs),
                          groups, shuffles=settings.shuffles, resamples=settings.resamples, seed=settings.seed,
                          confidence=settings.confidence, threshold=settings.threshold,
                          correct=correct_matrix(s, threshold=settings.threshold))


def tests_json(t: PairTest) -> dict:
    """One pair's tests as ``compare --format json`` gives them."""
    return {"a": t.a, "b": t.b, "n": t.n,
            **{m: {"a": v.a, "b": v.b, "difference": v.difference, "ci": [v.low, v.high],
                   "p_randomization": v.p_value, "p_holm": v.p_holm, "undefined_shuffles": v.n_undefined_shuffles,
                   "undefined": v.reason} for m, v in t.metrics.items()},
            "mcnemar": {"a_only": t.mcnemar.a_only, "b_only": t.mcnemar.b_only, "p": t.mcnemar.p_value,
                        "p_holm": t.mcnemar.p_holm},
            "holm_over_pairs": t.holm}


def p_text(v: float | None) -> str:
    """A p-value as ``compare`` prints it (four decimals, or ``1.0e-04`` below 1e-4)."""
    if v is None:
        return "undefined"
    return f"{v:.4f}" if v >= 1e-4 else f"{v:.1e}"


def group_label(grouping_title: str, group: str) -> str:
    """``all instances``, ``data set semeval2015``, ``part of speech n`` (as ``compare`` prints them)."""
    return group if grouping_title == ALL else f"{grouping_title} {group}"


__all__ = ["ALL", "CONFIDENCE", "RESAMPLES", "SEED", "SHUFFLES", "Settings", "group_label", "groupings",
           "p_text", "run_tests", "tests_json"]
