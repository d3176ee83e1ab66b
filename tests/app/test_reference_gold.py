"""#21 item 3 (no Qt): scores against a reference gold given as input equal `hieradjudicate score`'s on
the same files; rows are coloured where a system differs from it; the wizard's role guess."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from hieradjudicate.app.loading.load import load
from hieradjudicate.app.loading.roles import guess_role
from hieradjudicate.app.loading.specs import AnnotationSpec
from hieradjudicate.app.session.session import Session
from hieradjudicate.app.workbench.columns import NO_PAIR, compute_columns
from hieradjudicate.app.workbench.reference import ALL_DATA, reference_scores
from hieradjudicate.cli.entry import main
from tests.conftest import DEMO, skip_without_realdata

POLICIES = ("leaf", "fine", "coarse", "mixed")


def cli_scores(capsys, inventory: str, gold: Path, systems: list[tuple[str, Path]], policy: str) -> dict:
    args = ["score", "--inventory", inventory, "--gold", str(gold), "--policy", policy, "--format", "json"]
    for name, path in systems:
        args += ["--system", f"{name}={path}"]
    assert main(args) == 0
    return {s["name"]: s for s in json.loads(capsys.readouterr().out)["systems"]}


def assert_same(figures, printed: dict, policy: str) -> None:
    for name, s in printed.items():
        row = figures.get(name, policy)
        assert row is not None, (name, policy)
        for key in ("precision", "recall", "coverage", "f1"):
            assert getattr(row, key) == pytest.approx(s[key], abs=1e-12), (name, policy, key)
        assert row.total == s["total"] and row.attempted == pytest.approx(s["attempted"], abs=1e-9)
        for ds, d in s.get("by_dataset", {}).items():
            got = figures.get(name, policy, ds)
            assert got is not None, (name, policy, ds)
            for key in ("precision", "recall", "f1"):
                assert getattr(got, key) == pytest.approx(d[key], abs=1e-12), (name, policy, ds, key)
        if "by_dataset" not in s:
            assert not [r for r in figures.rows if r.system == name and r.policy == policy and r.dataset != ALL_DATA]


def test_demo_reference_scores_equal_the_command_line(capsys) -> None:
    specs = [AnnotationSpec(str(DEMO / "annotator_ann.key"), "ann", "gold"),
             AnnotationSpec(str(DEMO / "system_lesk.ans"), "lesk", "system"),
             AnnotationSpec(str(DEMO / "system_neural.ans"), "neural", "system")]
    corpus = load([str(DEMO / "inventory.txt")], specs).corpus
    figures = reference_scores(corpus)
    assert figures.golds == ["ann"] and figures.systems == ["lesk", "neural"]
    assert figures.policies == POLICIES
    for policy in POLICIES:
        printed = cli_scores(capsys, str(DEMO / "inventory.txt"), DEMO / "annotator_ann.key",
                             [("lesk", DEMO / "system_lesk.ans"), ("neural", DEMO / "system_neural.ans")], policy)
        assert_same(figures, printed, policy)
    # the figures differ between policies and systems: a table of one repeated number would pass nothing
    assert len({round(r.f1, 9) for r in figures.rows}) > 3


def test_demo_mixed_policy_equals_the_command_line(capsys) -> None:
    """The demo outline reuses its ids in every lexelt ('1.3' under run.v and play.v): score's sense map
    counts a parent's children within its lexelt, so bank.n's '1' has 2 (credit 1/2 for '1' against
    '1.1'), as the window's per-lexelt tree has (it counted 3 before #21)."""
    specs = [AnnotationSpec(str(DEMO / "annotator_ann.key"), "ann", "gold"),
             AnnotationSpec(str(DEMO / "system_lesk.ans"), "lesk", "system")]
    figures = reference_scores(load([str(DEMO / "inventory.txt")], specs).corpus)
    printed = cli_scores(capsys, str(DEMO / "inventory.txt"), DEMO / "annotator_ann.key",
                         [("lesk", DEMO / "system_lesk.ans")], "mixed")
    assert_same(figures, printed, "mixed")


def test_rows_are_coloured_where_a_system_differs_from_the_reference() -> None:
    specs = [AnnotationSpec(str(DEMO / "annotator_ann.key"), "ann", "gold"),
             AnnotationSpec(str(DEMO / "system_lesk.ans"), "lesk", "system")]
    corpus = load([str(DEMO / "inventory.txt")], specs).corpus
    cols = compute_columns(corpus)
    g, s = corpus.sets
    both = np.intersect1d(g.rows, s.rows)
    assert (cols.category[both] != NO_PAIR).all()  # every instance both answered has a category
    assert (np.delete(cols.category, both) == NO_PAIR).all()
    same = np.array([corpus.sets[0].signature[np.searchsorted(g.rows, i)] == s.signature[np.searchsorted(s.rows, i)]
                     for i in both])
    assert ((cols.category[both] == 0) == same).all()  # identical exactly where lesk gives ann's answer
    assert "reference gold ann" in cols.category_basis
    # with two annotators the category stays theirs
    two = load([str(DEMO / "inventory.txt")], [AnnotationSpec(str(DEMO / "annotator_ann.key"), "ann"),
                                               AnnotationSpec(str(DEMO / "annotator_ben.key"), "ben"),
                                               AnnotationSpec(str(DEMO / "system_lesk.ans"), "lesk", "system")])
    assert compute_columns(two.corpus).category_basis == "worst pair of annotators"


@pytest.mark.parametrize(("name", "role"), [
    ("ALL.gold.key.txt", "gold"), ("ALL.lesk_example.key.txt", "system"), ("semeval2015.resnik_example.key.txt",
                                                                            "system"),
    ("ims_output.txt", "system"), ("run.ans", "system"), ("ukb-ALL.key", "system"), ("babelfy.tsv", "system"),
    ("mfs_baseline.key", "system"), ("responses.csv", "system"), ("annotator_ann.key", "annotator"),
    ("claims.key", "annotator"), ("alice.tsv", "annotator"), ("reference.key", "gold")])
def test_role_guess_from_the_name(tmp_path: Path, name: str, role: str) -> None:
    p = tmp_path / name
    p.write_text("bank.n bank.n.001 4\n")
    assert guess_role(str(p))[0] == role


def test_role_guess_from_the_content(tmp_path: Path) -> None:
    weighted = tmp_path / "run1.txt"
    weighted.write_text((DEMO / "system_lesk.ans").read_text())  # tag/0.64: probabilities
    plain = tmp_path / "run2.txt"
    plain.write_text((DEMO / "annotator_ann.key").read_text())
    assert guess_role(str(weighted)) == ("system", "its answers carry weights (tag/probability): a system's output")
    assert guess_role(str(plain))[0] == "annotator"
    folder = tmp_path / "Output_Systems_SE2"
    folder.mkdir()
    (folder / "run3.txt").write_text("x")
    assert guess_role(str(folder / "run3.txt"))[0] == "system"


def test_wsd_framework_all_project_equals_score(capsys, tmp_path: Path) -> None:
    d = skip_without_realdata("wsdeval") / "wsdeval"
    out = tmp_path / "wsd.hadj"
    assert main(["project", "new", str(out), "--inventory", "/usr/share/wordnet",
                 "--annotations", f"gold={d / 'ALL.gold.key.txt'}:gold",
                 "--annotations", f"lesk={d / 'ALL.lesk_example.key.txt'}:system"]) == 0
    capsys.readouterr()
    with Session.open(out) as session:
        figures = reference_scores(session.corpus)
    for policy in POLICIES:
        printed = cli_scores(capsys, "/usr/share/wordnet", d / "ALL.gold.key.txt",
                             [("lesk", d / "ALL.lesk_example.key.txt")], policy)
        assert sorted(printed["lesk"]["by_dataset"]) == ["semeval2007", "semeval2013", "semeval2015", "senseval2",
                                                         "senseval3"]
        assert_same(figures, printed, policy)
    assert round(figures.get("lesk", "fine").f1, 3) == 0.322
