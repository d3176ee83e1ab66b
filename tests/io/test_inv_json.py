"""JSON inventories."""

from __future__ import annotations

import json

import pytest

from hieradjudicate.core.errors import FormatError, InventoryError
from hieradjudicate.io.inventories.read import read_inventory

FIG1 = {"lexelts": {
    "fig.n": [
        {"id": "A", "gloss": "group", "children": [
            {"id": "A.1", "weight": 3, "children": [{"id": "A.1a"}, {"id": "A.1b"}]},
            {"id": "A.2", "weight": 1}]},
        {"id": "B", "branching": 4, "aliases": ["b%1:00:00::"],
         "children": [{"id": "B.1"}, {"id": "B.2"}, {"id": "B.3"}]},
    ],
    "other.v": [{"id": 7}],
}}


def write(tmp_path, text, name="inv.json"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_reads_nested_nodes_in_document_order(tmp_path):
    src = read_inventory(write(tmp_path, json.dumps(FIG1, indent=2), "inv.dat"))
    assert src.format == "json"
    got = [(r.lexelt, r.sense, r.parent) for r in src.senses]
    assert got == [("fig.n", "A", None), ("fig.n", "A.1", "A"), ("fig.n", "A.1a", "A.1"),
                   ("fig.n", "A.1b", "A.1"), ("fig.n", "A.2", "A"), ("fig.n", "B", None),
                   ("fig.n", "B.1", "B"), ("fig.n", "B.2", "B"), ("fig.n", "B.3", "B"),
                   ("other.v", "7", None)]
    rec = {r.sense: r for r in src.senses}
    assert rec["A.1"].weight == 3.0 and rec["B"].branching == 4
    assert rec["B"].aliases == ("b%1:00:00::",) and rec["A"].gloss == "group"
    assert rec["A"].line == 5 and rec["A.1b"].line is not None
    assert src.problems == []


def test_syntax_error_has_line_and_column(tmp_path):
    text = '{"lexelts": {\n  "a.n": [\n    {"id": "1",}\n  ]}}'
    with pytest.raises(FormatError) as ei:
        read_inventory(write(tmp_path, text))
    (p,) = ei.value.problems
    assert p.line == 3 and p.column == 16 and "invalid JSON" in p.message


@pytest.mark.parametrize("data, expected", [
    ([], "top level is list"),
    ({"senses": []}, "no 'lexelts' key"),
    ({"lexelts": []}, "'lexelts' holding a list"),
])
def test_wrong_top_level(tmp_path, data, expected):
    with pytest.raises(FormatError) as ei:
        read_inventory(write(tmp_path, json.dumps(data)))
    assert expected in str(ei.value) and '{"lexelts"' in str(ei.value)


def test_wrong_shapes_are_reported_with_paths(tmp_path):
    data = {"lexelts": {
        "a.n": [{"id": "1", "weight": -2, "branching": 1.5, "gloss": 3, "colour": "red",
                 "children": {"id": "x"}},
                "just a string", {"gloss": "no id"}, {"id": "2"}],
        "b.n": {"id": "1"},
    }}
    src = read_inventory(write(tmp_path, json.dumps(data, indent=1)))
    msgs = [str(p) for p in src.problems]
    joined = "\n".join(msgs)
    assert 'lexelts["a.n"][0].weight -2 is not allowed; expected a positive finite number' in joined
    assert 'lexelts["a.n"][0].branching 1.5 is not allowed' in joined
    assert 'lexelts["a.n"][0].gloss is a number; expected a string' in joined
    assert "unknown key(s) colour" in joined
    assert 'lexelts["a.n"][0].children is a object' in joined or "children is a" in joined
    assert 'lexelts["a.n"][1] is a string; expected an object' in joined
    assert 'lexelts["a.n"][2].id is missing' in joined
    assert 'lexelts["b.n"] is a object; expected a list' in joined or 'lexelts["b.n"] is a' in joined
    assert [r.sense for r in src.senses] == ["1", "2"]
    weight_msg = next(p for p in src.problems if ".weight" in p.message)
    assert weight_msg.line == 5


def test_duplicates_and_branching_are_inventory_errors(tmp_path):
    data = {"lexelts": {"a.n": [
        {"id": "1", "branching": 1, "children": [{"id": "x"}, {"id": "y"}]},
        {"id": "x"}]}}
    with pytest.raises(InventoryError) as ei:
        read_inventory(write(tmp_path, json.dumps(data, indent=2)))
    msgs = [p.message for p in ei.value.problems]
    assert any("duplicate sense id 'x'" in m for m in msgs)
    assert any("smaller than its 2 listed children" in m for m in msgs)
    dup = next(p for p in ei.value.problems if "duplicate" in p.message)
    assert dup.line == 17  # the second "id": "x", found in document order


def test_deep_nesting_is_a_format_error_or_read(tmp_path):
    deep = '{"lexelts": {"a.n": [' + '{"id": "x", "children": [' * 5000 + "]}" * 5000 + "]}}"
    try:
        read_inventory(write(tmp_path, deep))
    except FormatError:
        pass


def test_nan_weight_and_huge_numbers(tmp_path):
    text = '{"lexelts": {"a.n": [{"id": "1", "weight": NaN}, {"id": "2", "weight": 1e999}, ' \
           '{"id": "3", "weight": ' + "9" * 400 + "}]}}"
    src = read_inventory(write(tmp_path, text))
    assert sum("weight" in p.message for p in src.problems) == 3
    assert all(r.weight is None for r in src.senses)
