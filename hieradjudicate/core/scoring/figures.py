"""Corpus figures shared by every scoring policy: precision, recall, coverage, F1,
per lexelt and per part of speech, with the undefined-value policy of
:mod:`hieradjudicate.core.scoring.scoring` (a zero denominator gives ``None`` and a reason)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

POS_NAMES = ("n", "v", "a", "r")


def lexelt_pos(lexelt: str) -> str:
    """Part of speech of a lexelt from its suffix.

    ``interest.n`` -> ``"n"``; MASC style ``add-v`` -> ``"v"``; anything
    else (no suffix, another letter) -> ``"?"``.

    Examples
    --------
    >>> lexelt_pos("activate.v"), lexelt_pos("fair-j"), lexelt_pos("add-v")
    ('v', '?', 'v')
    """
    if len(lexelt) >= 3 and lexelt[-2] in ".-" and lexelt[-1] in POS_NAMES:
        return lexelt[-1]
    return "?"


@dataclass(frozen=True)
class Figures:
    """Precision, recall, coverage and F1 of one group of instances.

    ``precision = score_sum / attempted``, ``recall = score_sum / total``,
    ``coverage = attempted / total``, ``f1 = 2 P R / (P + R)``.  A figure
    that is undefined is ``None`` and ``undefined[name]`` says why.
    """

    score_sum: float
    attempted: float
    total: int
    answered: int
    precision: float | None
    recall: float | None
    coverage: float | None
    f1: float | None
    undefined: dict[str, str] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "precision": self.precision,
            "recall": self.recall,
            "coverage": self.coverage,
            "f1": self.f1,
            "score_sum": self.score_sum,
            "attempted": self.attempted,
            "total": self.total,
            "answered": self.answered,
            "undefined": dict(self.undefined),
        }


def figures(score_sum: float, attempted: float, total: int, answered: int = 0) -> Figures:
    """Build :class:`Figures` from the three sums, with the undefined-value policy.

    Parameters
    ----------
    score_sum : float
        Sum of per-instance scores.
    attempted : float
        Sum of attempted weights (1 per answered instance unless partial).
    total : int
        Number of gold instances in the evaluation.
    answered : int
        Number of instances with an answer (for reporting only).

    Examples
    --------
    >>> f = figures(3.0, 4.0, 5)
    >>> f.precision, f.recall, f.coverage
    (0.75, 0.6, 0.8)
    >>> figures(0.0, 0.0, 5).undefined["precision"]
    'nothing attempted (attempted = 0)'
    """
    undefined: dict[str, str] = {}
    precision: float | None = None
    recall: float | None = None
    coverage: float | None = None
    f1: float | None = None
    if attempted > 0:
        precision = score_sum / attempted
    else:
        undefined["precision"] = "nothing attempted (attempted = 0)"
    if total > 0:
        recall = score_sum / total
        coverage = attempted / total
    else:
        undefined["recall"] = undefined["coverage"] = "no gold instances (total = 0)"
    if precision is None or recall is None:
        undefined["f1"] = "precision or recall undefined"
    elif precision + recall > 0:
        f1 = 2.0 * precision * recall / (precision + recall)
    else:
        f1 = 0.0
    return Figures(float(score_sum), float(attempted), int(total), int(answered),
                   precision, recall, coverage, f1, undefined)


@dataclass(frozen=True)
class GroupedFigures:
    """Corpus figures and the same per lexelt and per part of speech."""

    overall: Figures
    by_lexelt: dict[str, Figures]
    by_pos: dict[str, Figures]


def corpus_figures(
    score: np.ndarray,
    attempted: np.ndarray,
    lexelt_code: np.ndarray,
    lexelts: Sequence[str],
) -> GroupedFigures:
    """Aggregate per-instance scores into corpus, per-lexelt and per-POS figures.

    Parameters
    ----------
    score : ndarray of float, shape (n,)
        Score of each gold instance in the evaluation; NaN = not answered
        (counts 0 to the score sum, 0 to attempted).
    attempted : ndarray of float, shape (n,)
        Attempted weight of each instance (0 when not answered).
    lexelt_code : ndarray of int, shape (n,)
        Index of each instance's lexelt in ``lexelts``.
    lexelts : sequence of str
        Lexelt names; lexelts without instances are left out of ``by_lexelt``.
    """
    n_lex = len(lexelts)
    answered = ~np.isnan(score)
    s = np.where(answered, score, 0.0)
    code = np.asarray(lexelt_code, dtype=np.int64)
    lex_score = np.bincount(code, weights=s, minlength=n_lex)
    lex_att = np.bincount(code, weights=attempted, minlength=n_lex)
    lex_total = np.bincount(code, minlength=n_lex)
    lex_ans = np.bincount(code, weights=answered, minlength=n_lex)
    overall = figures(float(s.sum()), float(np.sum(attempted)), int(s.shape[0]), int(answered.sum()))
    return _grouped(overall, lex_score, lex_att, lex_total, lex_ans, lexelts)


def _figures_many(score_sum: np.ndarray, attempted: np.ndarray, total: np.ndarray,
                  answered: np.ndarray) -> list[Figures]:
    """:func:`figures` of many groups at once (the same IEEE operations, element-wise)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        has_att, has_tot = attempted > 0, total > 0
        prec = score_sum / np.where(has_att, attempted, 1.0)
        rec = score_sum / np.where(has_tot, total, 1)
        cov = attempted / np.where(has_tot, total, 1)
        psum = prec + rec
        f1 = np.where(psum > 0, 2.0 * prec * rec / np.where(psum > 0, psum, 1.0), 0.0)
    out = []
    no_att = "nothing attempted (attempted = 0)"
    no_tot = "no gold instances (total = 0)"
    no_f1 = "precision or recall undefined"
    for s, a, t, n, ha, ht, p, r, c, f in zip(score_sum.tolist(), attempted.tolist(), total.tolist(),
                                              answered.tolist(), has_att.tolist(), has_tot.tolist(),
                                              prec.tolist(), rec.tolist(), cov.tolist(), f1.tolist()):
        if ha and ht:
            out.append(Figures(s, a, int(t), int(n), p, r, c, f, {}))
            continue
        undefined: dict[str, str] = {}
        if not ha:
            p = None
            undefined["precision"] = no_att
        if not ht:
            r = c = None
            undefined["recall"] = undefined["coverage"] = no_tot
        undefined["f1"] = no_f1
        out.append(Figures(s, a, int(t), int(n), p, r, c, None, undefined))
    return out


_POS_CODE = {p: j for j, p in enumerate(POS_NAMES + ("?",))}


def _grouped(overall: Figures, lex_score: np.ndarray, lex_att: np.ndarray, lex_total: np.ndarray,
             lex_ans: np.ndarray, lexelts: Sequence[str], pos_code: np.ndarray | None = None) -> GroupedFigures:
    """:class:`GroupedFigures` from per-lexelt sums (lexelts without instances left out).

    The per-POS sums add the lexelts' sums in lexelt order (``np.bincount`` accumulates in index order),
    so they equal a Python loop over the lexelts.
    """
    nz = np.flatnonzero(lex_total)
    names = [lexelts[j] for j in nz.tolist()]
    sc, at, tot, ans = lex_score[nz], lex_att[nz], lex_total[nz], lex_ans[nz]
    by_lexelt = dict(zip(names, _figures_many(sc, at, tot, ans)))
    if pos_code is None:
        pc = np.array([_POS_CODE[lexelt_pos(x)] for x in names], dtype=np.int64)
    else:
        pc = pos_code[nz]
    npos = len(_POS_CODE)
    present = np.bincount(pc, minlength=npos) > 0
    p_sc = np.bincount(pc, weights=sc, minlength=npos)
    p_at = np.bincount(pc, weights=at, minlength=npos)
    p_tot = np.bincount(pc, weights=tot, minlength=npos).astype(np.int64)
    p_ans = np.bincount(pc, weights=ans, minlength=npos).astype(np.int64)
    order = sorted((p, j) for p, j in _POS_CODE.items() if present[j])
    idx = np.array([j for _, j in order], dtype=np.int64)
    by_pos = dict(zip([p for p, _ in order], _figures_many(p_sc[idx], p_at[idx], p_tot[idx], p_ans[idx])))
    return GroupedFigures(overall, by_lexelt, by_pos)
