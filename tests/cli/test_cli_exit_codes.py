"""Exit codes and messages that hold everywhere (#13 item 3).

0 success, 1 a problem with the input or the project, 2 usage; never an
``internal error`` (exit 3) for a mistake a user can make: missing files,
folders given as files, unreadable files, outputs into missing folders,
folders or read-only places; no temporary file left behind.  The workbench
entry without a display prints the status of the project asked for (not the
demo's figures) and refuses a missing project, also with ``--screenshot``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from hieradjudicate.cli.entry import build_parser, main
from tests.conftest import DEMO, ROOT

READ_ONLY = Path("/proc")  # a place nobody, root included, can create files in


@pytest.fixture
def m(tmp_path: Path, capsys) -> dict[str, Path]:
    inv, a, b, s = (DEMO / "inventory.txt", DEMO / "annotator_ann.key", DEMO / "annotator_ben.key",
                    DEMO / "system_lesk.ans")
    proj = tmp_path / "p.hadj"
    assert main(["project", "new", str(proj), "--inventory", str(inv), "--annotations", f"ann={a}",
                 "--annotations", f"ben={b}", "--annotations", f"lesk={s}:system"]) == 0
    (tmp_path / "folder").mkdir()
    capsys.readouterr()
    return {"inv": inv, "a": a, "b": b, "s": s, "p": proj, "dir": tmp_path, "folder": tmp_path / "folder"}


def _input_commands(f: dict[str, Path], bad: str) -> list[list[str]]:
    inv, a, b, s, p, d = (str(f[k]) for k in ("inv", "a", "b", "s", "p", "dir"))
    return [
        ["validate", "--annotations", bad],
        ["validate", "--inventory", bad],
        ["validate", "--contexts", bad],
        ["agree", "--inventory", inv, "--annotations", a, "--annotations", bad],
        ["agree", "--inventory", bad, "--annotations", a, "--annotations", b],
        ["score", "--gold", bad, "--system", s],
        ["score", "--gold", a, "--system", bad],
        ["score", "--gold", a, "--system", s, "--inventory", bad, "--policy", "fine"],
        ["compare", "--gold", a, "--system", s, "--system", bad],
        ["report", "--inventory", inv, "--annotations", a, "--annotations", bad, "-o", f"{d}/r.html"],
        ["report", bad, "-o", f"{d}/r.html"],
        ["project", "new", f"{d}/n.hadj", "--inventory", inv, "--annotations", bad],
        ["project", "new", f"{d}/n.hadj", "--inventory", inv, "--annotations", a, "--contexts", bad],
        ["project", "status", bad],
        ["project", "decide", bad, "bank.n", "bank.n.001", "1"],
        ["project", "import-decisions", p, bad],
        ["project", "reimport", p, "ann", bad],
        ["project", "export", bad, "--format", "csv", "-o", f"{d}/g.csv"],
        ["project", "history", bad],
        ["project", "resolve-agreed", bad],
    ]


def _check_refused(argv: list[str], bad: str, capsys, words: tuple[str, ...]) -> None:
    rc = main(argv)
    out = capsys.readouterr()
    text = out.out + out.err
    assert rc == 1, (argv, text)
    assert "internal error" not in text and "Traceback" not in text, argv
    assert bad in text, (argv, text)  # the message names the path
    assert any(w in text for w in words), (argv, text)


@pytest.mark.parametrize("k", range(20))
def test_a_missing_input_is_named(m, capsys, k: int) -> None:
    bad = str(m["dir"] / "missing.key")
    argv = _input_commands(m, bad)[k]
    _check_refused(argv, bad, capsys, ("not found", "no such", "No such"))
    assert not (m["dir"] / "n.hadj").exists()


@pytest.mark.parametrize("k", range(20))
def test_a_folder_given_as_a_file_is_named(m, capsys, k: int) -> None:
    bad = str(m["folder"])
    argv = _input_commands(m, bad)[k]
    _check_refused(argv, bad, capsys, ("directory", "folder"))


@pytest.mark.skipif(os.geteuid() == 0, reason="running as root: chmod 000 does not stop root from reading")
@pytest.mark.parametrize("k", range(20))
def test_an_unreadable_input_is_named(m, capsys, k: int) -> None:
    bad = m["dir"] / "locked.key"
    bad.write_text((m["a"]).read_text())
    bad.chmod(0)
    try:
        _check_refused(_input_commands(m, str(bad))[k], str(bad), capsys,
                       ("ermission", "cannot read", "unreadable"))
    finally:
        bad.chmod(0o600)


@pytest.mark.parametrize("k", [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 15, 16])  # the input files, not projects
def test_an_unreadable_input_is_named_also_as_root(m, capsys, monkeypatch, k: int) -> None:
    """Root reads a chmod 000 file, so the refusal of the operating system is simulated: opening the
    file raises PermissionError, as it does for any other user."""
    import builtins
    import io

    bad = m["dir"] / "locked.key"
    bad.write_text(m["a"].read_text())
    real_open = builtins.open

    def guarded(file, *args, **kwargs):
        if str(file) == str(bad):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", guarded)
    monkeypatch.setattr(io, "open", guarded)
    _check_refused(_input_commands(m, str(bad))[k], str(bad), capsys, ("Permission denied",))


def _output_commands(f: dict[str, Path], out: str) -> list[list[str]]:
    inv, a, p = str(f["inv"]), str(f["a"]), str(f["p"])
    return [
        ["project", "new", out, "--inventory", inv, "--annotations", a],
        ["project", "export", p, "--format", "csv", "-o", out],
        ["project", "export", p, "--format", "senseval", "-o", out],
        ["project", "history", p, "-o", out],
        ["project", "history", p, "--format", "text", "-o", out],
        ["report", p, "-o", out, "--resamples", "0"],
        ["report", p, "--tables-dir", out, "--resamples", "0"],
    ]


TABLES = 6  # the --tables-dir command: it makes a missing folder and writes into an existing one
OUTPUT_CASES = [(k, w) for k in range(7) for w in ("missing folder", "a folder", "read-only place", "a file")
                if (w in ("read-only place", "a file")) == (k == TABLES) or w == "read-only place"]


@pytest.mark.parametrize("k, where", OUTPUT_CASES)
def test_outputs_that_cannot_be_written_are_refused_and_leave_nothing(m, capsys, where: str, k: int) -> None:
    if where == "missing folder":
        out = m["dir"] / "nodir" / "x" / "out.file"
    elif where == "a folder":
        out = m["folder"]
    elif where == "read-only place":
        if not READ_ONLY.is_dir():
            pytest.skip("no /proc to stand for a read-only place")
        out = READ_ONLY / "hadj-out.file"
    else:  # a file where --tables-dir wants a folder
        out = m["dir"] / "plain.file"
        out.write_text("x")
    def listing() -> list[str]:  # the project's own SQLite -wal/-shm come and go with opening it
        return [p.name for d in (m["dir"], m["folder"]) for p in sorted(d.iterdir())
                if not p.name.startswith("p.hadj-")]

    before = listing()
    argv = _output_commands(m, str(out))[k]
    rc = main(argv)
    text = "".join(capsys.readouterr())
    assert rc == 1, (argv, text)
    assert "internal error" not in text and (str(out) in text or str(out.parent) in text), (argv, text)
    assert ".new-" not in text and ".tmp" not in text  # the user's path is named, not a temporary one
    assert listing() == before  # no temporary file, no half-made folder
    assert not list(m["dir"].rglob("*.tmp")) and not list(m["dir"].rglob(".*new-*"))


@pytest.mark.parametrize("argv", [
    ["agree", "--ci", "-5", "--annotations", "a", "--annotations", "b"],
    ["score", "--gold", "g", "--system", "s", "--ci", "x"],
    ["report", "P.hadj", "--resamples", "-3", "-o", "r.html"],
    ["compare", "--gold", "g", "--system", "s", "--threshold", "2"],
    ["project", "resolve-agreed", "P.hadj", "--min-annotators", "0"],
    ["score", "--gold", "g"],
    ["nosuchcommand"],
])
def test_usage_errors_exit_2(argv: list[str], capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    assert "internal error" not in capsys.readouterr().err


# -- the workbench entry ---------------------------------------------------------------------------
@pytest.fixture
def no_display(monkeypatch):
    for var in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(var, raising=False)


def test_a_project_without_display_prints_its_own_status(m, capsys, no_display) -> None:
    assert main([str(m["p"])]) == 0
    out = capsys.readouterr()
    assert f"here is the status of {m['p']} instead" in out.err
    assert f"{m['p']}: 400 instances: 400 unresolved" in out.out
    assert "sets: ann (annotator, 400), ben (annotator, 395), lesk (system, 393)" in out.out
    assert "Fleiss" not in out.out  # not the demo's figures


@pytest.mark.parametrize("screenshot", [False, True])
def test_a_missing_project_is_an_error_with_or_without_screenshot(tmp_path: Path, capsys, no_display,
                                                                  screenshot: bool) -> None:
    shot = tmp_path / "s.png"
    argv = [str(tmp_path / "nope.hadj")] + (["--screenshot", str(shot)] if screenshot else [])
    assert main(argv) == 1
    assert f"{tmp_path / 'nope.hadj'}: no such project file" in capsys.readouterr().err
    assert not shot.exists()  # no picture of the start page passing for the project


def test_a_folder_or_a_non_project_is_an_error(m, capsys, no_display) -> None:
    d = m["dir"] / "d.hadj"
    d.mkdir()
    assert main([str(d)]) == 1
    assert "is a folder, not a project file" in capsys.readouterr().err
    junk = m["dir"] / "junk.hadj"
    junk.write_text("not a project\n")
    assert main([str(junk)]) == 1
    assert "not a hieradjudicate project" in capsys.readouterr().err


def test_screenshot_of_a_project_that_fails_to_open_exits_1(m, capsys, no_display) -> None:
    junk = m["dir"] / "junk.hadj"
    junk.write_text("not a project\n")
    shot = m["dir"] / "j.png"
    assert main([str(junk), "--screenshot", str(shot)]) == 1
    assert "not a hieradjudicate project" in capsys.readouterr().err
    assert not shot.exists()


def test_help_lists_every_command_and_the_workbench(capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    for word in ("validate", "agree", "score", "compare", "project", "report", "demo", "gui",
                 "PROJECT.hadj", "--screenshot", "--tab", "exit codes"):
        assert word in out, word


def _subparsers(parser) -> dict:
    import argparse

    return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices


def test_every_format_the_readme_promises_exists() -> None:
    """README: every reporting command takes --format text|json|csv, and the formats it names."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    parser = build_parser()
    sub = _subparsers(parser)
    project = _subparsers(sub["project"])

    def formats(p) -> set[str]:
        return set(next(a for a in p._actions if "--format" in a.option_strings).choices)

    for name in ("validate", "agree", "score", "compare"):
        assert {"text", "json", "csv"} <= formats(sub[name]), name
    for name in ("status", "history"):
        assert {"text", "json", "csv"} <= formats(project[name]), name
    # every `--format a|b|c` written in the README is accepted by the command on that line
    for line in readme.splitlines():
        hit = re.search(r"hieradjudicate (project (\w[\w-]*)|(\w+)) .*--format ([\w|]+)", line)
        if hit:
            p = project[hit.group(2)] if hit.group(2) else sub[hit.group(3)]
            assert set(hit.group(4).split("|")) <= formats(p), line
