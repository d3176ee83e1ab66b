"""Senseval sense maps: records as stated, contradictions and syntax errors reported."""

from __future__ import annotations

import pytest

from hieradjudicate.core.errors import FormatError, InventoryError
from hieradjudicate.io.inventories.read import detect_inventory_format, read_inventory


def write(tmp_path, text, name="map.sensemap"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_chain_gives_records_for_sense_and_ancestors(tmp_path):
    src = read_inventory(write(tmp_path, "a 2 g 3 top\nb 2 g 3 top\nc\n"))
    assert src.format == "senseval-sensemap"
    got = [(r.sense, r.parent, r.branching, r.line, r.lexelt) for r in src.senses]
    assert got == [
        ("a", "g", None, 1, None), ("g", "top", 2, 1, None), ("top", None, 3, 1, None),
        ("b", "g", None, 2, None), ("g", "top", 2, 2, None), ("top", None, 3, 2, None),
        ("c", None, None, 3, None),
    ]
    assert src.problems == []


def test_detected_without_extension(tmp_path):
    text = "38202 2 38204\n38201\n38203\n"
    assert detect_inventory_format(text, "x.txt") == "senseval-sensemap"
    assert read_inventory(write(tmp_path, text, "plain")).format == "senseval-sensemap"


def test_group_head_with_own_line_is_not_a_contradiction(tmp_path):
    src = read_inventory(write(tmp_path, "x 2 h\nh\n"))
    assert [r.sense for r in src.senses] == ["x", "h", "h"]


def test_two_parents_is_an_inventory_error(tmp_path):
    with pytest.raises(InventoryError) as ei:
        read_inventory(write(tmp_path, "a 2 p\nb 2 q\na2 2 p\nzz\nb 2 p\n"))
    msgs = [str(p) for p in ei.value.problems]
    assert any(":5:" in m and "'b'" in m and "parent 'q' at line 2" in m for m in msgs), msgs


def test_two_branching_factors_is_an_error(tmp_path):
    with pytest.raises(InventoryError) as ei:
        read_inventory(write(tmp_path, "a 2 p\nb 3 p\n"))
    (prob,) = ei.value.problems
    assert prob.line == 2 and "branching factor 3" in prob.message and "2 at line 1" in prob.message


def test_sense_twice_on_its_own_line(tmp_path):
    with pytest.raises(InventoryError) as ei:
        read_inventory(write(tmp_path, "a 2 p\nb\na 2 p 2 top\n"))
    assert any(p.line == 3 and "already has its own line (line 1)" in p.message
               for p in ei.value.problems)


def test_exact_repeat_is_a_warning_and_skipped(tmp_path):
    src = read_inventory(write(tmp_path, "a 2 p\nb 2 p\na 2 p\n"))
    assert src.skipped_lines == 1
    (w,) = src.problems
    assert w.severity == "warning" and w.line == 3 and "repeats line 1" in w.message
    assert len(src.senses) == 4


def test_branching_below_listed_members(tmp_path):
    with pytest.raises(InventoryError) as ei:
        read_inventory(write(tmp_path, "a 2 p\nb 2 p\nc 2 p\n"))
    assert any("smaller than its 3 listed members" in p.message for p in ei.value.problems)


def test_cycle(tmp_path):
    with pytest.raises(InventoryError) as ei:
        read_inventory(write(tmp_path, "a 2 b\nb 2 a\n"))
    assert any("cycle" in p.message for p in ei.value.problems)


@pytest.mark.parametrize("line, expected", [
    ("a x p", "branching factor 'x' is not an integer"),
    ("a 0 p", "branching factor '0' is not positive"),
    ("a -2 p", "branching factor '-2' is not positive"),
    ("a 2", "expected a sense id followed by pairs"),
    ("a 2 p 3", "expected a sense id followed by pairs"),
])
def test_syntax_errors_name_line_and_expectation(tmp_path, line, expected):
    src = read_inventory(write(tmp_path, f"ok1\n{line}\nok2 2 g\n"))
    errs = [p for p in src.problems if p.severity == "error"]
    assert len(errs) == 1 and errs[0].line == 2 and expected in errs[0].message
    assert src.skipped_lines == 1
    assert {r.sense for r in src.senses} == {"ok1", "ok2", "g"}


def test_column_of_bad_factor(tmp_path):
    src = read_inventory(write(tmp_path, "ok\nabc 2 p 2.5 q\n"))
    (err,) = src.problems
    assert err.column == 9 and "'2.5'" in err.message


def test_nothing_usable_raises_format_error(tmp_path):
    with pytest.raises(FormatError) as ei:
        read_inventory(write(tmp_path, "a b\nc d\n"), format="senseval-sensemap")
    assert len(ei.value.problems) == 2 and not isinstance(ei.value, InventoryError)


def test_crlf_bom_gzip(tmp_path):
    import gzip

    p = tmp_path / "m.gz"
    p.write_bytes(gzip.compress("\ufeffa 2 p\r\nb\r\n".encode("utf-8")))
    src = read_inventory(p, format="sensemap")
    assert [r.sense for r in src.senses] == ["a", "p", "b"]


def test_real_sensemap(realdata):
    path = realdata / "senseval3" / "EnglishLS.sensemap"
    lines = [ln.split() for ln in path.read_text().splitlines() if ln.strip()]
    src = read_inventory(path)
    assert src.format == "senseval-sensemap"
    assert len(lines) == 303
    assert len(src.senses) == sum(1 + (len(t) - 1) // 2 for t in lines) == 389
    assert src.problems == [] and src.skipped_lines == 0
    first = src.senses[0]
    assert (first.sense, first.parent) == ("38202", "38204")
    assert src.senses[1].sense == "38204" and src.senses[1].branching == 2
    heads = {r.sense: r.branching for r in src.senses if r.branching}
    assert heads["4636109"] == 5 and set(heads.values()) <= {2, 3, 4, 5}


def test_column_mapping_on_a_sensemap_is_reported(tmp_path):
    src = read_inventory(write(tmp_path, "a 2 p\n"), format="sensemap", columns={"sense": "x"})
    assert any("column mapping was ignored" in p.message for p in src.problems)


def test_unknown_format_name(tmp_path):
    with pytest.raises(FormatError, match="unknown inventory format 'xml'; expected one of"):
        read_inventory(write(tmp_path, "a\n"), format="xml")
