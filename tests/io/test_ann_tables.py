"""Long and wide annotation tables (plain, WSbest, MASC packed): inline examples and errors."""

from __future__ import annotations

import gzip

from hieradjudicate.io.annotations.read import detect_annotation_format
from tests.io.ann_helpers import check_invariants, fails, read, rows

LONG = "lexelt,instance,annotator,tag,weight\nart.n,1,A,x,\nart.n,1,B,y,0.5\nart.n,1,A,z,\nart.n,2,B,x,1\n"


def test_long_table_one_set_per_annotator_blocks_contiguous(tmp_path):
    src = read(tmp_path, "long.csv", LONG)
    check_invariants(src)
    assert src.format == "long-table"
    assert src.set_names == ["A", "B"]
    assert rows(src) == [("A", "art.n", "1", "x", None, 2), ("A", "art.n", "1", "z", None, 4),
                         ("B", "art.n", "1", "y", 0.5, 3), ("B", "art.n", "2", "x", 1.0, 5)]
    assert src.duplicates == 0


def test_long_table_tsv_column_mapping_and_semicolon_tags(tmp_path):
    text = "Word\tID\tCoder\tSenses\nart.n\t7\tA\tx;y\nart.n\t8\tA\tx\n"
    cols = {"lexelt": "word", "instance": "ID", "annotator": "Coder", "tag": "Senses"}
    src = read(tmp_path, "t.tsv", text, columns=cols)
    check_invariants(src)
    assert src.format == "long-table"
    assert [(r[2], r[3]) for r in rows(src)] == [("7", "x"), ("7", "y"), ("8", "x")]


def test_long_table_semicolon_delimiter_is_sniffed(tmp_path):
    src = read(tmp_path, "t.csv", "lexelt;instance;annotator;tag\na;1;A;x\n")
    assert rows(src) == [("A", "a", "1", "x", None, 2)]


def test_long_table_errors_name_line_and_expectation(tmp_path):
    text = ("lexelt,instance,annotator,tag,weight\na,1,A,x,0.3\na,2,A\na,3,,x,\na,4,A,x,-2\n"
            "a,5,A,x,abc\na,6,A,x,nan\na,7,A,,\n")
    src = read(tmp_path, "t.csv", text)
    check_invariants(src)
    assert [r[2] for r in rows(src)] == ["1"]
    by = {p.line: p.message for p in src.problems}
    assert "expected 5" in by[3]
    assert "empty annotator" in by[4] and "expected a value" in by[4]
    assert "negative" in by[5] and "'weight'" in by[5]
    assert "non-numeric" in by[6] and "NaN" in by[7]
    assert "empty tag" in by[8]
    assert src.skipped_lines == 6


def test_long_table_header_without_required_column(tmp_path):
    err = fails(tmp_path, "t.csv", "lexelt,instance,tag\na,1,x\n", format="long-table")
    assert err.problems[0].line == 1 and "annotator" in str(err) and "expected columns" in str(err)
    err = fails(tmp_path, "t.csv", "a,b,c\n1,2,3\n", columns={"lexelt": "nope", "instance": "b"})
    assert "'nope'" in str(err)


def test_wsbest_variant_detected(tmp_path):
    text = ("item_id\tlemma\tannotator_id\tselected_sense_keys\n1151\taccount.n\tA\tk1\n"
            "1151\taccount.n\tC\tk0;k1\n")
    src = read(tmp_path, "w.tsv", text)
    check_invariants(src)
    assert src.format == "wsbest"
    assert rows(src) == [("A", "account.n", "1151", "k1", None, 2),
                         ("C", "account.n", "1151", "k0", None, 3), ("C", "account.n", "1151", "k1", None, 3)]


def test_wide_table_cells_with_several_tags_and_empty_cells(tmp_path):
    text = "lexelt,instance,A,B,C\nart.n,1,x,\"y;z\",\nart.n,2,,x,\"x, y\"\nart.n,3\n"
    src = read(tmp_path, "wide.csv", text)
    check_invariants(src)
    assert src.format == "wide-table"
    assert src.set_names == ["A", "B", "C"]
    assert [(r[0], r[2], r[3]) for r in rows(src)] == [
        ("A", "1", "x"), ("B", "1", "y"), ("B", "1", "z"), ("B", "2", "x"), ("C", "2", "x"), ("C", "2", "y")]


def test_wide_table_errors(tmp_path):
    src = read(tmp_path, "wide.tsv", "lexelt\tinstance\tA\na\t1\tx\n\t2\tx\na\t3\tx\ty\n")
    assert [r[2] for r in rows(src)] == ["1"]
    by = {p.line: p.message for p in src.problems}
    assert "lexelt" in by[3] and "expected" in by[3]
    assert "expected at most 3" in by[4]


def test_wide_table_duplicate_instance_row_first_wins(tmp_path):
    src = read(tmp_path, "wide.tsv", "lexelt\tinstance\tA\tB\na\t1\tx\t\na\t1\ty\tz\n")
    assert [(r[0], r[3]) for r in rows(src)] == [("A", "x"), ("B", "z")]
    assert src.duplicates == 1
    assert src.problems[0].line == 3 and "line 2" in src.problems[0].message


MASC = ("word_pos\tform_id\tsentence_id\tlabels\n"
        "add-v\t2\t1\t1:4,3:4,4:1\n"
        "add-v\t3\t1\t1:0,5:2\n"
        "ask-v\t2\t1\t1:1\n")


def test_masc_packed_instance_ids_need_the_form(tmp_path):
    src = read(tmp_path, "m.tsv.gz", gzip.compress(MASC.encode()))
    check_invariants(src)
    assert src.format == "masc"
    assert src.set_names == ["1", "3", "4", "5"]
    assert list(zip(src.item_lexelt, src.item_instance)) == [("add-v", "2.1"), ("add-v", "3.1"), ("ask-v", "2.1")]
    assert rows(src)[:3] == [("1", "add-v", "2.1", "4", None, 2), ("3", "add-v", "2.1", "4", None, 2),
                             ("4", "add-v", "2.1", "1", None, 2)]
    assert src.n_labels == 6


def test_masc_sentence_id_alone_when_unique_within_word(tmp_path):
    text = "word_pos\tform_id\tsentence_id\tlabels\nadd-v\t2\t1\t1:4\nadd-v\t3\t2\t1:0\n"
    assert read(tmp_path, "m.tsv", text).item_instance == ["1", "2"]


def test_masc_damaged_cells_and_duplicate_worker(tmp_path):
    text = ("word_pos\tform_id\tsentence_id\tlabels\nadd-v\t2\t1\t1:4,3\nadd-v\t2\t2\t1:4,1:5\n"
            "add-v\t2\t3\t1:4, :2\nadd-v\t2\t4\t\n")
    src = read(tmp_path, "m.tsv", text)
    check_invariants(src)
    assert [(r[0], r[2], r[3]) for r in rows(src)] == [("1", "2", "4"), ("1", "3", "4")]
    by = {p.line: p for p in src.problems}
    assert "pair 2 '3'" in by[2].message and "expected worker:tag" in by[2].message
    assert by[3].severity == "warning" and src.duplicates == 1
    assert "empty worker" in by[4].message


def test_packed_wide_table_through_the_column_mapping(tmp_path):
    text = "w,id,all\nadd-v,7,\"a:1,b:2\"\n"
    src = read(tmp_path, "p.csv", text, columns={"lexelt": "w", "instance": "id", "labels": "all"})
    assert src.format == "wide-table"
    assert [(r[0], r[2], r[3]) for r in rows(src)] == [("a", "7", "1"), ("b", "7", "2")]


def test_detection_rules():
    assert detect_annotation_format("a.n a.n.1 x\n", "k.txt") == "senseval"
    assert detect_annotation_format("\n{\"lexelt\": 1}\n", "x") == "jsonl"
    assert detect_annotation_format("lexelt,instance,annotator,tag\n", "x") == "long-table"
    assert detect_annotation_format("lexelt\tinstance\tA\tB\n", "x") == "wide-table"
    assert detect_annotation_format("item_id\tlemma\tannotator_id\tselected_sense_keys\n", "x") == "wsbest"
    assert detect_annotation_format("word_pos\tform_id\tsentence_id\tlabels\n", "x") == "masc"
    assert detect_annotation_format("a.n a.n.1 x, y\n", "k.txt") == "senseval"


def test_unknown_format_argument_is_a_format_error(tmp_path):
    assert "unknown annotation format" in str(fails(tmp_path, "a.txt", "a b c\n", format="xml"))


def test_table_with_header_only_raises(tmp_path):
    err = fails(tmp_path, "t.csv", "lexelt,instance,annotator,tag\n")
    assert "no annotation could be read as long-table" in str(err)
