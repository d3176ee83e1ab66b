"""Instance contexts: Senseval XML, tables, the WSbest uses table."""

from __future__ import annotations

import gzip

import pytest

from hieradjudicate.core.errors import FormatError
from hieradjudicate.io.contexts.read import read_contexts, split_head, tidy

XML = """<corpus lang="english">
<lexelt item="art.n">
<instance id="art.n.1" docsrc="BNC">
<context>
Modern   <head>art</head> ,  &amp; old
  paintings .
</context>
</instance>
<instance id="art.n.2" docsrc="BNC"><context><head> arts </head> first</context></instance>
</lexelt>
<lexelt item="bank.n">
<instance id="bank.n.1" docsrc="BNC">
<context>
the river <head>bank</head>
</context>
</instance>
</lexelt>
</corpus>
"""


def write(tmp_path, text, name="ctx.xml"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def word(c):
    return c.text[c.head[0]:c.head[1]]


def test_tidy_moves_spaces_out_of_head():
    assert tidy(["a  ", " b ", "\n c"], 1) == ("a b c", (2, 3))
    assert tidy([" ", "x", ""], 1) == ("x", (0, 1))
    assert tidy(["a ", "  ", " c"], 1) == ("a c", None)


def test_split_head_counts_heads():
    text, head, n = split_head("x <head>y</head> z <head>w</head>")
    assert (text, head, n) == ("x y z w", (2, 3), 2)


def test_senseval_xml(tmp_path):
    src = read_contexts(write(tmp_path, XML, "test.txt"))
    assert src.format == "senseval-xml"
    assert [(c.lexelt, c.instance, c.line) for c in src.contexts] == [
        ("art.n", "art.n.1", 3), ("art.n", "art.n.2", 9), ("bank.n", "bank.n.1", 12)]
    c = src.contexts[0]
    assert c.text == "Modern art , & old paintings ."
    assert c.head == (7, 10) and word(c) == "art"
    assert word(src.contexts[1]) == "arts" and src.contexts[1].head[0] == 0
    assert word(src.contexts[2]) == "bank" and src.contexts[2].text == "the river bank"
    assert src.problems == []


def test_xml_problems(tmp_path):
    text = ("<lexelt item=\"a.n\">\n"
            "<instance id=\"1\"><context>no head here</context></instance>\n"
            "<instance id=\"2\"><context>x <head>y</head>\n"
            "<instance id=\"3\"><context>ok <head>z</head></context></instance>\n"
            "<instance id=\"3\"><context>dup <head>z</head></context></instance>\n"
            "</lexelt>\n"
            "<instance id=\"4\"><context>out <head>z</head></context></instance>\n")
    src = read_contexts(write(tmp_path, text))
    assert [c.instance for c in src.contexts] == ["1", "3"]
    assert src.contexts[0].head is None
    by_line = {}
    for p in src.problems:
        by_line.setdefault(p.line, []).append(p.message)
    assert any("no <head>" in m for m in by_line[2])
    assert any("'2' is not closed" in m for m in by_line[3])
    assert any("no complete <context>" in m for m in by_line[3])
    assert any("duplicate instance '3'" in m and "line 4" in m for m in by_line[5])
    assert any("outside a lexelt" in m for m in by_line[7])
    assert any("1 of 2 context(s) have no located target" in p.message for p in src.problems)


def test_table_with_head_tags_and_offsets(tmp_path):
    text = ("lexelt\tinstance\tcontext\n"
            "art.n\t1\tModern <head>art</head> here\n"
            "art.n\t2\tno mark\n")
    src = read_contexts(write(tmp_path, text, "c.tsv"))
    assert src.format == "table"
    assert word(src.contexts[0]) == "art" and src.contexts[1].head is None
    text = "lexelt,instance,context,start,end\nart.n,1,\"a  fine, art\",9,12\nart.n,2,xyz,2,9\n"
    src = read_contexts(write(tmp_path, text, "c.csv"))
    assert src.contexts[0].text == "a fine, art" and word(src.contexts[0]) == "art"
    assert src.contexts[1].head is None
    warn = next(p for p in src.problems if p.line == 3)
    assert "fall outside the context of 3 characters" in warn.message


def test_table_column_mapping_and_errors(tmp_path):
    text = "w\tid\tsent\nart.n\t1\tan <head>art</head>\n\t2\tx\nart.n\t1\tagain\n"
    src = read_contexts(write(tmp_path, text),
                        columns={"lexelt": "w", "instance": "id", "context": "sent"})
    assert [c.instance for c in src.contexts] == ["1"]
    msgs = {p.line: p.message for p in src.problems}
    assert "empty lexelt" in msgs[3] and "duplicate instance '1'" in msgs[4]
    with pytest.raises(FormatError, match="missing required column"):
        read_contexts(write(tmp_path, "a\tb\n1\t2\n"), format="table")


def test_wsbest_uses_offsets_into_escaped_text(tmp_path):
    raw = "Angas &amp; Moore Tickets can be ordered through us"
    start = raw.index("ordered")
    text = ("dataID\tcontext\tindices_target_token\tindices_target_sentence\tlemma\n"
            f"1022\t{raw}\t{start}:{start + 8}\t0:{len(raw)}\torder.v\n"
            f"1023\tshort\t9:99\t0:5\torder.v\n")
    p = tmp_path / "uses.tsv.gz"
    p.write_bytes(gzip.compress(text.encode()))
    src = read_contexts(p)
    assert src.format == "wsbest-uses"
    c = src.contexts[0]
    assert (c.lexelt, c.instance) == ("order.v", "1022")
    assert c.text.startswith("Angas & Moore") and word(c) == "ordered"
    assert src.contexts[1].head is None


def test_nothing_readable(tmp_path):
    with pytest.raises(FormatError):
        read_contexts(write(tmp_path, "<instance id='x'>\n"))
    with pytest.raises(FormatError, match="cannot tell the context format"):
        read_contexts(write(tmp_path, "just words\n"))
    with pytest.raises(FormatError, match="unknown context format"):
        read_contexts(write(tmp_path, XML), format="html")
