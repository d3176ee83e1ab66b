"""The Senseval dictionary, read tolerantly (not well-formed XML)."""

from __future__ import annotations

import pytest

from hieradjudicate.core.errors import FormatError, InventoryError
from hieradjudicate.io.inventories.read import read_inventory

SAMPLE = '''
<lexelt item="add.v">
<sense id="42601" source="ws" synset="add" gloss="to combine. "I added herbs" ; "He adds"."/>
<sense id="42605" source="ws" synset="add figure" gloss="to make (fol. by up). "His quitting doesn't add up""/>
</lexelt>

<lexelt item="art.n">
<sense id="art%1:06:00::" source="wn" synset="art fine_art " gloss="(the products of human creativity &amp; skill)"/>
<sense id="art%1:04:00::" source="wn" synset="art artistic_creation " gloss=""/>
</lexelt>
'''


def write(tmp_path, text, name="dict.xml"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_reads_senses_glosses_with_quotes(tmp_path):
    src = read_inventory(write(tmp_path, SAMPLE, "d.txt"))
    assert src.format == "senseval-dictionary"
    assert [(r.lexelt, r.sense, r.line) for r in src.senses] == [
        ("add.v", "42601", 3), ("add.v", "42605", 4),
        ("art.n", "art%1:06:00::", 8), ("art.n", "art%1:04:00::", 9)]
    g = {r.sense: r.gloss for r in src.senses}
    assert g["42601"] == 'to combine. "I added herbs" ; "He adds".'
    assert g["42605"] == 'to make (fol. by up). "His quitting doesn\'t add up"'
    assert g["art%1:06:00::"] == "(the products of human creativity & skill)"
    assert g["art%1:04:00::"] == "art artistic_creation"  # synset stands in for an empty gloss
    assert all(r.parent is None for r in src.senses)
    assert src.lexelt_pos == {"add.v": "v", "art.n": "n"}
    assert src.problems == []


def test_several_elements_on_one_line(tmp_path):
    text = '<lexelt item="a.n"><sense id="1" gloss="x"/><sense id="2" gloss="y"/></lexelt>\n'
    src = read_inventory(write(tmp_path, text))
    assert [(r.sense, r.gloss) for r in src.senses] == [("1", "x"), ("2", "y")]


def test_sense_outside_lexelt_and_unclosed_sense(tmp_path):
    text = ('<sense id="0" gloss="orphan"/>\n<lexelt item="a.n">\n<sense id="1" gloss="x"\n'
            '<sense id="2" gloss="y"/>\n</lexelt>\n')
    src = read_inventory(write(tmp_path, text))
    assert [r.sense for r in src.senses] == ["2"]
    errs = {p.line: p.message for p in src.problems}
    assert "outside a lexelt" in errs[1] and "<lexelt item" in errs[1]
    assert "not closed on its line" in errs[3]
    assert src.skipped_lines == 2


def test_unrecognised_line_and_missing_id(tmp_path):
    text = '<lexelt item="a.n">\nhello\n<sense gloss="no id"/>\n<sense id="1"/>\n</lexelt>\n'
    src = read_inventory(write(tmp_path, text))
    errs = {p.line: p.message for p in src.problems}
    assert "unrecognised line" in errs[2] and "expected" in errs[2]
    assert "without an id" in errs[3]
    assert [r.sense for r in src.senses] == ["1"]


def test_duplicate_id_is_an_inventory_error(tmp_path):
    text = '<lexelt item="a.n">\n<sense id="1" gloss="x"/>\n<sense id="1" gloss="y"/>\n</lexelt>\n'
    with pytest.raises(InventoryError) as ei:
        read_inventory(write(tmp_path, text))
    (p,) = ei.value.problems
    assert p.line == 3 and "duplicate sense id '1'" in p.message and "line 2" in p.message


def test_unclosed_lexelt_warns(tmp_path):
    src = read_inventory(write(tmp_path, '<lexelt item="a.n">\n<sense id="1" gloss="x"/>\n'))
    assert [p.severity for p in src.problems] == ["warning"]
    assert "not closed" in src.problems[0].message


def test_no_senses_is_a_format_error(tmp_path):
    with pytest.raises(FormatError):
        read_inventory(write(tmp_path, '<lexelt item="a.n">\n</lexelt>\n'))


def test_context_file_is_refused_as_inventory(tmp_path):
    text = '<lexelt item="a.n">\n<instance id="1"><context>x <head>a</head></context></instance>\n'
    with pytest.raises(FormatError, match="context file"):
        read_inventory(write(tmp_path, text))


def test_real_dictionary(realdata):
    src = read_inventory(realdata / "senseval3" / "EnglishLS.dictionary.xml")
    assert src.format == "senseval-dictionary"
    assert src.problems == [] and src.skipped_lines == 0
    lexelts = {r.lexelt for r in src.senses}
    assert len(lexelts) == 57 and len(src.senses) == 369
    assert all(r.gloss for r in src.senses)
    g = {(r.lexelt, r.sense): r.gloss for r in src.senses}
    assert g[("add.v", "42601")].endswith(
        '"I added herbs to the recipe" ; "He wants to add this stamp to his collection".')
    assert g[("add.v", "42605")].endswith('"His quitting doesn\'t add up"')
    assert g[("argument.n", "argument%1:10:00::")].startswith("(a discussion in which reasons")
    assert src.lexelt_pos["activate.v"] == "v" and src.lexelt_pos["argument.n"] == "n"
