"""Fleiss' kappa with missing ratings: the project's variant is named, and Gwet's generalisation
(irrCAC ``fleiss.kappa.raw``) is offered beside it, reproducing irrCAC's published values (#24 item 3).

Gwet (2014) / irrCAC: ``Pr(A)`` over instances with at least two ratings, as Fleiss'; ``Pr(E) =
sum_k pi_k^2`` with ``pi_k`` the mean over *every* rated instance (single-rated included) of
``r_ik / r_i``.  The published values are quoted in the shared oracles' ``expected_values.json``
(afergadis/irrCAC ``test/unit/irrCAC/raw``).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from hieradjudicate.core.agreement.fleiss_missing import FLEISS_MISSING_RULE, GWET_FLEISS_RULE, gwet_fleiss_chance
from hieradjudicate.core.agreement.layout import make_layout
from hieradjudicate.core.agreement.multirater import multi_rater_agreement
from hieradjudicate.core.dashboard import all_figures
from tests.core.test_oracles import load_study

# irrCAC's published Fleiss kappa (Gwet's generalisation) of its raw-ratings datasets
PUBLISHED = {
    "irrcac_raw_4raters": 0.761,
    "irrcac_raw_5observers": 0.458,
    "irrcac_raw_g1g2": 0.657,
    "irrcac_raw_gender": 0.129,
    "irrcac_raw_ben_gerry": 0.649,
}


@pytest.mark.parametrize("study", sorted(PUBLISHED))
def test_irrcac_published_fleiss(realdata: Path, study: str) -> None:
    s = load_study(realdata / "oracles", "other_published_examples_long.tsv", study)
    got = multi_rater_agreement(s.inst, s.rater, s.P, s.inst_lexelt).fleiss_gwet.kappa.value
    assert got == pytest.approx(PUBLISHED[study], abs=0.0005)


def test_the_projects_fleiss_differs_on_5observers_and_is_named(realdata: Path) -> None:
    """The issue's example: .4643 (annotation-weighted marginals) where irrCAC publishes .458."""
    s = load_study(realdata / "oracles", "other_published_examples_long.tsv", "irrcac_raw_5observers")
    res = multi_rater_agreement(s.inst, s.rater, s.P, s.inst_lexelt)
    assert res.fleiss.kappa.value == pytest.approx(0.4643, abs=5e-5)
    assert abs(res.fleiss.kappa.value - res.fleiss_gwet.kappa.value) > 0.005
    assert res.fleiss.observed == res.fleiss_gwet.observed
    assert "not Gwet's generalisation" in FLEISS_MISSING_RULE and "irrCAC" in GWET_FLEISS_RULE


def _irrcac_fleiss(table: np.ndarray) -> float:
    """irrCAC's fleiss.kappa.raw, written from its R source: ``table`` subjects x raters, -1 = missing."""
    cats = np.unique(table[table >= 0])
    agree = np.stack([(table == k).sum(axis=1) for k in cats], axis=1).astype(float)
    agree = agree[agree.sum(axis=1) > 0]
    n = len(agree)
    ri = agree.sum(axis=1)
    two = ri >= 2
    pa = np.sum((agree * (agree - 1)).sum(axis=1)[two] / (ri * (ri - 1))[two]) / two.sum()
    pi = (agree / ri[:, None]).sum(axis=0) / n
    pe = float(pi @ pi)
    return (pa - pe) / (1 - pe)


@pytest.mark.parametrize("seed", range(6))
def test_random_missing_designs_equal_irrcacs_formula(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n, m, K = 80, 6, 4
    table = rng.integers(0, K, (n, m))
    table[rng.random((n, m)) < 0.45] = -1
    inst, rater = np.nonzero(table >= 0)
    P = np.eye(K)[table[inst, rater]]
    res = multi_rater_agreement(inst, rater, P, np.zeros(n, np.int64))
    assert res.fleiss_gwet.kappa.value == pytest.approx(_irrcac_fleiss(table), abs=1e-12)


def test_hand_computed() -> None:
    """Three instances, two categories; instance 2 single-rated (exact fractions)."""
    rows = [(0, 0, 0), (0, 1, 0), (0, 2, 1), (1, 0, 1), (1, 1, 1), (2, 2, 0)]
    inst = np.array([r[0] for r in rows])
    rater = np.array([r[1] for r in rows])
    P = np.eye(2)[[r[2] for r in rows]]
    res = multi_rater_agreement(inst, rater, P, np.zeros(3, np.int64))
    pa = (Fraction(1, 3) + 1) / 2
    pi0 = (Fraction(2, 3) + 0 + 1) / 3  # the single-rated instance counts in the marginal
    pe = pi0 ** 2 + (1 - pi0) ** 2
    assert res.fleiss_gwet.expected == pytest.approx(float(pe), abs=1e-12)
    assert res.fleiss_gwet.kappa.value == pytest.approx(float((pa - pe) / (1 - pe)), abs=1e-12)
    # the project's Fleiss: the 5 annotations of the two pairable instances, 2 of them category 0
    pe_f = Fraction(2, 5) ** 2 + Fraction(3, 5) ** 2
    assert res.fleiss.expected == pytest.approx(float(pe_f), abs=1e-12)
    lay = make_layout(inst, rater, P, np.zeros(3, np.int64))
    assert gwet_fleiss_chance(lay)[0] == pytest.approx(float(pe), abs=1e-12)


def test_equal_to_fleiss_when_every_instance_has_as_many_ratings() -> None:
    rng = np.random.default_rng(1)
    n, c, K = 50, 3, 3
    inst = np.repeat(np.arange(n), c)
    rater = np.concatenate([rng.choice(5, c, replace=False) for _ in range(n)])
    P = np.eye(K)[rng.integers(0, K, n * c)]
    lex = rng.integers(0, 2, n)
    for multi in (multi_rater_agreement(inst, rater, P, lex), all_figures(inst, rater, P, lex, n_raters=5).multi):
        assert multi.fleiss_gwet.kappa.value == pytest.approx(multi.fleiss.kappa.value, abs=1e-12)
        for a, b in zip(multi.lexelt_fleiss_gwet, multi.lexelt_fleiss):
            assert a.kappa.value == pytest.approx(b.kappa.value, abs=1e-12)


def test_agree_names_the_variant_and_prints_gwets(realdata: Path, tmp_path: Path, capsys) -> None:
    """Every output of agree says which Fleiss it is and gives Gwet's beside it."""
    import json

    from hieradjudicate.cli.entry import main

    s = load_study(realdata / "oracles", "other_published_examples_long.tsv", "irrcac_raw_5observers")
    path = tmp_path / "five.tsv"
    leaves = s.P.argmax(axis=1)
    path.write_text("lexelt\tinstance\tannotator\tsense\n" + "".join(
        f"w\ti{i}\tr{r}\tc{k}\n" for i, r, k in zip(s.inst.tolist(), s.rater.tolist(), leaves.tolist())))
    assert main(["agree", "--annotations", str(path), "--format", "json", "--by-lexelt"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["fleiss"]["kappa"] == pytest.approx(0.4643, abs=5e-5)
    assert out["fleiss"]["method"] == FLEISS_MISSING_RULE
    assert out["fleiss_gwet"]["kappa"] == pytest.approx(0.458, abs=5e-4)
    assert out["fleiss_gwet"]["method"] == GWET_FLEISS_RULE
    assert out["by_lexelt"]["w"]["fleiss_gwet"] == pytest.approx(0.458, abs=5e-4)
    assert main(["agree", "--annotations", str(path), "--by-lexelt"]) == 0
    text = capsys.readouterr().out
    assert FLEISS_MISSING_RULE in text and GWET_FLEISS_RULE in text and "Fleiss (Gwet)" in text
