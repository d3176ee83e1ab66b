"""WordNet 3.0 as an inventory (#11 item 1), read from Debian's wordnet-base files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hieradjudicate.app.session.session import Session
from hieradjudicate.cli.entry import main
from hieradjudicate.io.inventories.wordnet import DEFAULT_FOLDER, read_wordnet, wordnet_folder
from tests.conftest import skip_without_realdata

pytestmark = pytest.mark.skipif(not Path(DEFAULT_FOLDER, "index.noun").is_file(),
                                reason=f"WordNet is not installed at {DEFAULT_FOLDER} (Debian: apt install wordnet-base)")


def test_senses_keys_glosses_and_supersense_groups() -> None:
    src = read_wordnet("wordnet", ["bank.n", "absurd.a", "run.v", "nonexistentword.n"])
    bank = [s for s in src.senses if s.lexelt == "bank.n"]
    keys = [s.sense for s in bank if s.parent]
    assert len(keys) == 10 and keys[:2] == ["bank%1:17:01::", "bank%1:14:00::"]  # sense-number order
    first = next(s for s in bank if s.sense == "bank%1:17:01::")
    assert first.parent == "noun.object" and first.gloss.startswith("bank#1: sloping land")
    assert {s.sense for s in bank if s.parent is None} >= {"noun.object", "noun.group"}
    # adjective satellites carry their head adjective in the key, as WordNet's sense index does
    assert {s.sense for s in src.senses if s.lexelt == "absurd.a" and s.parent} == {
        "absurd%5:00:00:foolish:00", "absurd%5:00:00:illogical:00"}
    assert not [s for s in src.senses if s.lexelt == "nonexistentword.n"]
    assert wordnet_folder("wordnet") == Path(DEFAULT_FOLDER) and wordnet_folder("/nonexistent") is None


def test_every_framework_gold_key_is_in_the_inventory(capsys) -> None:
    d = skip_without_realdata("wsdeval") / "wsdeval"
    assert main(["validate", "--inventory", "wordnet", "--annotations", str(d / "ALL.gold.key.txt"),
                 "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["valid"] and out["instances"] == 7253 and not out["outside_tags"]
    assert out["max_depth"] == 2


def test_coarse_and_leaf_say_how_far_off_the_wrong_answers_are(capsys) -> None:
    d = skip_without_realdata("wsdeval") / "wsdeval"
    figs = {}
    for policy in ("fine", "coarse", "leaf"):
        assert main(["score", "--inventory", "wordnet", "--gold", str(d / "semeval2015.gold.key.txt"),
                     "--system", f"lesk={d / 'semeval2015.lesk_example.key.txt'}", "--policy", policy,
                     "--format", "json"]) == 0
        figs[policy] = json.loads(capsys.readouterr().out)["systems"][0]
    assert figs["coarse"]["precision"] > figs["fine"]["precision"]  # right supersense, wrong sense
    assert figs["leaf"]["precision"] == pytest.approx(figs["fine"]["precision"], abs=1e-12)
    assert 0 < figs["leaf"]["distance_cost"] < 1


def test_a_project_keeps_the_senses_it_uses(tmp_path: Path) -> None:
    d = skip_without_realdata("wsdeval") / "wsdeval"
    path = tmp_path / "wn.hadj"
    assert main(["project", "new", str(path), "--inventory", "wordnet", "--annotations",
                 f"gold={d / 'semeval2015.gold.key.txt'}"]) == 0
    with Session.open(path) as s:
        (inv_file,) = s.store.files("inventory")
        assert inv_file.format == "tree-table" and inv_file.source_path.endswith("wordnet-senses.tsv")
        n_lexelts = len(s.corpus.inventory.lexelts)
    import sqlite3

    conn = sqlite3.connect(path)
    conn.execute("DELETE FROM arrays")  # the cache gone: rebuilt from the stored copy alone
    conn.commit()
    conn.close()
    with Session.open(path) as s:
        assert not s.from_cache and len(s.corpus.inventory.lexelts) == n_lexelts
        assert s.corpus.inventory.summary()["outside_tags"] == 0
