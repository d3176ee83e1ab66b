"""The hand-written indented outline."""

from __future__ import annotations

import pytest

from hieradjudicate.core.errors import FormatError, InventoryError
from hieradjudicate.io.inventories.outline import split_id_gloss
from hieradjudicate.io.inventories.read import read_inventory

FIG1 = """# Figure 1 of Melamed & Resnik
# lexelt fig.n
A: the first group
  A.1
    A.1a: leaf a
    A.1b: leaf b
  A.2: second

B
  B.1
  B.2
  B.3
# lexelt art.n
art%1:06:00::: the products of human creativity
"""


def write(tmp_path, text, name="inv.txt"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_reads_figure1(tmp_path):
    src = read_inventory(write(tmp_path, FIG1))
    assert src.format == "outline"
    got = [(r.lexelt, r.sense, r.parent, r.gloss) for r in src.senses]
    assert got == [
        ("fig.n", "A", None, "the first group"), ("fig.n", "A.1", "A", ""),
        ("fig.n", "A.1a", "A.1", "leaf a"), ("fig.n", "A.1b", "A.1", "leaf b"),
        ("fig.n", "A.2", "A", "second"), ("fig.n", "B", None, ""),
        ("fig.n", "B.1", "B", ""), ("fig.n", "B.2", "B", ""), ("fig.n", "B.3", "B", ""),
        ("art.n", "art%1:06:00::", None, "the products of human creativity"),
    ]
    assert src.problems == []
    assert src.senses[2].line == 5


@pytest.mark.parametrize("content, expected", [
    ("1: gloss: with colon", ("1", "gloss: with colon")),
    ("1:", ("1", "")),
    ("art%1:06:00::", ("art%1:06:00::", "")),
    ("art%1:06:00::: g", ("art%1:06:00::", "g")),
])
def test_split_id_gloss(content, expected):
    assert split_id_gloss(content) == expected


def test_odd_indentation_skips_line_and_subtree(tmp_path):
    text = "# lexelt a.n\nA\n   A.1\n      A.1a\n  A.2\n"
    src = read_inventory(write(tmp_path, text))
    assert [r.sense for r in src.senses] == ["A", "A.2"]
    errs = [p for p in src.problems if p.severity == "error"]
    assert errs[0].line == 3 and "3 spaces" in errs[0].message and "multiple of two" in errs[0].message
    assert errs[0].column == 4
    assert src.skipped_lines == 2


def test_level_jump(tmp_path):
    src = read_inventory(write(tmp_path, "# lexelt a.n\nA\n    A.1a\n"))
    (err,) = src.problems
    assert err.line == 3 and "jumps from level 0 to level 2" in err.message


def test_sense_before_lexelt(tmp_path):
    src = read_inventory(write(tmp_path, "# comment\nA: x\n# lexelt a.n\nB\n"))
    (err,) = src.problems
    assert err.line == 2 and "before any lexelt line" in err.message and "# lexelt NAME" in err.message


def test_tab_indentation(tmp_path):
    src = read_inventory(write(tmp_path, "# lexelt a.n\nA\n\tA.1\n"))
    assert src.problems[0].line == 3 and "tab" in src.problems[0].message


def test_duplicate_id_is_inventory_error(tmp_path):
    with pytest.raises(InventoryError) as ei:
        read_inventory(write(tmp_path, "# lexelt a.n\nA\n  x\nB\n  x\n# lexelt b.n\nx\n"))
    (p,) = ei.value.problems
    assert p.line == 5 and "duplicate sense id 'x'" in p.message and "line 3" in p.message


def test_only_lexelt_lines_is_format_error(tmp_path):
    with pytest.raises(FormatError, match="no senses"):
        read_inventory(write(tmp_path, "# lexelt a.n\n"))
