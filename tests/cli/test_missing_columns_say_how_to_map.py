"""A table without the needed columns says how to map them where the user is: an inventory table names
--tree-columns (and the wizard's page), an annotation table says to rename its columns or map them in the
wizard. Before: 'or a column mapping' and "(or a 'columns' mapping)", naming no option (the command line
has none for annotation tables)."""

from __future__ import annotations

from hieradjudicate.cli.entry import main


def test_an_inventory_table_names_tree_columns(tmp_path, capsys):
    senses = tmp_path / "senses.tsv"
    senses.write_text("senseID\tdefinition\tlemma\norder%2:30:00::\tbring order to\torder.v\n")
    assert main(["validate", "--inventory", str(senses)]) == 1
    assert ("or a column mapping (--tree-columns FIELD=COLUMN,..., or the new-project wizard's column mapping "
            "page)") in capsys.readouterr().out
    assert main(["validate", "--inventory", str(senses), "--tree-columns",
                 "sense=senseID,gloss=definition,lexelt=lemma"]) == 0


def test_an_annotation_table_says_to_rename_or_map_in_the_wizard(tmp_path, capsys):
    table = tmp_path / "labels.csv"
    table.write_text("instance,annotator,tag\nbank.n.001,x,1.1\n")
    assert main(["validate", "--annotations", str(table)]) == 1
    out = capsys.readouterr().out
    assert "lacks the column(s) for lexelt; expected columns lexelt, instance, annotator, tag: rename its " \
           "columns, or map them on the new-project wizard's column mapping page" in out
    assert "'columns' mapping" not in out
