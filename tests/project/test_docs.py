"""The user guide (docs/, MkDocs) cannot drift from the program.

* the command reference equals what ``docs/tools/gen_reference.py`` writes from the argument parser;
* ``mkdocs build --strict`` succeeds, and fails on a broken link (so the check itself can fail);
* every ``$ hieradjudicate …`` line of a ``console`` block runs exactly as written in a folder
  holding the demo's files (and the files the page shows in ``<!-- file: NAME -->`` blocks), one
  page's lines in order, with the exit code its comment names (``# exits 1``) or 0; lines naming
  shared real data run where ``HIERADJ_REALDATA`` is set;
* every other ``hieradjudicate`` line of a shell block parses with the program's own parser.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import DEMO, ROOT, realdata_dir

DOCS = ROOT / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md") if "tools" not in p.relative_to(DOCS).parts)
SHELL = ("console", "sh", "bash", "shell")
#: Folders of the shared data whose files the guide's real-data lines name (by bare file name).
REALDATA_FOLDERS = ("wsdeval", "senseval3", "senseval3/answers", "masc_amt", "inception")
WORDNET = Path("/usr/share/wordnet")
_FILE_SUFFIX = re.compile(r"\.(txt|key|ans|xml|gz|tsv|csv|json|jsonl|hadj|xmi|sensemap|zip)$")
_ROLE = re.compile(r":(annotator|system|gold)$")


# ------------------------------------------------------------------------------ reading the pages
@dataclass
class Block:
    lang: str
    text: str
    line: int  # of the opening fence
    file: str | None  # the <!-- file: NAME --> before it


def blocks(page: Path) -> list[Block]:
    out, lines = [], page.read_text(encoding="utf-8").split("\n")
    k = 0
    while k < len(lines):
        m = re.match(r"^```(\w*)\s*$", lines[k])
        if m:
            end = next(j for j in range(k + 1, len(lines)) if lines[j].startswith("```"))
            prev = lines[k - 1] if k else ""
            f = re.match(r"^<!-- file: (\S+) -->$", prev)
            out.append(Block(m.group(1), "\n".join(lines[k + 1:end]) + "\n", k + 1, f.group(1) if f else None))
            k = end
        k += 1
    return out


def commands(block: Block) -> list[tuple[int, str]]:
    """(line number in the page, command) of each ``hieradjudicate`` line; continuation lines joined;
    in a console block only the ``$`` lines are commands."""
    out, pending, start = [], "", 0
    for k, raw in enumerate(block.text.split("\n")):
        line = raw
        if not pending:
            if block.lang == "console":
                if not line.startswith("$ "):
                    continue
                line = line[2:]
            start = block.line + 1 + k
        pending += line.rstrip("\\").rstrip() + " " if line.endswith("\\") else line
        if line.endswith("\\"):
            continue
        if re.match(r"^\s*hieradjudicate(\s|$)", pending):
            out.append((start, pending.strip()))
        pending = ""
    return out


def argv_of(command: str) -> tuple[list[str], int]:
    """The arguments after ``hieradjudicate`` and the exit code the line's comment names (else 0)."""
    m = re.search(r"#\s*exits\s+(\d+)", command)
    args = shlex.split(command, comments=True)
    assert args[0] == "hieradjudicate"
    return args[1:], int(m.group(1)) if m else 0


def said(command: str) -> list[str]:
    """The phrases a line's comment quotes (``# exits 1: "no 'sense' column"``): the output must hold
    them, so a command that fails for another reason than the guide says does not pass."""
    comment = command.split("#", 1)[1] if "#" in command else ""
    return re.findall(r'"([^"]+)"', comment)


def all_commands(lang: tuple[str, ...]) -> list[tuple[str, int, str]]:
    return [(str(p.relative_to(DOCS)), n, c) for p in PAGES for b in blocks(p) if b.lang in lang
            for n, c in commands(b)]


# ------------------------------------------------------------------------------ the reference
def _gen_reference():
    spec = importlib.util.spec_from_file_location("gen_reference", DOCS / "tools" / "gen_reference.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_committed_reference_is_what_the_parser_gives():
    committed = (DOCS / "reference.md").read_text(encoding="utf-8")
    assert committed == _gen_reference().render(), \
        "docs/reference.md is out of date: run python docs/tools/gen_reference.py"


def test_reference_names_every_command_and_option_of_the_parser():
    """Independent of the generator's own walk: every sub-command and option string argparse
    knows appears in the reference."""
    from hieradjudicate.cli.entry import build_parser

    text = (DOCS / "reference.md").read_text(encoding="utf-8")
    missing = []

    def walk(p: argparse.ArgumentParser) -> None:
        for a in p._actions:
            if isinstance(a, argparse._SubParsersAction):
                for name, sub in a.choices.items():
                    if name not in ("demo", "gui") and f"`{sub.prog}`" not in text:
                        missing.append(sub.prog)
                    walk(sub)
            for opt in a.option_strings:
                if opt not in ("-h", "--help") and opt not in text:
                    missing.append(f"{p.prog} {opt}")
    walk(build_parser())
    assert not missing, f"not in docs/reference.md: {missing}"


# ------------------------------------------------------------------------------ the build
def _mkdocs_or_skip() -> None:
    if importlib.util.find_spec("mkdocs") is None:
        pytest.skip("mkdocs is not installed (pip install -e '.[docs]')")


def _build(config: Path, site: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config),
                           "-d", str(site)], capture_output=True, text=True, timeout=300)


def test_guide_builds_with_strict_checks(tmp_path):
    _mkdocs_or_skip()
    r = _build(ROOT / "mkdocs.yml", tmp_path / "site")
    assert r.returncode == 0, f"mkdocs build --strict failed:\n{r.stdout}\n{r.stderr}"
    assert (tmp_path / "site" / "index.html").is_file() and (tmp_path / "site" / "reference.html").is_file()


@pytest.mark.parametrize("link", ["[gone](no-such-page.md)", "[gone](monitoring.md#no-such-section)"])
def test_guide_build_fails_on_a_broken_link(tmp_path, link):
    _mkdocs_or_skip()
    copy = tmp_path / "guide"
    shutil.copytree(DOCS, copy / "docs", ignore=shutil.ignore_patterns("tools", "__pycache__"))
    shutil.copy(ROOT / "mkdocs.yml", copy / "mkdocs.yml")
    with open(copy / "docs" / "team.md", "a", encoding="utf-8") as fh:
        fh.write(f"\n{link}\n")
    r = _build(copy / "mkdocs.yml", tmp_path / "site")
    assert r.returncode != 0 and "team.md" in r.stdout + r.stderr


# ------------------------------------------------------------------------------ the commands
def _parse(args: list[str]) -> None:
    from hieradjudicate.cli import entry, gui
    from hieradjudicate.cli.options import parse_columns

    if (not args or args[0] in ("demo", "gui") or args[0].endswith(".hadj")
            or args[0].startswith(("postgresql://", "postgres://", "--screenshot", "--tab", "--fresh-demo"))):
        gui._parser().parse_args(args[1:] if args and args[0] == "gui" else args)
        return
    ns = entry.build_parser(args[0]).parse_args(args)
    if getattr(ns, "tree_columns", None):
        parse_columns(ns.tree_columns)
    assert ns.command is not None


SHELL_COMMANDS = all_commands(SHELL)


def test_the_guide_shows_commands():
    pages = {p for p, _, _ in SHELL_COMMANDS}
    assert len(SHELL_COMMANDS) > 60 and {"adjudicating.md", "monitoring.md", "evaluating.md"} <= pages


@pytest.mark.parametrize("page,line,command", SHELL_COMMANDS, ids=[f"{p}:{n}" for p, n, _ in SHELL_COMMANDS])
def test_every_command_in_the_guide_parses(page, line, command, capsys):
    args, _ = argv_of(command)
    try:
        _parse(args)
    except SystemExit as exc:
        pytest.fail(f"docs/{page}:{line}: `{command}` does not parse ({exc.code}): {capsys.readouterr().err}")


def test_a_command_that_no_longer_parses_is_caught(capsys):
    """The check above can fail: an option the program does not have is refused."""
    with pytest.raises(SystemExit):
        _parse(argv_of("hieradjudicate score --gold a.key --system b.ans --policy finest")[0])
    with pytest.raises(SystemExit):
        _parse(argv_of("hieradjudicate project export demo.hadj --fromat csv")[0])


def _files_named(args: list[str]) -> list[str]:
    """The input files a command names (bare names, as the guide writes them); outputs left out."""
    out, skip_next = [], False
    for k, a in enumerate(args):
        if skip_next:
            skip_next = False
            continue
        if a in ("-o", "--output", "--tables-dir"):
            skip_next = True
            continue
        if args[:2] == ["project", "new"] and k == 2:
            continue
        value = _ROLE.sub("", a.split("=", 1)[1] if "=" in a and not a.startswith("-") else a)
        if not value.startswith("-") and _FILE_SUFFIX.search(value) and "/" not in value:
            out.append(value)
    return out


def _runnable_pages() -> list[str]:
    return [str(p.relative_to(DOCS)) for p in PAGES if any(b.lang == "console" and commands(b) for b in blocks(p))]


@pytest.mark.parametrize("page", _runnable_pages())
def test_console_commands_run_as_written(page, tmp_path):
    work = tmp_path / "work"
    shutil.copytree(DEMO, work, ignore=shutil.ignore_patterns("generate.py", "README.md", "__pycache__"))
    data = realdata_dir()
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env.update(PYTHONPATH=str(ROOT), XDG_DATA_HOME=str(tmp_path / "data"), XDG_STATE_HOME=str(tmp_path / "state"),
               XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_CACHE_HOME=str(tmp_path / "cache"), COLUMNS="100")
    ran, skipped = 0, []
    for b in blocks(DOCS / page):
        if b.file:
            (work / b.file).write_text(b.text, encoding="utf-8")
            continue
        if b.lang != "console":
            continue
        for line, command in commands(b):
            args, expected = argv_of(command)
            missing = [f for f in _files_named(args) if not (work / f).exists()]
            for f in list(missing):
                found = [data / d / f for d in REALDATA_FOLDERS if data and (data / d / f).is_file()]
                if found:
                    (work / f).symlink_to(found[0])
                    missing.remove(f)
                    companion = found[0].parent / "TypeSystem.xml"  # an XMI file's type system beside it
                    if f.endswith(".xmi") and companion.is_file() and not (work / companion.name).exists():
                        (work / companion.name).symlink_to(companion)
            if "wordnet" in args and not (WORDNET / "index.noun").is_file():
                missing.append(f"WordNet 3.0 in {WORDNET}")
            if missing:
                skipped.append(f"line {line} ({', '.join(missing)})")
                continue
            r = subprocess.run([sys.executable, "-m", "hieradjudicate", *args], cwd=work, env=env,
                               capture_output=True, text=True, timeout=300)
            assert r.returncode == expected, (
                f"docs/{page}:{line}: `{command}` exited {r.returncode}, the guide expects {expected}\n"
                f"stdout: {r.stdout[-1500:]}\nstderr: {r.stderr[-1500:]}")
            assert "Traceback" not in r.stderr, f"docs/{page}:{line}: a traceback\n{r.stderr}"
            for phrase in said(command):
                assert phrase in r.stdout + r.stderr, \
                    f"docs/{page}:{line}: the guide says the output holds {phrase!r}; it does not:\n" \
                    f"{r.stdout}{r.stderr}"
            ran += 1
    if skipped:
        why = "HIERADJ_REALDATA is unset or lacks them" if data is None else "not found in HIERADJ_REALDATA"
        pytest.skip(f"docs/{page}: ran {ran} command(s); {len(skipped)} need files that are missing "
                    f"({why}): {'; '.join(skipped)}")


# ------------------------------------------------------------------------------ the pictures
def test_every_picture_is_made_by_the_script_used_by_a_page_and_small():
    """docs/images holds only what docs/tools/make_screenshots.py writes (so every picture can be
    made again when the window changes), each is shown on some page, and none exceeds 200 KB."""
    script = (DOCS / "tools" / "make_screenshots.py").read_text(encoding="utf-8")
    pages = "".join(p.read_text(encoding="utf-8") for p in PAGES)
    pictures = sorted((DOCS / "images").glob("*.png"))
    assert len(pictures) >= 5
    for png in pictures:
        assert f'"{png.stem}"' in script, f"{png.name} is not made by docs/tools/make_screenshots.py"
        assert f"images/{png.name}" in pages, f"{png.name} is shown on no page"
        assert png.stat().st_size < 200_000, f"{png.name}: {png.stat().st_size} bytes"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for name in ("workbench", "dashboard", "help", "report", "wizard"):
        assert (DOCS / "images" / f"{name}.png").is_file(), name
