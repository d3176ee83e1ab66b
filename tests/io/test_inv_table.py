"""Tree tables: our own layout, column mapping, the node-id variant, validation."""

from __future__ import annotations

import gzip

import pytest

from hieradjudicate.core.errors import FormatError, InventoryError
from hieradjudicate.io.inventories.read import read_inventory

FIG1_TSV = (
    "lexelt\tsense\tparent\tgloss\tweight\tbranching\n"
    "fig.n\tA\t\tgroup A\t\t\n"
    "fig.n\tA.1\tA\t\t2\t\n"
    "fig.n\tA.1a\tA.1\tleaf\t\t\n"
    "fig.n\tA.1b\tA.1\tleaf\t\t\n"
    "fig.n\tA.2\tA\t\t1\t\n"
    "fig.n\tB\t\t\t\t4\n"
    "fig.n\tB.1\tB\t\t\t\n"
)


def write(tmp_path, text, name="tree.tsv"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_tsv_with_weights_and_branching(tmp_path):
    src = read_inventory(write(tmp_path, FIG1_TSV, "t.txt"))
    assert src.format == "tree-table"
    recs = {r.sense: r for r in src.senses}
    assert recs["A.1"].parent == "A" and recs["A.1"].weight == 2.0
    assert recs["A"].parent is None and recs["A"].gloss == "group A"
    assert recs["B"].branching == 4
    assert recs["A.1a"].line == 4
    assert src.problems == []


def test_csv_sniffed_with_quotes(tmp_path):
    text = 'lexelt,sense,parent,gloss\nbank.n,1,,"a slope, beside water"\nbank.n,1.1,1,x\n'
    src = read_inventory(write(tmp_path, text, "t.csv"))
    assert [(r.sense, r.parent, r.gloss) for r in src.senses] == [
        ("1", None, "a slope, beside water"), ("1.1", "1", "x")]


def test_semicolon_and_alias_column(tmp_path):
    text = "lexelt;sense;alias\nart.n;1;art%1:06:00::|art%1:06:01::\n"
    (rec,) = read_inventory(write(tmp_path, text)).senses
    assert rec.aliases == ("art%1:06:00::", "art%1:06:01::")


def test_column_mapping(tmp_path):
    text = "Word\tSenseId\tUp\tDef\nart.n\t1\t\tx\nart.n\t2\t1\ty\n"
    src = read_inventory(write(tmp_path, text), columns={
        "lexelt": "Word", "sense": "SenseId", "parent": "Up", "gloss": "Def"})
    assert [(r.sense, r.parent, r.gloss) for r in src.senses] == [("1", None, "x"), ("2", "1", "y")]


def test_mapping_names_missing_column(tmp_path):
    with pytest.raises(FormatError) as ei:
        read_inventory(write(tmp_path, "a\tb\nx\ty\n"), columns={"sense": "nope", "lexelt": "a"})
    msg = str(ei.value)
    assert "'nope'" in msg and "'a', 'b'" in msg and ":1:" in msg


def test_mapping_unknown_field(tmp_path):
    with pytest.raises(FormatError, match="unknown field 'colour'"):
        read_inventory(write(tmp_path, "a\tb\nx\ty\n"), columns={"colour": "a"})


def test_missing_required_column_says_what_exists(tmp_path):
    with pytest.raises(FormatError) as ei:
        read_inventory(write(tmp_path, "lexelt\tgloss\nart.n\tx\n"))
    msg = str(ei.value)
    assert "missing required column(s) 'sense'" in msg
    assert "'lexelt', 'gloss'" in msg and "expected columns lexelt, sense" in msg


def test_row_errors_are_reported_and_skipped(tmp_path):
    text = ("lexelt,sense,parent,weight,branching\n"
            "a.n,1,,,\n"
            ",2,,,\n"
            "a.n,3,,-1,\n"
            "a.n,4,,nan,\n"
            "a.n,5,,inf,0\n"
            "a.n,6,,1,x,extra\n"
            "a.n,has space,,,\n")
    src = read_inventory(write(tmp_path, text, "t.csv"))
    errs = {p.line: p for p in src.problems}
    assert "empty lexelt" in errs[3].message
    assert "'-1'" in errs[4].message and "positive finite number" in errs[4].message
    assert errs[4].column == 4
    assert "'nan'" in errs[5].message
    assert "expected 5 as in the header" in errs[7].message
    assert "contains spaces" in errs[8].message
    assert [r.sense for r in src.senses] == ["1", "3", "4", "5"]
    assert src.senses[1].weight is None
    assert src.skipped_lines == 3


@pytest.mark.parametrize("rows, expected", [
    ("a.n\t1\t\na.n\t1\t\n", "duplicate sense id '1'"),
    ("a.n\t1\tzz\n", "parent 'zz' of sense '1' does not exist"),
    ("a.n\t1\t2\na.n\t2\t1\n", "cycle in lexelt 'a.n'"),
    ("a.n\t1\t1\n", "cycle in lexelt 'a.n': 1 -> 1"),
])
def test_structural_errors(tmp_path, rows, expected):
    with pytest.raises(InventoryError) as ei:
        read_inventory(write(tmp_path, "lexelt\tsense\tparent\n" + rows))
    assert any(expected in p.message and p.line is not None for p in ei.value.problems), \
        [str(p) for p in ei.value.problems]


def test_branching_below_children(tmp_path):
    text = "lexelt\tsense\tparent\tbranching\na.n\tP\t\t1\na.n\tx\tP\t\na.n\ty\tP\t\n"
    with pytest.raises(InventoryError) as ei:
        read_inventory(write(tmp_path, text))
    (p,) = ei.value.problems
    assert p.line == 2 and "smaller than its 2 listed children" in p.message


def test_same_id_in_two_lexelts_is_fine(tmp_path):
    src = read_inventory(write(tmp_path, "lexelt\tsense\na.n\t1\nb.n\t1\n"))
    assert len(src.senses) == 2


NODES = ("node_id\tparent_id\tnode_type\twn_sense_key\tlabel\n"
         "add-v\t\tlemma\t\tadd-v\n"
         "add-v/verb.change\tadd-v\tlexfile\t\tverb.change\n"
         "add-v#1\tadd-v/verb.change\tsense\tadd%2:30:00::\tmake an addition\n"
         "add-v#0\tadd-v\tspecial\t\tnot clear\n"
         "order.v\t\tlemma\t\torder.v\n"
         "order%2:30:00::\torder.v\tsense\torder%2:30:00::\tbring order\n")


def test_node_variant(tmp_path):
    src = read_inventory(write(tmp_path, NODES))
    assert src.format == "tree-table"
    got = [(r.lexelt, r.sense, r.parent, r.aliases, r.gloss) for r in src.senses]
    assert got == [
        ("add-v", "verb.change", None, (), "verb.change"),
        ("add-v", "1", "verb.change", ("add%2:30:00::",), "make an addition"),
        ("add-v", "0", None, (), "not clear"),
        ("order.v", "order%2:30:00::", None, (), "bring order"),
    ]
    assert any("node_id" in p.message for p in src.problems)
    assert src.lexelt_pos == {"add-v": "v", "order.v": "v"}


def test_node_variant_errors(tmp_path):
    text = NODES + ("x#1\tnowhere\tsense\t\tlost\n"
                    "add-v#1\tadd-v\tsense\t\tagain\n"
                    "orphan\t\tsense\t\t\n"
                    "c1\tc2\tsense\t\t\nc2\tc1\tsense\t\t\n")
    with pytest.raises(InventoryError) as ei:
        read_inventory(write(tmp_path, text))
    msgs = {p.line: p.message for p in ei.value.problems}
    assert "parent 'nowhere' of node 'x#1' does not exist" in msgs[8]
    assert "duplicate node_id 'add-v#1' (first at line 4)" in msgs[9]
    assert "not a lemma node" in msgs[10]
    assert "cycle" in msgs[11]


def test_real_masc_tree(realdata):
    src = read_inventory(realdata / "masc_amt" / "inventory_tree.tsv")
    assert src.format == "tree-table"
    assert [p.severity for p in src.problems] == ["warning"]  # the variant note only
    lexelts = {r.lexelt for r in src.senses}
    assert len(lexelts) == 45 and "add-v" in lexelts
    rec = {(r.lexelt, r.sense): r for r in src.senses}
    four = rec[("add-v", "4")]
    assert four.parent == "verb.cognition" and four.aliases == ("add%2:31:00::",)
    assert four.gloss == "make an addition by combining numbers"
    assert rec[("add-v", "0")].parent is None
    assert all(r.parent is None or (r.lexelt, r.parent) in rec for r in src.senses)
    # every label the MASC workers gave (``worker:sense``) is a sense of its word
    with gzip.open(realdata / "masc_amt" / "masc_amt_labels_wide.tsv.gz", "rt") as fh:
        next(fh)
        used = {(f[0], lab.rpartition(":")[2]) for f in (ln.rstrip("\n").split("\t") for ln in fh)
                for lab in f[3].split(",")}
    assert len(used) > 400 and used <= set(rec)


def test_real_wsbest_tree(realdata):
    src = read_inventory(realdata / "wsbest" / "inventory_tree.tsv")
    rec = {(r.lexelt, r.sense): r for r in src.senses}
    assert len({r.lexelt for r in src.senses}) == 26
    acc = rec[("account.n", "account%1:10:03::")]
    assert acc.parent == "noun.communication" and acc.gloss
    # every tag the WSbest annotators used is a sense (directly or through an alias)
    known = {(r.lexelt, r.sense) for r in src.senses} | {
        (r.lexelt, a) for r in src.senses for a in r.aliases}
    lines = (realdata / "wsbest" / "wsbest_selected_senses_per_annotator.tsv").read_text()
    used = {(row.split("\t")[1], tag) for row in lines.splitlines()[1:] if row.strip()
            for tag in row.split("\t")[3].split(";") if tag}
    assert used and used <= known


def test_unbalanced_quote_is_visible(tmp_path):
    text = 'lexelt,sense,gloss\na.n,1,"unbalanced\na.n,2,x\na.n,3,y\n'
    src = read_inventory(write(tmp_path, text, "t.csv"))
    assert [r.sense for r in src.senses] == ["1"]
    (w,) = src.problems
    assert w.line == 2 and "runs to line" in w.message and "unbalanced quote" in w.message


def test_a_node_id_with_a_space_is_an_error_with_its_line(tmp_path):
    """Found by the fuzz test: the node-id form took ``o der%2:30:01::`` as a sense id."""
    p = tmp_path / "tree.tsv"
    p.write_text("node_id\tparent_id\tnode_type\tlabel\norder.v\t\tlemma\torder.v\n"
                 "order%2:30:00::\torder.v\tsense\tbring order\no der%2:30:01::\torder.v\tsense\tplace\n")
    src = read_inventory(p)
    errs = {pr.line: pr for pr in src.problems}
    assert "contains spaces" in errs[4].message and errs[4].column == 1
    assert [r.sense for r in src.senses] == ["order%2:30:00::"]
