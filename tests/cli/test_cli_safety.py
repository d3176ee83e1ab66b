"""Hostile data on the command line: terminal escapes, non-UTF-8 names, set specs with ``=``/``:``,
inputs too large to keep a copy of (issue #12 items 4 and 5)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hieradjudicate.app.loading.specs import AnnotationSpec
from hieradjudicate.app.textout import EscapingWriter, escape_control, json_text, text_table

ROOT = Path(__file__).resolve().parents[2]


def run(*args, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """Run the CLI with bytes output (so that raw control characters would be visible)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "hieradjudicate", *args], capture_output=True,
                          cwd=cwd, env=env, timeout=120)


_RAW_CONTROL = set(range(0x00, 0x09)) | set(range(0x0B, 0x20)) | {0x7F}


def _no_raw_controls(data: bytes) -> bool:
    text = data.decode("utf-8")  # also proves the output is valid UTF-8 (no lone surrogates)
    return not any(ord(c) in _RAW_CONTROL or 0x80 <= ord(c) < 0xA0 or 0x202A <= ord(c) <= 0x202E
                   for c in text)


def test_escape_control_keeps_text_and_shows_controls():
    assert escape_control("a\tb\nc") == "a\tb\nc"
    assert escape_control("\x1b]0;PWNED\x07\x1b[2J") == "\\x1b]0;PWNED\\x07\\x1b[2J"
    assert escape_control("x\x9b2J\u202eevil\r") == "x\\x9b2J\\u202eevil\\x0d"
    assert escape_control("caf\u00e9 \u4e00") == "caf\u00e9 \u4e00"
    assert escape_control("key\udcff") == "key\\udcff"
    buf = io.StringIO()
    EscapingWriter(buf).write("t\x1bx\n")
    assert buf.getvalue() == "t\\x1bx\n"


def test_json_and_tables_stay_valid_and_aligned():
    s = json_text({"tag": "a\x1b\x9b\u202e"})
    assert json.loads(s) == {"tag": "a\x1b\x9b\u202e"} and _no_raw_controls(s.encode())
    table = text_table(["set", "n"], [["a\x1bb", 1], ["cc", 2]]).splitlines()
    assert len({len(line) for line in table}) == 1  # widths count the escapes as shown


@pytest.mark.parametrize("payload, shown", [("\u009b2J\u009b0;PWNED", b"\\x9b2J\\x9b0;PWNED"),
                                            ("x\u202eyx", b"x\\u202eyx"), ("q\u0090q", b"q\\x90q")])
def test_validate_prints_c1_and_bidi_controls_escaped(tmp_path, payload, shown):
    # C1 controls pass the reader (real files carry them as mojibake) but never reach the terminal
    key = tmp_path / "k.key"
    key.write_text(f"art.n art.n.1 {payload}\n", encoding="utf-8")
    for fmt in ("text", "json", "csv"):
        r = run("validate", "--annotations", str(key), "--format", fmt)
        assert r.returncode == 0, r.stderr
        assert _no_raw_controls(r.stdout) and _no_raw_controls(r.stderr), (fmt, r.stdout)
    r = run("validate", "--annotations", str(key))
    assert b"kept as leaves of their own: art.n:" + shown in r.stdout


def test_validate_names_the_escape_sequence_line_without_printing_it(tmp_path):
    key = tmp_path / "k.key"
    key.write_bytes(b"art.n art.n.1 a\nart.n art.n.2 \x1b]0;PWNED\x07\x1b[2J\n")
    r = run("validate", "--annotations", str(key))
    assert r.returncode == 1
    assert f"{key}:2:15".encode() in r.stdout + r.stderr
    assert _no_raw_controls(r.stdout) and _no_raw_controls(r.stderr)


def test_non_utf8_file_name_through_validate_and_project_new(tmp_path):
    raw = os.fsencode(tmp_path) + b"/key\xff.txt"
    with open(raw, "wb") as fh:
        fh.write(b"art.n art.n.1 art%1:06:00::\n")
    name = os.fsdecode(raw)
    r = run("validate", "--annotations", name)
    assert r.returncode == 0 and b"key\\udcff" in r.stdout and _no_raw_controls(r.stdout)
    missing = os.fsdecode(os.fsencode(tmp_path) + b"/gone\xfe.key")
    r = run("validate", "--annotations", missing)
    assert r.returncode == 1 and b"gone\\udcfe.key" in r.stdout + r.stderr
    assert b"Traceback" not in r.stderr and b"internal error" not in r.stderr
    r = run("project", "new", str(tmp_path / "p.hadj"), "--annotations", name)
    assert r.returncode == 0, r.stderr
    r = run("project", "status", str(tmp_path / "p.hadj"))
    assert r.returncode == 0 and b"1 unresolved" in r.stdout


def test_set_specs_prefer_an_existing_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in ("3.key", "run=3.key", "a:b.key", "x=y:judge.key"):
        Path(name).write_text("art.n art.n.1 a\n")
    cases = {
        "run=3.key:system": ("3.key", "run", "system"),   # both exist: NAME=PATH:ROLE first
        "3.key:system": ("3.key", None, "system"),
        "a:b.key": ("a:b.key", None, "annotator"),
        "a:b.key:gold": ("a:b.key", None, "gold"),
        "n=a:b.key:system": ("a:b.key", "n", "system"),
        "x=y:judge.key": ("x=y:judge.key", None, "annotator"),  # the whole text is a file
        "missing.key:system": ("missing.key", None, "system"),
        "r=missing.key": ("missing.key", "r", "annotator"),
    }
    for text, want in cases.items():
        spec = AnnotationSpec.parse(text)
        assert (spec.path, spec.name, spec.role) == want, text
    os.remove("3.key")
    spec = AnnotationSpec.parse("run=3.key:system")  # only run=3.key exists now
    assert (spec.path, spec.name, spec.role) == ("run=3.key", None, "system")


def test_cli_reads_a_spec_whose_file_name_has_digits_and_equals(tmp_path):
    (tmp_path / "run=3.key").write_text("art.n art.n.1 a\n")
    r = run("validate", "--annotations", "run=3.key:system", cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert b"system" in r.stdout


def test_an_input_too_large_to_store_is_refused_with_a_message(tmp_path, monkeypatch):
    from hieradjudicate.app.session import stored_inputs
    from hieradjudicate.core.errors import ProjectError

    big = tmp_path / "big.key"
    big.write_text("art.n art.n.1 a\n" * 100)
    monkeypatch.setattr(stored_inputs, "MAX_STORED_BYTES", 1000)
    with pytest.raises(ProjectError, match=r"big.key: 1,600 bytes is too large to keep a copy"):
        stored_inputs.check_storable(str(big))
    monkeypatch.setattr(stored_inputs, "MAX_STORED_BYTES", 10_000)
    stored_inputs.check_storable(str(big))


def test_a_fifo_is_not_stored_or_waited_on(tmp_path):
    from hieradjudicate.app.session import stored_inputs
    from hieradjudicate.core.errors import ProjectError

    fifo = tmp_path / "p.key"
    os.mkfifo(fifo)
    with pytest.raises(ProjectError, match="not a regular file"):
        stored_inputs.check_storable(str(fifo))
    r = run("project", "new", str(tmp_path / "x.hadj"), "--annotations", str(fifo))
    assert r.returncode == 1 and b"not a regular file" in r.stderr + r.stdout
