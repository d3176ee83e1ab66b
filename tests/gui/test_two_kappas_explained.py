"""#31: on semeval2015 (gold key imported as decisions, lesk and resnik as systems) the Pairwise map
reads lesk x resnik -0.003 and the System comparison 0.079 with nothing saying why; the comparison
panel now says what each kappa is, with both figures, each checked against its own oracle."""

from __future__ import annotations

import csv
import gc
import re
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtWidgets import QApplication, QLabel

from hieradjudicate.app.session.session import Session
from hieradjudicate.core.agreement.pairwise import pairwise_agreement
from hieradjudicate.core.compare.comparison import correct_matrix, pairwise_agreement as system_agreement
from tests.app.test_paired_everywhere import WORDNET, _data, cli
from tests.gui.journey import open_window
from tests.gui.test_paired_reference_journey import dashboard_tab


@pytest.fixture(scope="module")
def decided_s15(tmp_path_factory) -> Path:
    d = _data()
    out = tmp_path_factory.mktemp("s15") / "s15.hadj"
    gold = d / "semeval2015.gold.key.txt"
    cli("project", "new", str(out), "--inventory", WORDNET, "--annotations", f"gold={gold}:gold",
        "--annotations", f"lesk={d / 'semeval2015.lesk_example.key.txt'}:system",
        "--annotations", f"resnik={d / 'semeval2015.resnik_example.key.txt'}:system")
    keys = {ln.split()[0]: ln.split()[1:] for ln in gold.read_text().splitlines() if ln.strip()}
    with Session.open(str(out), read_only=True) as s:
        rows = [(lx, i, " ".join(keys[i])) for lx, i in s.instances() if i in keys]
    table = out.parent / "gold.csv"
    with table.open("w", newline="") as f:
        csv.writer(f).writerows([("lexelt", "instance", "tags"), *rows])
    cli("project", "import-decisions", str(out), str(table))
    return out


def _oracles(path: Path) -> tuple[float, float, int, int]:
    """Sense kappa over the shared instances (core.agreement) and right/wrong kappa over the gold
    (core.comparison on exact-match correctness), both from the sets themselves."""
    with Session.open(str(path), read_only=True) as s:
        c = s.corpus
        by = {st.name: st for st in c.sets}
        lesk, resnik, gold = by["lesk"], by["resnik"], by["gold"]
        shared = np.intersect1d(lesk.rows, resnik.rows)
        sense = pairwise_agreement(lesk.leaves[np.searchsorted(lesk.rows, shared)],
                                   resnik.leaves[np.searchsorted(resnik.rows, shared)],
                                   c.inst_lexelt[shared], n_lexelts=len(c.inventory.lexelts)).cohen.kappa.value
        scores = np.full((2, gold.rows.size), np.nan)
        g = np.asarray(gold.leaves.todense() if hasattr(gold.leaves, "todense") else gold.leaves) > 0
        for k, st in enumerate((lesk, resnik)):
            have = np.isin(gold.rows, st.rows)
            p = np.asarray(st.leaves)[np.searchsorted(st.rows, gold.rows[have])]
            scores[k, have] = (p * g[have]).sum(axis=1)  # the mass on gold leaves (1 = right)
        right = system_agreement(correct_matrix(scores)).kappa[0, 1]
    return float(sense), float(right), int(shared.size), int(gold.rows.size)


def test_the_comparison_panel_says_which_kappa_is_which_with_both_figures(qtbot, decided_s15: Path):
    sense, right, shared, n = _oracles(decided_s15)
    assert abs(sense) < 0.02 and right > 0.05  # the two figures of the review: near 0 and 0.079
    win = open_window(qtbot, decided_s15)
    win.resize(1024, 700)
    dv = dashboard_tab(qtbot, win)
    note = dv.findChild(QLabel, "comparison_kappa_note")
    assert note is not None and note.isVisibleTo(dv)
    text = re.sub(r"<[^>]+>", "", note.text())
    assert "get the same instances right" in text and "chose the same sense" in text
    assert f"over the {n:,} decided instances" in text
    assert f"lesk × resnik: right/wrong {right:.3f} here, senses {sense:.3f} there ({shared:,} shared)" in text
    win.close_project()
    QApplication.processEvents()
    gc.collect()


def test_the_report_says_which_kappa_is_which_with_both_figures(decided_s15: Path, tmp_path: Path):
    import html as html_mod

    sense, right, shared, n = _oracles(decided_s15)
    out = tmp_path / "r.html"
    cli("report", str(decided_s15), "-o", str(out), "--resamples", "0")
    text = html_mod.unescape(out.read_text())
    section = text[text.index("<h3>System comparison</h3>"):]
    assert f"lesk × resnik: right/wrong {right:.3f} here, senses {sense:.3f} there ({shared:,} shared)" in section
