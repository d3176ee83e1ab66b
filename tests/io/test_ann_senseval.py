"""Senseval key/answer files: inline examples of the format and of every error."""

from __future__ import annotations

import gzip

import pytest

from hieradjudicate.core.errors import FormatError
from hieradjudicate.io.annotations.build import weight_problem
from hieradjudicate.io.annotations.read import read_annotations
from tests.io.ann_helpers import check_invariants, fails, read, rows

KEY = "art.n art.n.1 art%1:06:00::\nart.n art.n.2 U\nbank.n bank.n.1 1 2 3\n"


def test_key_reads_as_one_set_named_after_the_file(tmp_path):
    src = read(tmp_path, "gold.key", KEY)
    check_invariants(src)
    assert src.format == "senseval"
    assert src.set_names == ["gold"]
    assert rows(src) == [
        ("gold", "art.n", "art.n.1", "art%1:06:00::", None, 1),
        ("gold", "art.n", "art.n.2", "U", None, 2),
        ("gold", "bank.n", "bank.n.1", "1", None, 3),
        ("gold", "bank.n", "bank.n.1", "2", None, 3),
        ("gold", "bank.n", "bank.n.1", "3", None, 3),
    ]
    assert src.problems == [] and src.skipped_lines == 0 and src.duplicates == 0


def test_name_overrides_the_file_name_and_gz_extension_is_dropped(tmp_path):
    src = read(tmp_path, "sys.ans.gz", gzip.compress(KEY.encode()))
    assert src.set_names == ["sys"]
    assert read(tmp_path, "x.txt", KEY, name="A").set_names == ["A"]


def test_weights_partial_weights_and_duplicate_tags(tmp_path):
    src = read(tmp_path, "a.txt", "w w.1 a/0.6 b/0.4\nw w.2 a/0.6 b\nw w.3 a/1 a/1\nw w.4 c/.5e1\n")
    check_invariants(src)
    got = [(r[2], r[3], r[4]) for r in rows(src)]
    assert got == [("w.1", "a", 0.6), ("w.1", "b", 0.4),
                   ("w.2", "a", None), ("w.2", "b", None),  # one tag lacks a weight: all unweighted
                   ("w.3", "a", 1.0), ("w.3", "a", 1.0),  # duplicate tags kept, scorer2 scores each
                   ("w.4", "c", 5.0)]
    assert src.tags == ["a", "b", "c"]


def test_tags_are_kept_exactly(tmp_path):
    src = read(tmp_path, "a.txt", "w w.1 Art%1:06:00:: art%1:06:00:: a/b/0.5\n")
    assert [r[3] for r in rows(src)] == ["Art%1:06:00::", "art%1:06:00::", "a/b"]


def test_comments_crlf_bom_blank_and_comment_lines(tmp_path):
    text = "\ufeffw w.1 a !! first, one\r\n\r\n!! a comment line\r\n   \r\nw w.2 b/1 !!\r\nw w.3 c !!x y\r\n"
    src = read(tmp_path, "a.txt", text)
    check_invariants(src)
    assert [(r[2], r[3], r[5]) for r in rows(src)] == [("w.1", "a", 1), ("w.2", "b", 5), ("w.3", "c", 6)]
    assert src.comments == {0: "first, one", 2: "x y"}
    assert src.problems == [] and src.skipped_lines == 0


def test_irregular_spacing_and_tabs_take_the_careful_path(tmp_path):
    src = read(tmp_path, "a.txt", "w  w.1   a\t b \n w w.2 c\nw w.3 d\n")
    check_invariants(src)
    assert [(r[2], r[3], r[5]) for r in rows(src)] == [
        ("w.1", "a", 1), ("w.1", "b", 1), ("w.2", "c", 2), ("w.3", "d", 3)]


def test_duplicate_instance_lines_first_wins(tmp_path):
    src = read(tmp_path, "a.txt", "w w.1 a\nw w.2 b\nw w.1 c\nw w.1 d\n")
    check_invariants(src)
    assert [(r[2], r[3]) for r in rows(src)] == [("w.1", "a"), ("w.2", "b")]
    assert src.duplicates == 2
    warns = [p for p in src.problems if p.severity == "warning"]
    assert [(p.line, p.severity) for p in warns] == [(3, "warning"), (4, "warning")]
    assert "line 1" in warns[0].message and "w.1" in warns[0].message
    assert "expected one answer per instance" in warns[0].message


def test_missing_fields_are_errors_and_the_line_is_skipped(tmp_path):
    src = read(tmp_path, "a.txt", "w w.1 a\nw w.2\nw\nw w.3 !! no tag\nw w.4 b\n")
    check_invariants(src)
    assert [r[2] for r in rows(src)] == ["w.1", "w.4"]
    errs = src.problems
    assert [(p.line, p.severity) for p in errs] == [(2, "error"), (3, "error"), (4, "error")]
    assert all("missing fields" in p.message and "expected 'lexelt instance_id tag" in p.message
               for p in errs)
    assert "no tag" in errs[0].message
    assert src.skipped_lines == 3
    assert str(errs[0]).startswith(f"{tmp_path / 'a.txt'}:2:")


def test_bad_weights_name_line_and_column(tmp_path):
    text = "w w.1 a/x\nw w.2 a/-1\nw w.3 a/nan\nw w.4 a/inf\nw w.5 a/1e999\nw w.6 a/\nw w.7 /1\nw w.8 b/1\n"
    src = read(tmp_path, "a.txt", text)
    check_invariants(src)
    assert [r[2] for r in rows(src)] == ["w.8"]
    by_line = {p.line: p for p in src.problems}
    assert sorted(by_line) == [1, 2, 3, 4, 5, 6, 7]
    assert "non-numeric" in by_line[1].message and by_line[1].column == 9
    assert "negative" in by_line[2].message
    assert "NaN" in by_line[3].message
    assert "infinite" in by_line[4].message and "infinite" in by_line[5].message
    assert "empty weight" in by_line[6].message
    assert "empty tag" in by_line[7].message and by_line[7].column == 7
    assert all("expected" in p.message for p in src.problems)
    assert src.skipped_lines == 7


def test_first_valid_line_counts_after_a_rejected_one(tmp_path):
    src = read(tmp_path, "a.txt", "w w.1 a/x\nw w.1 b\n")
    assert [(r[2], r[3], r[5]) for r in rows(src)] == [("w.1", "b", 2)]
    assert src.duplicates == 0


def test_error_cap_still_counts_everything(tmp_path):
    text = "w w.0 ok\n" + "".join(f"w w.{i}\n" for i in range(1, 121))
    src = read(tmp_path, "a.txt", text)
    assert len([p for p in src.problems if p.severity == "error"]) == 50
    assert src.skipped_lines == 120


def test_nothing_valid_raises_format_error_with_all_problems(tmp_path):
    err = fails(tmp_path, "a.txt", "w w.1\nw w.2 a/-3\n")
    assert "no annotation could be read as senseval" in str(err)
    lines = [p.line for p in err.problems]
    assert 1 in lines and 2 in lines


def test_empty_binary_and_bad_encoding(tmp_path):
    assert "empty" in str(fails(tmp_path, "e.txt", ""))
    assert "empty" in str(fails(tmp_path, "b.txt", "\n\n  \n"))
    assert "binary" in str(fails(tmp_path, "g.bin", bytes(range(256)) * 20))
    err = fails(tmp_path, "l.txt", "w w.1 a\nw w.2 caf\xe9\n".encode("latin-1"))
    assert err.problems[0].line == 2 and "UTF-8" in err.problems[0].message
    assert "UTF-16" in str(fails(tmp_path, "u.txt", "w w.1 a\n".encode("utf-16")))
    assert "gzip" in str(fails(tmp_path, "t.gz", gzip.compress(KEY.encode())[:30]))
    with pytest.raises(FormatError, match="not found"):
        read_annotations(tmp_path / "missing.txt")


def test_truncated_last_line(tmp_path):
    src = read(tmp_path, "a.txt", "w w.1 a\nw w.2 b/0.5\nw w.3")
    assert [r[2] for r in rows(src)] == ["w.1", "w.2"]
    assert src.problems[0].line == 3 and "missing fields" in src.problems[0].message


def test_unicode_and_non_ascii_whitespace(tmp_path):
    src = read(tmp_path, "a.txt", "café.n café.n.1 sens\u00e9\nw w.2 a\u00a0b\n")
    assert [(r[1], r[3]) for r in rows(src)] == [("café.n", "sensé"), ("w", "a"), ("w", "b")]


def test_same_instance_under_another_lexelt_is_another_item(tmp_path):
    src = read(tmp_path, "a.txt", "a.n 1 x\nb.n 1 y\na.n 1 z\n")
    assert [(r[1], r[2], r[3]) for r in rows(src)] == [("a.n", "1", "x"), ("b.n", "1", "y")]
    assert src.duplicates == 1


def test_weight_problem_accepts_plain_numbers_only():
    assert weight_problem("0.5") is None and weight_problem("3") is None and weight_problem("1e-3") is None
    for bad in ("1_0", "0x1", "", " ", "one", "--1", "1.2.3"):
        assert weight_problem(bad) is not None, bad


def test_a_file_with_no_annotation_says_what_was_expected_once(tmp_path):
    from hieradjudicate.core.errors import FormatError
    from hieradjudicate.io.annotations.read import read_annotations

    p = tmp_path / "only_comments.key"
    p.write_text("!! nothing but a comment\n")
    with pytest.raises(FormatError) as err:
        read_annotations(p)
    text = str(err.value)
    assert "expected 'lexelt instance_id tag[/weight] ... [!! comment]' lines" in text
    assert "expected expected" not in text
