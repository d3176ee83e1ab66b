"""JSON Lines annotations: inline examples and errors."""

from __future__ import annotations

import json

from tests.io.ann_helpers import check_invariants, fails, read, rows


def line(**obj) -> str:
    return json.dumps(obj)


def test_jsonl_objects_strings_and_default_set(tmp_path):
    text = "\n".join([
        line(lexelt="art.n", instance="art.n.1", set="A", tags=[{"tag": "x", "weight": 0.7}, {"tag": "y", "weight": 0.3}]),
        line(lexelt="art.n", instance="art.n.1", set="B", tags=["x"]),
        line(lexelt="art.n", instance=2, tags=[{"tag": "z"}]),
        "",
    ])
    src = read(tmp_path, "ann.jsonl", text, name="S")
    check_invariants(src)
    assert src.format == "jsonl"
    assert rows(src) == [("A", "art.n", "art.n.1", "x", 0.7, 1), ("A", "art.n", "art.n.1", "y", 0.3, 1),
                         ("B", "art.n", "art.n.1", "x", None, 2), ("S", "art.n", "2", "z", None, 3)]


def test_jsonl_errors_name_the_line(tmp_path):
    good = line(lexelt="a", instance="1", set="A", tags=["x"])
    text = "\n".join([
        good,
        '{"lexelt": "a", "instance": "2", "tags": ["x"]',  # truncated
        line(lexelt="a", tags=["x"]),
        line(lexelt="a", instance="3", tags=[]),
        line(lexelt="a", instance="4", tags=[{"tag": "x", "weight": -1}]),
        line(lexelt="a", instance="5", tags=[{"tag": "x", "weight": "heavy"}]),
        '{"lexelt": "a", "instance": "6", "tags": [{"tag": "x", "weight": NaN}]}',
        '{"lexelt": "a", "instance": "7", "tags": [{"tag": "x", "weight": Infinity}]}',
        "[1, 2]",
        line(lexelt="a", instance="1", set="A", tags=["y"]),
        line(lexelt="a", instance="8", tags=[{"weight": 1}]),
    ])
    src = read(tmp_path, "a.jsonl", text)
    check_invariants(src)
    assert [r[2] for r in rows(src)] == ["1"]
    by = {p.line: p for p in src.problems}
    assert "invalid JSON" in by[2].message and by[2].column is not None
    assert "'instance'" in by[3].message
    assert "non-empty list" in by[4].message
    assert "negative" in by[5].message and "not a number" in by[6].message
    assert "NaN" in by[7].message and "infinite" in by[8].message
    assert "not an object" in by[9].message
    assert by[10].severity == "warning" and "line 1" in by[10].message
    assert "no tag string" in by[11].message
    assert all("expected" in p.message for p in src.problems)


def test_jsonl_nothing_valid(tmp_path):
    err = fails(tmp_path, "a.jsonl", "{\n")
    assert "no annotation could be read as jsonl" in str(err)
    assert any(p.line == 1 for p in err.problems)
