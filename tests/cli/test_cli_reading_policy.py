"""One reading policy (#13 item 1): every command reads input as strictly as ``validate``.

A key with malformed lines (the issue's ``garbage-line-without-fields`` and
``bank.n bank.n.x 1/abc``) used to be scored, compared and made into a project
with those lines silently dropped; now each command stops with validate's own
message (file:line:column, what was expected), exit 1, unless
``--skip-bad-lines`` is given, and then stderr says how many lines were left out.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hieradjudicate.cli.entry import main
from tests.conftest import skip_without_realdata

GOOD = "".join(f"bank.n bank.n.{i} bank%{1 + i % 2}\n" for i in range(1, 9))
BAD_LINES = "garbage-line-without-fields\nbank.n bank.n.x 1/abc\n"
MISSING = "10:28: missing fields: expected 'lexelt instance_id tag[/weight] ... [!! comment]'"
WEIGHT = "11:19: non-numeric weight 'abc'; expected a finite number >= 0"


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    """A key with two bad lines (lines 10 and 11, after a comment-free good part), a clean answer
    file, a flat tree inventory."""
    bad = tmp_path / "badkey.key"
    bad.write_text(GOOD + "bank.n bank.n.9 bank%1\n" + BAD_LINES)
    ans = tmp_path / "sys.ans"
    ans.write_text("".join(f"bank.n bank.n.{i} bank%1\n" for i in range(1, 10)))
    other = tmp_path / "other.ans"
    other.write_text("".join(f"bank.n bank.n.{i} bank%2\n" for i in range(1, 10)))
    inv = tmp_path / "inv.tsv"
    inv.write_text("lexelt\tsense\tparent\nbank.n\tbank%0\t\nbank.n\tbank%1\tbank%0\nbank.n\tbank%2\tbank%0\n")
    return {"bad": bad, "ans": ans, "other": other, "inv": inv, "dir": tmp_path}


def _commands(f: dict[str, Path]) -> dict[str, list[str]]:
    bad, ans, other = str(f["bad"]), str(f["ans"]), str(f["other"])
    return {
        "score": ["score", "--gold", bad, "--system", ans],
        "score-fine": ["score", "--gold", bad, "--system", ans, "--policy", "fine"],
        "compare": ["compare", "--gold", bad, "--system", ans, "--system", other],
        "agree": ["agree", "--annotations", bad, "--annotations", ans],
        "report": ["report", "--inventory", str(f["inv"]), "--annotations", bad, "--annotations", ans,
                   "-o", str(f["dir"] / "r.html"), "--resamples", "0"],
        "project new": ["project", "new", str(f["dir"] / "p.hadj"), "--annotations", bad,
                        "--annotations", ans],
    }


@pytest.mark.parametrize("name", ["score", "score-fine", "compare", "agree", "report", "project new"])
def test_bad_lines_stop_every_command_with_validates_message(files, capsys, name: str) -> None:
    argv = _commands(files)[name]
    rc = main(argv)
    out = capsys.readouterr()
    assert rc == 1, out.err
    bad = str(files["bad"])
    assert f"2 line(s) with problems in {bad}" in out.err
    assert f"{bad}:{MISSING}" in out.err  # validate's own words, file:line:column
    assert f"{bad}:{WEIGHT}" in out.err
    assert "--skip-bad-lines" in out.err and "Traceback" not in out.err
    assert out.out == ""  # no figure from what was left
    assert not (files["dir"] / "p.hadj").exists() and not (files["dir"] / "r.html").exists()


def test_validate_names_the_same_lines(files, capsys) -> None:
    assert main(["validate", "--annotations", str(files["bad"])]) == 1
    out = capsys.readouterr().out
    assert f"{files['bad']}:{MISSING}" in out and f"{files['bad']}:{WEIGHT}" in out


@pytest.mark.parametrize("name", ["score", "score-fine", "compare", "agree", "report", "project new"])
def test_skip_bad_lines_goes_on_and_says_so(files, capsys, name: str) -> None:
    rc = main(_commands(files)[name] + ["--skip-bad-lines"])
    out = capsys.readouterr()
    assert rc == 0, out.err
    assert "skipped 2 line(s) with problems (--skip-bad-lines), the first at " \
           f"{files['bad']}:10:28, {files['bad']}:11:19" in out.err


def test_skipping_gives_the_figure_of_the_good_lines(files, capsys) -> None:
    """With --skip-bad-lines the figure is the one of the clean file (the 9 good lines)."""
    clean = files["dir"] / "clean.key"
    clean.write_text(GOOD + "bank.n bank.n.9 bank%1\n")
    assert main(["score", "--gold", str(files["bad"]), "--system", str(files["ans"]), "--skip-bad-lines",
                 "--format", "json"]) == 0
    skipped = capsys.readouterr().out
    assert main(["score", "--gold", str(clean), "--system", str(files["ans"]), "--format", "json"]) == 0
    assert capsys.readouterr().out == skipped.replace("badkey", "clean")


def test_clean_files_say_nothing(files, capsys) -> None:
    assert main(["score", "--gold", str(files["ans"]), "--system", str(files["other"])]) == 0
    assert capsys.readouterr().err == ""


def test_duplicate_answers_count_as_dropped_lines(tmp_path: Path, capsys) -> None:
    key = tmp_path / "dup.key"
    key.write_text("bank.n 1 bank%1\nbank.n 1 bank%2\n")
    ans = tmp_path / "a.ans"
    ans.write_text("bank.n 1 bank%1\n")
    assert main(["score", "--gold", str(key), "--system", str(ans)]) == 1
    err = capsys.readouterr().err
    assert f"{key}:2: duplicate answer for instance '1'" in err


def test_many_bad_lines_end_with_and_n_more(tmp_path: Path, capsys) -> None:
    key = tmp_path / "many.key"
    key.write_text("bank.n 1 bank%1\n" + "junk\n" * 70)
    ans = tmp_path / "a.ans"
    ans.write_text("bank.n 1 bank%1\n")
    assert main(["agree", "--annotations", str(key), "--annotations", str(ans)]) == 1
    err = capsys.readouterr().err
    assert "70 line(s) with problems" in err and "and 65 more" in err  # 5 shown, also past the cap of 50


def test_reimport_of_a_file_with_bad_lines(files, capsys) -> None:
    proj = files["dir"] / "p.hadj"
    assert main(["project", "new", str(proj), "--annotations", f"k={files['ans']}",
                 "--annotations", str(files["other"])]) == 0
    capsys.readouterr()
    assert main(["project", "reimport", str(proj), "k", str(files["bad"])]) == 1
    err = capsys.readouterr().err
    assert f"{files['bad']}:{WEIGHT}" in err
    assert main(["project", "reimport", str(proj), "k", str(files["bad"]), "--skip-bad-lines"]) == 0
    assert "skipped 2 line(s)" in capsys.readouterr().err


def test_the_issues_key_on_real_data(tmp_path: Path, capsys) -> None:
    """The issue's example: EnglishLS.test.key with the two bad lines appended (3945, 3946)."""
    data = skip_without_realdata("senseval3") / "senseval3"
    bad = tmp_path / "badkey.key"
    bad.write_text((data / "EnglishLS.test.key").read_text() + BAD_LINES)
    tmp26 = data / "answers" / "tmp26"
    for argv in (["score", "--gold", str(bad), "--system", str(tmp26)],
                 ["agree", "--annotations", str(bad), "--annotations", str(tmp26)],
                 ["project", "new", str(tmp_path / "p.hadj"), "--annotations", str(bad)]):
        assert main(argv) == 1
        err = capsys.readouterr().err
        assert f"{bad}:3946:19: non-numeric weight 'abc'" in err
        assert f"{bad}:3945:28: missing fields" in err
