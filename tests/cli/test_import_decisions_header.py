"""``project import-decisions`` reads a spreadsheet's semicolon-separated CSV, and a header without the
needed columns is named in the refusal: before, a ';' file (Excel's CSV in many locales) was refused as
'missing column(s) lexelt, instance, tags' though it had all three, and no refusal said what header it read."""

from __future__ import annotations

from pathlib import Path

import pytest

import hieradjudicate
from hieradjudicate.cli.entry import main

DEMO = Path(hieradjudicate.__file__).resolve().parent.parent / "resources" / "demo"


@pytest.fixture
def project(ann_ben_project: Path) -> Path:
    return ann_ben_project


def test_a_semicolon_separated_decisions_file_is_read(project, tmp_path, capsys):
    f = tmp_path / "decisions.csv"
    f.write_text("lexelt;instance;tags;note\nbank.n;bank.n.001;1.1 2.2;\"money; or a river\"\n")
    assert main(["project", "import-decisions", str(project), str(f)]) == 0
    assert "imported 1 decision(s)" in capsys.readouterr().out
    assert main(["project", "history", str(project), "--format", "csv"]) == 0
    out = capsys.readouterr().out
    assert "bank.n.001" in out and "money; or a river" in out


def test_a_header_without_the_needed_columns_is_named(project, tmp_path, capsys):
    f = tmp_path / "decisions.csv"
    f.write_text("word,id,sense\nbank.n,bank.n.001,1.1\n")
    assert main(["project", "import-decisions", str(project), str(f)]) == 1
    assert "the header has 'word', 'id', 'sense'" in capsys.readouterr().err


def test_a_spreadsheet_is_named_and_saving_it_as_csv_suggested(project, tmp_path, capsys):
    """Before: 'not UTF-8 text (byte 10); save it as UTF-8' about an Excel workbook."""
    import zipfile

    sheet = tmp_path / "decisions.xlsx"
    with zipfile.ZipFile(sheet, "w") as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("xl/workbook.xml", "<workbook/>")
    assert main(["project", "import-decisions", str(project), str(sheet)]) == 1
    assert (f"{sheet}: this is an Excel workbook (.xlsx), not a CSV file; save the sheet as CSV (UTF-8)"
            in capsys.readouterr().err)
