"""Sessions: create from files, reopen from the cache or the stored copies, decide, export."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import hieradjudicate
from hieradjudicate.app.loading.load import AnnotationSpec
from hieradjudicate.app.session.commands import Decide
from hieradjudicate.app.session.decisions import Decision
from hieradjudicate.app.session.session import Session
from hieradjudicate.core.errors import FormatError, ProjectError
from hieradjudicate.core.model import Corpus

ROOT = Path(hieradjudicate.__file__).resolve().parent.parent
DEMO = ROOT / "resources" / "demo"


def demo_args(tmp_path: Path) -> tuple[list[str], list[AnnotationSpec], list[str]]:
    """Copies of the demo files, so that the test can delete the originals."""
    src = tmp_path / "src"
    src.mkdir()
    for name in ("inventory.txt", "annotator_ann.key", "annotator_ben.key", "contexts.tsv"):
        shutil.copy(DEMO / name, src / name)
    return ([str(src / "inventory.txt")],
            [AnnotationSpec(str(src / "annotator_ann.key")),
             AnnotationSpec(str(src / "annotator_ben.key"), name="ben")],
            [str(src / "contexts.tsv")])


def assert_same_corpus(a: Corpus, b: Corpus) -> None:
    assert a.inventory.node_id == b.inventory.node_id and a.inst_id == b.inst_id
    assert np.array_equal(a.inst_lexelt, b.inst_lexelt)
    assert [(s.name, s.role) for s in a.sets] == [(s.name, s.role) for s in b.sets]
    for x, y in zip(a.sets, b.sets, strict=True):
        for field in ("rows", "tag_ptr", "tag_node", "tag_weight", "attempted", "leaves",
                      "signature"):
            assert np.array_equal(getattr(x, field), getattr(y, field)), (x.name, field)
        assert x.source == y.source
    assert {k: (c.text, c.head) for k, c in a.contexts.items()} == \
        {k: (c.text, c.head) for k, c in b.contexts.items()}


def test_create_keeps_copies_and_reopens_without_the_originals(tmp_path: Path) -> None:
    inv, specs, ctx = demo_args(tmp_path)
    path = tmp_path / "demo.hadj"
    with Session.create(path, inv, specs, ctx, user="Ines") as s:
        original = s.corpus
        assert [f.kind for f in s.store.files()] == ["inventory", "annotations", "annotations",
                                                     "contexts"]
        assert s.store.files("annotations")[1].set_names == ("ben",)
        assert s.decisions.user == "Ines" and len(s.instances()) == original.n
    shutil.rmtree(tmp_path / "src")
    with Session.open(path) as s:
        assert s.from_cache
        assert_same_corpus(s.corpus, original)
    with Session.open(path) as s:  # without the cache: re-read from the stored copies
        s.store.conn.execute("DELETE FROM arrays")
    with Session.open(path) as s:
        assert not s.from_cache
        assert_same_corpus(s.corpus, original)
        assert s.corpus.sets[0].source.endswith("src/annotator_ann.key")
    with Session.open(path) as s:
        assert s.from_cache  # the cache was written again


def test_unreadable_input_leaves_no_project(tmp_path: Path) -> None:
    inv, specs, ctx = demo_args(tmp_path)
    Path(specs[0].path).write_bytes(b"\x00\x01 binary")
    with pytest.raises(FormatError):
        Session.create(tmp_path / "p.hadj", inv, specs, ctx)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["src"]


def test_create_refuses_to_replace_a_project(tmp_path: Path) -> None:
    inv, specs, ctx = demo_args(tmp_path)
    Session.create(tmp_path / "p.hadj", inv, specs, ctx).close()
    with pytest.raises(ProjectError, match="already exists"):
        Session.create(tmp_path / "p.hadj", inv, specs, ctx)


def test_decide_undo_export_through_the_session(tmp_path: Path) -> None:
    inv, specs, ctx = demo_args(tmp_path)
    with Session.create(tmp_path / "p.hadj", inv, specs, ctx) as s:
        (lexelt, inst), *_ = s.instances()
        rows = s.execute(Decide([Decision(lexelt, inst, ("1.1",), source="set:ben")]))
        assert rows[0].id == 1 and s.decisions.status(lexelt, inst) == "resolved"
        s.undo()
        assert s.decisions.status(lexelt, inst) == "unresolved"
        s.redo()
        summary = s.export(tmp_path / "gold.key", format="senseval")
        assert summary.written == 1 and summary.left_out == len(s.instances()) - 1
        assert (tmp_path / "gold.key").read_text() == f"{lexelt} {inst} 1.1\n"
        assert s.export_history(tmp_path / "history.csv") == 3


def test_second_session_is_read_only(tmp_path: Path) -> None:
    inv, specs, ctx = demo_args(tmp_path)
    path = tmp_path / "p.hadj"
    Session.create(path, inv, specs, ctx).close()
    with Session.open(path, read_only=True) as s:
        assert s.read_only and s.from_cache
        with pytest.raises(ProjectError, match="read-only"):
            s.execute(Decide([Decision(*s.instances()[0], ("1",))]))


def _score(*args: str) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-m", "hieradjudicate", "score", *args, "--format",
                        "json"], capture_output=True, text=True, env=env, timeout=300,
                       check=False)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)["systems"][0]


def test_senseval3_round_trip_scores_perfectly(realdata: Path, tmp_path: Path) -> None:
    d = realdata / "senseval3"
    key = str(d / "EnglishLS.test.key")
    outputs = []
    for run in range(2):
        with Session.create(tmp_path / f"s3-{run}.hadj", [str(d / "EnglishLS.sensemap")],
                            [AnnotationSpec(key)], [str(d / "EnglishLS.test.gz")]) as s:
            c = s.corpus
            (gold,) = c.sets
            batch = [Decision(*c.instance_key(int(i)), tuple(c.tag_strings(gold, r)),
                              source=f"set:{gold.name}", basis={"set": gold.name})
                     for r, i in enumerate(gold.rows.tolist())]
            s.execute(Decide(batch, "accept EnglishLS.test"))
            summary = s.export(tmp_path / f"gold-{run}.key", format="senseval")
            assert summary.written == 3944 and summary.left_out == 0
        outputs.append((tmp_path / f"gold-{run}.key").read_bytes())
    assert outputs[0] == outputs[1]
    for policy in ("fine", "coarse", "mixed", "leaf"):
        fig = _score("--inventory", str(d / "EnglishLS.sensemap"), "--gold", key,
                     "--system", str(tmp_path / "gold-0.key"), "--policy", policy)
        assert fig["precision"] == pytest.approx(1.0) and fig["recall"] == pytest.approx(1.0), \
            policy


@pytest.mark.parametrize("damage", ["garbled", "truncated", "not a zip"])
def test_a_damaged_cache_is_rebuilt_from_the_stored_copies(tmp_path: Path, damage: str) -> None:
    """The arrays are only a cache: damage in them (was: internal error, BadZipFile) rebuilds it."""
    import sqlite3

    inv, specs, ctx = demo_args(tmp_path)
    path = tmp_path / "demo.hadj"
    with Session.create(path, inv, specs, ctx) as s:
        original = s.corpus
    conn = sqlite3.connect(path)
    blob = bytearray(conn.execute("SELECT data FROM arrays").fetchone()[0])
    if damage == "garbled":
        blob[len(blob) // 2: len(blob) // 2 + 64] = b"\x00" * 64
    elif damage == "truncated":
        blob = blob[: len(blob) // 3]
    else:
        blob = bytearray(b"hello")
    conn.execute("UPDATE arrays SET data = ?", (bytes(blob),))
    conn.commit()
    conn.close()
    with Session.open(path) as s:
        assert not s.from_cache
        assert_same_corpus(s.corpus, original)
    with Session.open(path) as s:  # rewritten: the next open uses it again
        assert s.from_cache
