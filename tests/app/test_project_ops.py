"""The window's export, resolve, import and re-import functions print what the command line prints:
the CLI runs in-process on the same project and its stdout is compared line for line."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from hieradjudicate.app.demo import DEMO_SETS
from hieradjudicate.app.loading.load import AnnotationSpec
from hieradjudicate.app.session import project_ops as ops
from hieradjudicate.app.session.commands import Decide
from hieradjudicate.app.session.decisions import Decision
from hieradjudicate.app.session.session import Session
from hieradjudicate.cli.entry import main
from hieradjudicate.core.errors import HieradjError
from tests.conftest import DEMO


@pytest.fixture
def project(tmp_path: Path) -> Path:
    path = tmp_path / "demo.hadj"
    specs = [AnnotationSpec(str(DEMO / f), name, role) for f, name, role in DEMO_SETS]
    with Session.create(path, [str(DEMO / "inventory.txt")], specs) as s:
        keys = s.instances()[:6]
        inv = s.corpus.inventory
        first = [inv.node_id[int(n)] for n in inv.lexelt_nodes[inv.lexelts.index(keys[0][0])]][1]
        s.execute(Decide([Decision(*keys[0], (first,), "manual"),
                          Decision(*keys[1], (), "manual", "flagged", "ask"),
                          Decision(*keys[2], (), "manual", "skipped")]))
    return path


def cli(capsys, *args: str, code: int = 0) -> str:
    capsys.readouterr()
    assert main(list(args)) == code
    out = capsys.readouterr()
    return out.out if code == 0 else out.err


@pytest.mark.parametrize("fmt", ["senseval", "wsdeval", "csv", "jsonl"])
def test_export_summary_is_the_cli_line(project: Path, tmp_path: Path, capsys, fmt: str) -> None:
    with Session.open(project, read_only=True) as s:
        summary = ops.export(s, tmp_path / f"w.{fmt}", fmt)
        assert summary.written == 1 and summary.left_out == s.corpus.n - 1
        assert summary.left_out_by_status == {"flagged": 1, "skipped": 1, "unresolved": s.corpus.n - 3}
    printed = cli(capsys, "project", "export", str(project), "--format", fmt, "-o", str(tmp_path / f"c.{fmt}"))
    assert printed.strip() == str(summary).replace(f"w.{fmt}", f"c.{fmt}")
    assert (tmp_path / f"w.{fmt}").read_bytes() == (tmp_path / f"c.{fmt}").read_bytes()


def test_export_refusals_say_why(project: Path, tmp_path: Path) -> None:
    with Session.open(project, read_only=True) as s:
        assert ops.export_unavailable(s, "csv") is None
        assert "file the project was built from" in ops.export_unavailable(s, "xmi")
        with pytest.raises(HieradjError, match="cannot hold unresolved"):
            ops.export(s, tmp_path / "x.key", "senseval", include_unresolved=True)
        with pytest.raises(HieradjError, match="none"):
            ops.export(s, tmp_path / "x.zip", "xmi")
        with pytest.raises(HieradjError, match="does not exist|cannot write|No such"):
            ops.export(s, tmp_path / "no" / "such" / "x.csv", "csv")
        assert not (tmp_path / "no").exists()


def test_resolve_agreed_preview_is_what_the_cli_resolves(project: Path, tmp_path: Path, capsys) -> None:
    copy = tmp_path / "copy.hadj"
    shutil.copy(project, copy)
    with Session.open(project) as s:
        plan = ops.plan_resolve_agreed(s)
        before = len(s.decisions)
        assert plan.count > 100 and f"{plan.count} unresolved instance(s)" in plan.preview()
        message = ops.resolve_agreed(s, plan)
        assert len(s.decisions) == before + plan.count
        s.undo()  # one step
        assert len(s.decisions) == before
    printed = cli(capsys, "project", "resolve-agreed", str(copy))
    assert printed.strip() == message
    # the plan's count is the instances the CLI resolved, figure for figure
    assert f"resolved {plan.count} instance(s)" in printed


def test_resolve_agreed_refuses_one_annotator_with_the_cli_words(tmp_path: Path, capsys) -> None:
    path = tmp_path / "one.hadj"
    with Session.create(path, [str(DEMO / "inventory.txt")],
                        [AnnotationSpec(str(DEMO / "annotator_ann.key"), "ann", "annotator"),
                         AnnotationSpec(str(DEMO / "system_lesk.ans"), "lesk", "system")]) as s:
        with pytest.raises(HieradjError) as err:
            ops.plan_resolve_agreed(s)
        plan = ops.plan_resolve_agreed(s, include_systems=True)
        assert plan.count > 0
    printed = cli(capsys, "project", "resolve-agreed", str(path), code=1)
    assert printed.strip() == f"hieradjudicate: error: {err.value}"
    assert "--include-systems counts the systems" in printed


def test_import_decisions_line_and_errors(project: Path, tmp_path: Path, capsys) -> None:
    with Session.open(project, read_only=True) as s:
        (lex, inst), (lex2, inst2) = s.instances()[10:12]
        inv = s.corpus.inventory
        tag = inv.node_id[int(inv.lexelt_nodes[inv.lexelts.index(lex)][1])]
    good = tmp_path / "good.csv"
    good.write_text(f"lexelt,instance,tags\n{lex},{inst},{tag}\n", encoding="utf-8")
    bad = tmp_path / "bad.csv"
    bad.write_text(f"lexelt,instance,tags\n{lex},{inst},{tag}\n{lex2},{inst2},nosuchsense\n", encoding="utf-8")
    copy = tmp_path / "copy.hadj"
    shutil.copy(project, copy)
    with Session.open(project) as s:
        with pytest.raises(HieradjError, match=r"bad\.csv:3: nosuchsense is not a sense of"):
            ops.import_decisions(s, str(bad))
        n = len(s.decisions)
        assert n == 3  # nothing of the bad file was recorded
        message = ops.import_decisions(s, str(good))
        assert message == f"imported 1 decision(s) from {good}" and len(s.decisions) == 4
    assert cli(capsys, "project", "import-decisions", str(copy), str(good)).strip() == message
    assert f"{bad}:3: nosuchsense" in cli(capsys, "project", "import-decisions", str(copy), str(bad), code=1)


def test_reimport_lines_are_the_cli_lines(project: Path, tmp_path: Path, capsys) -> None:
    changed = tmp_path / "ben_v2.key"
    lines = (DEMO / "annotator_ben.key").read_text(encoding="utf-8").splitlines()
    lex, inst, *_ = lines[0].split()
    with Session.open(project, read_only=True) as s:
        inv = s.corpus.inventory
        other = [inv.node_id[int(n)] for n in inv.lexelt_nodes[inv.lexelts.index(lex)] if inv.node_is_leaf[int(n)]]
    lines[0] = f"{lex} {inst} {next(t for t in other if t not in lines[0].split()[2:])}"
    changed.write_text("\n".join(lines) + "\n", encoding="utf-8")
    copy = tmp_path / "copy.hadj"
    shutil.copy(project, copy)
    with Session.open(project) as s:
        notice, result = ops.reimport(s, "ben", str(changed))
        assert notice is None and result.changed == 1
        mine = ops.reimport_lines(result)
    printed = cli(capsys, "project", "reimport", str(copy), "ben", str(changed)).strip().splitlines()
    assert printed == mine
