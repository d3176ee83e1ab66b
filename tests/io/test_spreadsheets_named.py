"""A spreadsheet given where text or annotations were expected is named as one, with what to do:
before, an .xlsx given as annotations was 'no XMI document found; expected an .xmi file, a zip of .xmi
files ...' and as an inventory or contexts 'file looks binary' or 'control character 0x03'."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

import hieradjudicate
from hieradjudicate.cli.entry import main
from hieradjudicate.io.textfile import spreadsheet_kind

DEMO = Path(hieradjudicate.__file__).resolve().parent.parent / "resources" / "demo"


def _xlsx(path: Path) -> Path:
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("xl/workbook.xml", "<workbook/>")
        z.writestr("xl/worksheets/sheet1.xml", "<worksheet/>")
    return path


def _ods(path: Path) -> Path:
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        z.writestr("content.xml", "<office:document-content/>")
    return path


def test_office_files_are_told_apart_and_an_xmi_zip_is_none_of_them(tmp_path):
    assert spreadsheet_kind(_xlsx(tmp_path / "a.xlsx").read_bytes()) == "an Excel workbook (.xlsx)"
    assert spreadsheet_kind(_ods(tmp_path / "a.ods").read_bytes()) == "an OpenDocument spreadsheet (.ods)"
    assert spreadsheet_kind(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1...").startswith("an Excel 97-2003 workbook")
    with zipfile.ZipFile(tmp_path / "x.zip", "w") as z:
        z.writestr("TypeSystem.xml", "<typeSystemDescription/>")
        z.writestr("keyword/xl/doc.xmi", "<xmi:XMI/>")
    assert spreadsheet_kind((tmp_path / "x.zip").read_bytes()) is None
    assert spreadsheet_kind(b"bank.n bank.n.001 1\n") is None


@pytest.mark.parametrize("role", ["--annotations", "--inventory", "--contexts"])
def test_validate_names_a_spreadsheet_and_says_to_save_it_as_csv(tmp_path, capsys, role):
    sheet = _xlsx(tmp_path / "senses.xlsx")
    args = ["validate", role, str(sheet)]
    if role == "--contexts":
        args += ["--annotations", str(DEMO / "annotator_ann.key")]
    assert main(args) == 1
    out = capsys.readouterr().out
    assert "this is an Excel workbook (.xlsx), not" in out
    assert "save the sheet as CSV (UTF-8) or tab-separated text and give that file" in out
