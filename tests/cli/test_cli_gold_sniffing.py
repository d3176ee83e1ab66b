"""A gold file is sniffed like any input (#13 item 2).

The contexts XML, a sense map, a dictionary, an all-words corpus XML and a table
of other columns were read as Senseval key lines (exit 0, a table of zeros);
now each is refused, saying what it is and what was expected.  Weights in a
gold key are ignored (gold tags are disjunctive): a warning says so.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from hieradjudicate.app.loading.sniff import annotation_misfit
from hieradjudicate.cli.entry import main
from tests.conftest import skip_without_realdata

CONTEXTS = ('<?xml version="1.0"?>\n<corpus lang="english">\n<lexelt item="bank.n">\n'
            '<instance id="bank.n.1" docsrc="BNC">\n<context>\nA <head>bank</head> of the river.\n'
            '</context>\n</instance>\n</lexelt>\n</corpus>\n')
DICTIONARY = '<dictionary>\n<lexelt item="bank.n">\n<sense id="bank%1" gloss="money"/>\n</lexelt>\n</dictionary>\n'
ALLWORDS = ('<?xml version="1.0"?>\n<corpus lang="en" source="x">\n<text id="d000">\n<sentence id="d000.s000">\n'
            '<instance id="d000.s000.t000" lemma="bank" pos="NOUN">bank</instance>\n</sentence>\n</text>\n</corpus>\n')
SENSEMAP = "bank%1\nbank%2 2 bank%0\nbank%3 2 bank%0\nbank%0\n"
WRONG_TABLE = "senseID\tdefinition\tlemma\nbank%1:14:00::\tsloping land\tbank.n\nbank%1:14:01::\ta depository\tbank.n\n"
EXPECTED = "expected annotations: Senseval 'lexelt instance_id tag[/weight] ...' lines, a long table"


@pytest.mark.parametrize("kind, text, what", [
    ("contexts.xml.gz", CONTEXTS, "a Senseval lexical-sample contexts file"),
    ("dictionary.xml", DICTIONARY, "a Senseval dictionary"),
    ("allwords.data.xml", ALLWORDS, "an all-words corpus XML"),
    ("bank.sensemap", SENSEMAP, "a Senseval sense map"),
    ("senses.tsv", WRONG_TABLE, "a table whose header (senseID, definition, lemma) does not make an annotation table"),
])
@pytest.mark.parametrize("policy", ["leaf", "fine"])
def test_a_gold_that_is_not_annotations_is_refused(tmp_path: Path, capsys, kind: str, text: str, what: str,
                                                   policy: str) -> None:
    gold = tmp_path / kind
    if kind.endswith(".gz"):
        gold.write_bytes(gzip.compress(text.encode()))
    else:
        gold.write_text(text)
    ans = tmp_path / "sys.ans"
    ans.write_text("bank.n bank.n.1 bank%1\n")
    rc = main(["score", "--gold", str(gold), "--system", str(ans), "--policy", policy])
    out = capsys.readouterr()
    assert rc == 1
    assert f"{gold}: error: this is {what}" in out.err and EXPECTED in out.err
    assert out.out == ""  # no table of zeros


def test_a_system_file_is_sniffed_too(tmp_path: Path, capsys) -> None:
    gold = tmp_path / "g.key"
    gold.write_text("bank.n bank.n.1 bank%1\n")
    smap = tmp_path / "s.sensemap"
    smap.write_text(SENSEMAP)
    assert main(["compare", "--gold", str(gold), "--system", str(smap), "--system", str(gold)]) == 1
    assert "this is a Senseval sense map" in capsys.readouterr().err


@pytest.mark.parametrize("text", [
    "bank.n 1 bank%1\nbank.n 2 bank%2\n",  # numeric instance ids: not a sense map
    "bank.n\tbank.n.1\tbank%1\nbank.n\tbank.n.2\tbank%2\n",  # tab-separated key lines: no header
    "lexelt\tinstance\tannotator\ttag\nbank.n\t1\ta\tbank%1\n",  # a long table
    "bank.n bank.n.1 bank%1/0.7 bank%2/0.3\n",  # weighted answers
])
def test_real_annotation_files_are_not_taken_for_something_else(tmp_path: Path, text: str) -> None:
    f = tmp_path / "a.key"
    f.write_text(text)
    assert annotation_misfit(str(f)) is None


@pytest.mark.parametrize("policy", ["leaf", "fine"])
def test_weights_in_a_gold_key_are_named_as_ignored(tmp_path: Path, capsys, policy: str) -> None:
    gold = tmp_path / "weighted.key"
    gold.write_text("bank.n 1 bank%1\nbank.n 2 bank%1/0.9 bank%2/0.1\n")
    ans = tmp_path / "sys.ans"
    ans.write_text("bank.n 1 bank%1\nbank.n 2 bank%2\n")
    assert main(["score", "--gold", str(gold), "--system", str(ans), "--policy", policy, "--format", "json"]) == 0
    out = capsys.readouterr()
    assert (f"warning: the gold {gold} gives weights on 2 tag(s) (first at {gold}:2); gold tags are "
            "disjunctive (any of them is correct), so these weights are ignored") in out.err
    assert '"precision": 1.0' in out.out  # bank%2 is one of the gold's tags: right, whatever its weight


def test_an_unweighted_gold_says_nothing(tmp_path: Path, capsys) -> None:
    gold = tmp_path / "g.key"
    gold.write_text("bank.n 1 bank%1 bank%2\n")
    assert main(["score", "--gold", str(gold), "--system", str(gold)]) == 0
    assert capsys.readouterr().err == ""


def test_the_issues_gold_mistakes_on_real_data(capsys) -> None:
    data = skip_without_realdata("senseval3") / "senseval3"
    tmp26 = str(data / "answers" / "tmp26")
    assert main(["score", "--gold", str(data / "EnglishLS.test.gz"), "--system", tmp26]) == 1
    assert "this is a Senseval lexical-sample contexts file" in capsys.readouterr().err
    assert main(["score", "--gold", str(data / "answers" / "ens_weighted.txt"), "--system", tmp26]) == 0
    assert "so these weights are ignored" in capsys.readouterr().err
    assert main(["score", "--gold", str(data / "EnglishLS.sensemap"), "--system", tmp26]) == 1
    assert "this is a Senseval sense map" in capsys.readouterr().err
    # the real key and answers are not mistaken for anything
    for f in [data / "EnglishLS.test.key", *sorted((data / "answers").iterdir())]:
        assert annotation_misfit(str(f)) is None, f


@pytest.mark.parametrize("text", ["bank.n\n", "bank.n 1 bank%1\nbank.n 2 bank%2\ngarbage\n"])
def test_a_broken_key_is_not_taken_for_a_sense_map(tmp_path: Path, text: str) -> None:
    """One-token lines alone, or beside key lines that repeat their lexelt: a key with errors, named by
    the reader with their lines (not refused as a sense map)."""
    f = tmp_path / "k.key"
    f.write_text(text)
    assert annotation_misfit(str(f)) is None


WIDE = "lexelt\tinstance\tann1\tann2\nbank.n\t1\tbank%1\tbank%2\nbank.n\t2\tbank%2\tbank%2\n"


@pytest.mark.parametrize("policy", ["leaf", "fine"])
def test_a_gold_of_several_sets_is_refused(tmp_path: Path, capsys, policy: str) -> None:
    """A wide table of annotators as gold: leaf scored against its first set without a word, fine
    ended in an internal error; now refused, naming the sets and what a gold is."""
    gold = tmp_path / "wide.tsv"
    gold.write_text(WIDE)
    ans = tmp_path / "sys.ans"
    ans.write_text("bank.n 1 bank%1\nbank.n 2 bank%1\n")
    assert main(["score", "--gold", str(gold), "--system", str(ans), "--policy", policy]) == 1
    err = capsys.readouterr().err
    assert f"the gold {gold} holds 2 annotation sets (ann1, ann2); a gold standard is one set" in err
    assert "internal error" not in err


@pytest.mark.parametrize("policy", ["leaf", "fine"])
def test_a_system_table_of_several_sets_scores_each(tmp_path: Path, capsys, policy: str) -> None:
    gold = tmp_path / "g.key"
    gold.write_text("bank.n 1 bank%1\nbank.n 2 bank%1\n")
    table = tmp_path / "wide.tsv"
    table.write_text(WIDE)
    assert main(["score", "--gold", str(gold), "--system", str(table), "--policy", policy, "--format",
                 "json"]) == 0
    import json

    got = {s["name"]: s["precision"] for s in json.loads(capsys.readouterr().out)["systems"]}
    assert got == {"ann1": 0.5, "ann2": 0.0}  # ann1 right on 1, wrong on 2; ann2 wrong on both


def test_report_with_several_gold_sets_is_refused(tmp_path: Path, capsys) -> None:
    from tests.conftest import DEMO

    gold = tmp_path / "wide.tsv"
    gold.write_text(WIDE)
    assert main(["report", "--inventory", str(DEMO / "inventory.txt"), "--annotations", f"{gold}:gold",
                 "--annotations", str(DEMO / "annotator_ann.key"), "-o", str(tmp_path / "r.html"),
                 "--resamples", "0"]) == 1
    assert "report: 2 sets have the role gold (ann1, ann2); give one gold set" in capsys.readouterr().err
    assert not (tmp_path / "r.html").exists()
