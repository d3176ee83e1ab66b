"""Issue 21, item 4: reports and projects with one annotator set, only systems, no inventory; WordNet
that matches none of the annotations' lemmas is refused before a project that cannot open is made."""

from __future__ import annotations

from pathlib import Path

import pytest

from hieradjudicate.app.loading.load import AnnotationSpec
from hieradjudicate.app.session.session import Session
from hieradjudicate.cli.entry import main
from tests.conftest import DEMO, skip_without_realdata

WORDNET = Path("/usr/share/wordnet")
CASES = {
    "one annotator": (True, [("annotator_ann.key", "annotator")]),
    "only systems": (True, [("system_lesk.ans", "system"), ("system_neural.ans", "system")]),
    "one system": (True, [("system_lesk.ans", "system")]),
    "no inventory": (False, [("annotator_ann.key", "annotator"), ("annotator_ben.key", "annotator")]),
    "no inventory, one set": (False, [("annotator_cho.key", "annotator")]),
}


@pytest.mark.parametrize("case", list(CASES))
def test_report_works_with_one_set_only_systems_and_no_inventory(tmp_path: Path, capsys, case: str) -> None:
    with_inventory, files = CASES[case]
    path = tmp_path / "p.hadj"
    Session.create(path, [str(DEMO / "inventory.txt")] if with_inventory else [],
                   [AnnotationSpec(str(DEMO / f), None, role) for f, role in files]).close()
    out = tmp_path / "r.html"
    assert main(["report", str(path), "-o", str(out), "--resamples", "20"]) == 0, capsys.readouterr().err
    err = capsys.readouterr().err
    assert "internal error" not in err and "report written" in err
    html = out.read_text(encoding="utf-8")
    if len(files) < 2:  # the agreement sections say why they are empty (it was a TypeError), in the
        # window's own sentence; two systems are compared with each other, saying they are not annotators
        assert "Not computed: agreement needs at least two sets to compare" in html
        assert "No agreement per lexelt" not in html  # one sentence for one reason, not two
    else:
        assert "No agreement per lexelt" not in html and "Not computed: agreement needs" not in html
    # the tables too
    assert main(["report", str(path), "--tables-dir", str(tmp_path / "t"), "--resamples", "0"]) == 0


def test_report_of_one_inception_document(tmp_path: Path, capsys) -> None:
    root = skip_without_realdata("inception")
    path = tmp_path / "one.hadj"
    assert main(["project", "new", str(path), "--annotations", str(root / "inception" / "diderot_rousseau.xmi"),
                 "--xmi-layer", "NamedEntity", "--xmi-feature", "identifier"]) == 0
    assert main(["report", str(path), "-o", str(tmp_path / "r.html"), "--resamples", "10"]) == 0
    assert "internal error" not in capsys.readouterr().err


@pytest.mark.skipif(not (WORDNET / "index.noun").is_file(), reason="WordNet is not installed at /usr/share/wordnet")
def test_wordnet_matching_no_lexelt_is_refused_and_no_project_is_made(tmp_path: Path, capsys) -> None:
    ents = tmp_path / "entities.key"  # lexelts as entity names (INCEpTION), none of them lemma.pos
    ents.write_text("Diderot Q1 wd:Q448\nRousseau Q2 wd:Q6527\n", encoding="utf-8")
    path = tmp_path / "wn.hadj"
    assert main(["project", "new", str(path), "--inventory", "wordnet", "--annotations", str(ents)]) == 1
    err = capsys.readouterr().err
    assert "WordNet has none of the 2 lexelt(s) the annotations use (Diderot, Rousseau)" in err
    assert "Leave the inventory out" in err and "internal error" not in err
    assert not path.exists() and not list(tmp_path.glob(".wn.hadj*"))
    # without the inventory the same file makes a project that opens
    assert main(["project", "new", str(path), "--annotations", str(ents)]) == 0
    with Session.open(path) as s:
        assert s.corpus.n == 2


@pytest.mark.skipif(not (WORDNET / "index.noun").is_file(), reason="WordNet is not installed at /usr/share/wordnet")
def test_wordnet_for_inception_xmi_never_makes_a_project_that_cannot_open(tmp_path: Path, capsys) -> None:
    root = skip_without_realdata("inception")
    path = tmp_path / "wn.hadj"
    code = main(["project", "new", str(path), "--inventory", "wordnet", "--annotations",
                 str(root / "inception" / "diderot_rousseau.xmi"), "--xmi-layer", "NamedEntity",
                 "--xmi-feature", "identifier"])
    assert code == 1 and not path.exists()
    assert "WordNet has none of the 149 lexelt(s)" in capsys.readouterr().err
