"""Re-import: a changed annotation file replaces its sets; decisions whose basis changed are
flagged (and nothing else); one undo step; the project reopens in the new state."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from hieradjudicate.app.loading.load import AnnotationSpec
from hieradjudicate.app.session.batch import agreement
from hieradjudicate.app.session.commands import Decide
from hieradjudicate.app.session.decisions import Decision
from hieradjudicate.io.store.inputs import effective_files
from hieradjudicate.app.session.session import Session
from hieradjudicate.core.errors import FormatError, ProjectError
from tests.app.test_session import DEMO, assert_same_corpus


def edit_key(src: Path, dst: Path, changes: dict[str, str | None]) -> None:
    """Copy a Senseval key, replacing (or, with None, dropping) the answers of some instances."""
    out = []
    for line in src.read_text().splitlines():
        lexelt, inst, *_ = line.split()
        if inst in changes:
            if changes[inst] is None:
                continue
            line = f"{lexelt} {inst} {changes[inst]}"
        out.append(line)
    dst.write_text("\n".join(out) + "\n")


@pytest.fixture
def session(tmp_path: Path):
    src = tmp_path / "src"
    src.mkdir()
    for name in ("inventory.txt", "annotator_ann.key", "annotator_ben.key", "annotator_cho.key",
                 "system_lesk.ans"):
        shutil.copy(DEMO / name, src / name)
    s = Session.create(tmp_path / "p.hadj", [str(src / "inventory.txt")],
                       [AnnotationSpec(str(src / "annotator_ann.key"), name="ann"),
                        AnnotationSpec(str(src / "annotator_ben.key"), name="ben"),
                        AnnotationSpec(str(src / "annotator_cho.key"), name="cho"),
                        AnnotationSpec(str(src / "system_lesk.ans"), name="lesk", role="system")])
    yield s
    s.close()


def answer(s: Session, name: str, inst: str) -> tuple[str, ...]:
    c = s.corpus
    st = c.get_set(name)
    i = c.instance_index("bank.n", inst)
    return tuple(c.tag_strings(st, int(st.position([i])[0])))


def test_reimport_flags_only_decisions_whose_basis_changed(session: Session,
                                                           tmp_path: Path) -> None:
    s = session
    assert answer(s, "ben", "bank.n.002") == ("1.1",) and answer(s, "ben", "bank.n.005") == ("2.1",)
    agreed = s.accept_agreed()  # bank.n.002 (1.1) and .003 (1.2) are agreed by all three
    keys = {(d.lexelt, d.instance) for d in agreed.decisions}
    assert {("bank.n", "bank.n.002"), ("bank.n", "bank.n.003")} <= keys
    s.execute(Decide([
        Decision("bank.n", "bank.n.005", ("2.1",), "set:ben", basis={"set": "ben",
                                                                      "tags": ["2.1"]}),
        Decision("bank.n", "bank.n.004", ("1.2",), "set:ben", basis={"set": "ben",
                                                                      "tags": ["1.2"]}),
        Decision("bank.n", "bank.n.001", ("4",), "set:ann", basis={"set": "ann", "tags": ["4"]}),
        Decision("bank.n", "bank.n.006", ("1",), "manual"),
    ]))
    before = s.decisions.snapshot()
    order = s.corpus.set_names()
    fixed = tmp_path / "ben_v2.key"
    # .002 breaks the agreement; .005 changes ben's answer; .003 keeps 1.2 (no change);
    # .006 changes but its decision is manual; .004 stays
    edit_key(tmp_path / "src" / "annotator_ben.key", fixed,
             {"bank.n.002": "4", "bank.n.005": "2.2", "bank.n.006": "4"})
    result = s.reimport("ben", fixed)
    assert result.sets == ["ben"] and result.changed == 3
    flagged = {r.instance: r for r in result.flagged}
    assert set(flagged) == {"bank.n.002", "bank.n.005"}
    assert flagged["bank.n.002"].tags == ("1.1",) and flagged["bank.n.002"].source == \
        "auto-agreement"
    assert "no longer agree" in flagged["bank.n.002"].note and "ben: 1.1 -> 4" in \
        flagged["bank.n.002"].note
    assert flagged["bank.n.005"].note == ("re-import of ben_v2.key: ben's answer changed from "
                                          "2.1 to 2.2")
    assert all(r.status == "flagged" for r in result.flagged)
    after = s.decisions.snapshot()
    assert {k: v for k, v in after.items() if k[1] not in flagged} == \
        {k: v for k, v in before.items() if k[1] not in flagged}  # nothing else touched
    assert s.corpus.set_names() == order  # ben keeps its place and its name
    assert answer(s, "ben", "bank.n.005") == ("2.2",)
    assert [f.source_path for f in effective_files(s.store.files("annotations"))][1] == str(fixed)

    # undo: old copy back, flags withdrawn (previous decisions restored); redo again
    s.undo()
    assert answer(s, "ben", "bank.n.005") == ("2.1",)
    assert s.decisions.snapshot() == before
    s.redo()
    assert answer(s, "ben", "bank.n.005") == ("2.2",)
    assert s.decisions.current("bank.n", "bank.n.005").status == "flagged"
    corpus = s.corpus
    path = s.path
    s.close()
    with Session.open(path) as again:  # from the cache written by the re-import
        assert again.from_cache
        assert_same_corpus(again.corpus, corpus)
        again.store.conn.execute("DELETE FROM arrays")
    with Session.open(path) as again:  # and from the stored copies
        assert not again.from_cache
        assert_same_corpus(again.corpus, corpus)
        assert again.decisions.current("bank.n", "bank.n.005").status == "flagged"


def test_compatible_agreement_and_withdrawn_answers(session: Session, tmp_path: Path) -> None:
    s = session
    cmd = s.accept_agreed(compatible=True, specific="most")
    chosen = {d.instance: d for d in cmd.decisions}
    nested = next(k for k, d in chosen.items() if d.basis["rule"] == "compatible"
                  and "ben" in d.basis["sets"])
    fixed = tmp_path / "ben.key"
    edit_key(tmp_path / "src" / "annotator_ben.key", fixed, {nested: None})  # ben drops it
    result = s.reimport("ben", fixed)
    # flagged exactly when the others no longer agree on the same most specific answer
    c = s.corpus
    i = c.instance_index(chosen[nested].lexelt, nested)
    assert c.get_set("ben").position([i])[0] == -1
    flagged = {r.instance for r in result.flagged}
    agr = agreement(c, compatible=True, specific="most")
    ok = i in agr.instances.tolist() and tuple(c.tag_strings(
        c.sets[int(agr.chosen[agr.instances.tolist().index(i)])],
        int(c.sets[int(agr.chosen[agr.instances.tolist().index(i)])].position([i])[0]))) \
        == chosen[nested].tags
    assert (nested in flagged) == (not ok)
    # ben comes back with an answer outside everyone's region: the agreement is broken
    other = next(k for k, d in chosen.items() if d.basis["rule"] == "compatible"
                 and "ben" in d.basis["sets"] and k != nested)
    edit_key(tmp_path / "src" / "annotator_ben.key", fixed, {nested: None, other: "U"})
    result = s.reimport("ben", fixed)
    assert [r.instance for r in result.flagged] == [other]
    assert "no longer agree" in result.flagged[0].note


def test_reimport_errors_change_nothing(session: Session, tmp_path: Path) -> None:
    s = session
    n_files = len(s.store.files(active_only=False))
    bad = tmp_path / "bad.key"
    bad.write_bytes(b"\x00\x01\x02 not a key")
    with pytest.raises(FormatError):
        s.reimport("ben", bad)
    with pytest.raises(ProjectError, match="no annotation set or file 'nobody'"):
        s.reimport("nobody", bad)
    with pytest.raises(ProjectError, match="cannot read"):
        s.reimport("ben", tmp_path / "missing.key")
    assert len(s.store.files(active_only=False)) == n_files and s.store.count_decisions() == 0
    assert not s.commands.can_undo
    path = s.path
    s.close()
    with Session.open(path, read_only=True) as ro, pytest.raises(ProjectError,
                                                                   match="read-only"):
        ro.reimport("ben", tmp_path / "src" / "annotator_ben.key")


def test_crash_between_copy_and_deactivation_keeps_the_new_copy(session: Session,
                                                                tmp_path: Path) -> None:
    s = session
    fixed = tmp_path / "ben.key"
    edit_key(tmp_path / "src" / "annotator_ben.key", fixed, {"bank.n.005": "2.2"})
    old = next(f for f in s.store.files("annotations") if f.set_names == ("ben",))
    s.store.add_file("annotations", fixed, role=old.role, set_names=["ben"],
                     options={**old.options, "name": "ben", "order": old.id, "replaces": old.id})
    path = s.path
    s.close()
    with Session.open(path) as again:  # the old copy is still active but replaced
        assert again.corpus.set_names() == ["ann", "ben", "cho", "lesk"]
        assert answer(again, "ben", "bank.n.005") == ("2.2",)
