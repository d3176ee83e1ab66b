"""Davies & Fleiss (Conger) kappa with missing annotations, as metrics.md section 3 defines it.

``Pr(E)`` is the mean over all ordered pairs of distinct annotators of
``P_r . P_r'``, each with its own marginal taken over every instance it
labelled (single-rated instances included: the rule of
:data:`~hieradjudicate.core.agreement.multirater.CONGER_MARGINAL_RULE`).  Checked against
irrCAC's published values (Gwet 2014; afergadis/irrCAC ``test/unit/irrCAC/raw``,
quoted in the shared oracles' ``expected_values.json``) and a hand computation.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from hieradjudicate.core.agreement.multirater import CONGER_MARGINAL_RULE, conger_chance, multi_rater_agreement
from hieradjudicate.core.agreement.layout import make_layout
from hieradjudicate.core.dashboard import all_figures
from tests.core.test_oracles import load_study

# irrCAC's published Conger kappa of its raw-ratings datasets (3 decimals as published)
PUBLISHED = {
    "irrcac_raw_4raters": 0.763,
    "irrcac_raw_5observers": 0.469,
    "irrcac_raw_g1g2": 0.659,
    "irrcac_raw_gender": 0.166,
    "irrcac_raw_ben_gerry": 0.657,
}


@pytest.mark.parametrize("study", sorted(PUBLISHED))
def test_irrcac_published_conger(realdata: Path, study: str) -> None:
    s = load_study(realdata / "oracles", "other_published_examples_long.tsv", study)
    got = multi_rater_agreement(s.inst, s.rater, s.P, s.inst_lexelt).conger.kappa.value
    assert got is not None
    assert got == pytest.approx(PUBLISHED[study], abs=0.0005)


def test_ben_gerry_needs_single_rated_marginals(realdata: Path) -> None:
    """With marginals over pairable instances only, Ben/Gerry gives 0.6562, not the published 0.657."""
    s = load_study(realdata / "oracles", "other_published_examples_long.tsv", "irrcac_raw_ben_gerry")
    cnt = np.bincount(s.inst)
    assert (cnt == 1).any(), "the example has a single-rated instance"
    keep = cnt[s.inst] >= 2
    pairable_only = multi_rater_agreement(s.inst[keep], s.rater[keep], s.P[keep], s.inst_lexelt)
    assert pairable_only.conger.kappa.value == pytest.approx(0.6562, abs=5e-5)
    full = multi_rater_agreement(s.inst, s.rater, s.P, s.inst_lexelt)
    assert abs(full.conger.kappa.value - 0.657) < abs(pairable_only.conger.kappa.value - 0.657)


def test_hand_computed_with_missing_data() -> None:
    """Three raters, two categories, instance 3 single-rated (exact fractions)."""
    # (instance, rater, category)
    rows = [(0, 0, 0), (0, 1, 0), (0, 2, 1), (1, 0, 1), (1, 1, 1), (2, 1, 0), (3, 2, 1)]
    inst = np.array([r[0] for r in rows])
    rater = np.array([r[1] for r in rows])
    P = np.eye(2)[[r[2] for r in rows]]
    res = multi_rater_agreement(inst, rater, P, np.zeros(4, np.int64))
    # Pr(A): instances 0 (3 raters: 2 of 6 ordered pairs agree) and 1 (2 raters agree): (1/3 + 1) / 2
    pa = (Fraction(1, 3) + 1) / 2
    marg = {0: (Fraction(1, 2), Fraction(1, 2)), 1: (Fraction(2, 3), Fraction(1, 3)), 2: (Fraction(0), Fraction(1))}
    dot = {(a, b): sum(x * y for x, y in zip(marg[a], marg[b])) for a in marg for b in marg}
    pe = sum(dot[(a, b)] for a in marg for b in marg if a != b) / 6
    assert res.conger.observed == pytest.approx(float(pa), abs=1e-12)
    assert res.conger.expected == pytest.approx(float(pe), abs=1e-12)
    assert res.conger.kappa.value == pytest.approx(float((pa - pe) / (1 - pe)), abs=1e-12)
    lay = make_layout(inst, rater, P, np.zeros(4, np.int64))
    assert conger_chance(lay)[0] == pytest.approx(float(pe), abs=1e-12)


def test_uniform_design_path_agrees() -> None:
    """The dashboard's shortcut for a constant number of raters per instance gives the same Conger."""
    rng = np.random.default_rng(3)
    n, m, c, K = 60, 6, 3, 4
    inst = np.repeat(np.arange(n), c)
    rater = np.concatenate([rng.choice(m, c, replace=False) for _ in range(n)])
    P = np.eye(K)[rng.integers(0, K, n * c)]
    lex = rng.integers(0, 3, n)
    a = all_figures(inst, rater, P, lex, n_raters=m).multi
    b = multi_rater_agreement(inst, rater, P, lex)
    assert a.conger.kappa.value == pytest.approx(b.conger.kappa.value, abs=1e-12)
    for x, y in zip(a.lexelt_conger, b.lexelt_conger):
        assert x.expected == pytest.approx(y.expected, abs=1e-12)


def test_rule_is_stated() -> None:
    assert "single-rated instances included" in CONGER_MARGINAL_RULE


def test_masc_conger(realdata: Path) -> None:
    """MASC (228 crowd workers, many single-sense rows missing): 0.3199 overall, know-v 0.119."""
    import json
    import subprocess
    import sys

    d = realdata / "masc_amt"
    r = subprocess.run([sys.executable, "-m", "hieradjudicate", "agree", "--inventory", str(d / "inventory_tree.tsv"),
                        "--annotations", str(d / "masc_amt_labels_wide.tsv.gz"), "--by-lexelt", "--format", "json"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    out = json.loads(r.stdout)
    assert out["conger"]["kappa"] == pytest.approx(0.3199, abs=5e-4)
    assert out["by_lexelt"]["know-v"]["conger"] == pytest.approx(0.119, abs=5e-4)
    assert out["conger"]["method"] == CONGER_MARGINAL_RULE
