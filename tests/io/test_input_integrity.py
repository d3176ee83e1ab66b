"""#22 item 6: inputs that still got through -- memory bombs, lying zips, damaged WordNet folders,
impossible spans, validate against project new, control characters, ``;`` in sense ids."""

from __future__ import annotations

import gzip
import io
import json
import shutil
import struct
import zipfile
from pathlib import Path

import pytest

from hieradjudicate.cli.entry import main
from hieradjudicate.core.errors import FormatError, ProblemLog
from tests.conftest import skip_without_realdata

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "resources" / "demo"


# ------------------------------------------------------------------ JSON
def _parse_labelstudio(text: str):
    from hieradjudicate.io.annotations.tools.labelstudio import parse_labelstudio

    return parse_labelstudio(text, ProblemLog("tasks.json"))


def test_a_json_document_with_too_many_values_is_refused_before_parsing(monkeypatch) -> None:
    """A 1.7 MB .json.gz of empty objects reached 4.5 GB: values are counted before parsing."""
    monkeypatch.setenv("HIERADJ_MAX_JSON_VALUES", "1000")
    with pytest.raises(FormatError, match=r"tasks.json:1:1: .*up to 4,00\d JSON values, more than the 1,000"):
        _parse_labelstudio("[" + "{}," * 2000 + "{}]")


def test_the_json_limit_applies_to_a_gzip_inventory(tmp_path: Path, monkeypatch) -> None:
    from hieradjudicate.io.inventories.read import read_inventory

    monkeypatch.setenv("HIERADJ_MAX_JSON_VALUES", "1000")
    path = tmp_path / "inv.json.gz"
    path.write_bytes(gzip.compress(('{"lexelts": {"a.n": [' + '{"id": "s"},' * 3000 + '{"id": "t"}]}}')
                                   .encode()))
    with pytest.raises(FormatError, match="JSON values"):
        read_inventory(path)


def test_deep_nesting_is_a_message_with_its_line(tmp_path: Path) -> None:
    """Label Studio's reader raised RecursionError ("internal error")."""
    text = "[\n" + "[" * 100_000 + "]" * 100_000 + "\n]"
    with pytest.raises(FormatError, match=r"tasks.json:2:\d+: .*nested deeper than 200 levels"):
        _parse_labelstudio(text)


def test_duplicate_keys_are_reported_with_their_line(tmp_path: Path) -> None:
    from hieradjudicate.io.annotations.read import read_annotations

    path = tmp_path / "a.jsonl"
    good = {"lexelt": "bank.n", "instance": "1", "set": "ann", "tags": [{"tag": "1", "weight": 1}]}
    dup = json.dumps(good)[:-1] + ', "tags": [{"tag": "2", "weight": 1}]}'
    path.write_text(json.dumps(good) + "\n" + dup + "\n")
    src = read_annotations(path)
    messages = [(p.line, p.message) for p in src.problems]
    assert any(line == 2 and "duplicate key 'tags'" in m for line, m in messages), messages


# ------------------------------------------------------------------ zip archives
def _zip(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return buf.getvalue()


def test_the_total_inflated_size_of_an_archive_is_limited(tmp_path: Path, monkeypatch) -> None:
    """Each member under the per-member limit, together far over the input limit."""
    from hieradjudicate.io.annotations.tools.uima import iter_cas_files

    monkeypatch.setenv("HIERADJ_MAX_INPUT_BYTES", "3000000")
    path = tmp_path / "docs.zip"
    path.write_bytes(_zip({"TypeSystem.xml": b"<x/>", **{f"d{k}.xmi": b"<a/>" * 250_000 for k in range(4)}}))
    with pytest.raises(FormatError, match="inflates to more than 3,000,000 bytes in all"):
        list(iter_cas_files(str(path)))


def test_a_member_whose_header_lies_about_its_size(tmp_path: Path) -> None:
    """The header says 100 bytes; the data inflate to 400,000: a message, not an internal error."""
    from hieradjudicate.io.annotations.tools.uima import iter_cas_files

    data = bytearray(_zip({"TypeSystem.xml": b"<x/>", "d.xmi": b"<a/>" * 100_000}))
    for sig, at in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):  # local header, central directory
        start = 0
        while (pos := data.find(sig, start)) >= 0:
            name_len = struct.unpack("<H", data[pos + (26 if sig == b"PK\x03\x04" else 28):][:2])[0]
            name_at = pos + (30 if sig == b"PK\x03\x04" else 46)
            if bytes(data[name_at:name_at + name_len]) == b"d.xmi":
                data[pos + at:pos + at + 4] = struct.pack("<I", 100)
            start = pos + 4
    path = tmp_path / "docs.zip"
    path.write_bytes(bytes(data))
    with pytest.raises(FormatError, match=r"d\.xmi: a damaged or unreadable zip member"):
        list(iter_cas_files(str(path)))


def test_a_document_with_too_many_elements_is_refused(tmp_path: Path, monkeypatch) -> None:
    from hieradjudicate.io.annotations.tools.uima import CasFile, load_cas

    monkeypatch.setenv("HIERADJ_MAX_XML_ELEMENTS", "1000")
    with pytest.raises(FormatError, match="more than 1,000 XML elements"):
        load_cas(CasFile(None, "d", "d.xmi", b"<a>" + b"<b/>" * 5000 + b"</a>", b"<x/>"))


# ------------------------------------------------------------------ spans
@pytest.fixture(scope="module")
def inception() -> Path:
    return skip_without_realdata("inception") / "inception"


def test_reversed_and_out_of_range_xmi_spans_are_refused(inception: Path, tmp_path: Path) -> None:
    import re

    from hieradjudicate.io.annotations.read import read_annotations

    shutil.copy(inception / "TypeSystem.xml", tmp_path / "TypeSystem.xml")
    xmi = (inception / "moralistik.xmi").read_text(encoding="utf-8")
    spans = list(re.finditer(r'<type\d*:NamedEntity [^>]*?begin="(\d+)" end="(\d+)"', xmi))
    first, second = spans[0], spans[1]
    b, e = first.group(1), first.group(2)
    damaged = (xmi[:first.start(1)] + e + '" end="' + b + xmi[first.end(2):second.start(2)]
               + "99999999" + xmi[second.end(2):])
    path = tmp_path / "moralistik.xmi"
    path.write_text(damaged, encoding="utf-8")
    src = read_annotations(path, name="m", columns={"layer": "NamedEntity", "feature": "identifier"})
    bad = [p for p in src.problems if "reversed, negative or past the end" in p.message]
    assert len(bad) == 2 and all(p.line for p in bad)
    assert "(empty span)" not in set(src.item_lexelt)


def test_reversed_webanno_tsv_offsets_are_refused(inception: Path, tmp_path: Path) -> None:
    from hieradjudicate.io.annotations.read import read_annotations
    from tests.io.test_uima import _tsv_from_xmi

    lines = _tsv_from_xmi(inception / "moralistik.xmi", inception / "TypeSystem.xml").split("\n")
    k = next(i for i, line in enumerate(lines) if line.startswith("1-3\t"))
    cells = lines[k].split("\t")
    b, e = cells[1].split("-")
    cells[1] = f"{e}-{b}"
    lines[k] = "\t".join(cells)
    path = tmp_path / "m.tsv"
    path.write_text("\n".join(lines), encoding="utf-8")
    src = read_annotations(path, name="m", columns={"layer": "NamedEntity", "feature": "identifier"})
    # (the generated TSV's one raw CR in a #Text line counts as a line break when read: k + 2)
    assert any(p.line in (k + 1, k + 2) and f"offsets '{e}-{b}': reversed" in p.message
               for p in src.problems), src.problems[:5]


# ------------------------------------------------------------------ WordNet
def _wordnet(folder: Path) -> tuple[Path, Path]:
    """A two-synset WordNet database (the real layout: every data line starts with its offset)."""
    folder.mkdir()
    header = "  1 This is a test WordNet database\n"
    lines = [header]
    offsets = []
    for k, gloss in enumerate(["sloping land beside a body of water", "a financial institution"]):
        at = sum(len(x) for x in lines)
        offsets.append(at)
        lines.append(f"{at:08d} 17 n 01 bank 0 000 | {gloss}  \n" if k == 0 else
                     f"{at:08d} 14 n 01 bank 1 000 | {gloss}  \n")
    (folder / "data.noun").write_text("".join(lines), encoding="latin-1")
    index = header + f"bank n 2 0 2 0 {offsets[0]:08d} {offsets[1]:08d}  \n"
    (folder / "index.noun").write_text(index, encoding="latin-1")
    return folder / "index.noun", folder / "data.noun"


def test_a_sound_small_wordnet_reads(tmp_path: Path) -> None:
    from hieradjudicate.io.inventories.wordnet import read_wordnet

    _wordnet(tmp_path / "wn")
    src = read_wordnet(str(tmp_path / "wn"), ["bank.n"])
    assert [s.sense for s in src.senses if "%" in s.sense] == ["bank%1:17:00::", "bank%1:14:01::"]


@pytest.mark.parametrize("how", ["offset past the end", "non-numeric count", "truncated data line",
                                 "empty data file", "missing data file", "offset not a synset"])
def test_a_damaged_wordnet_folder_names_the_file_and_line(tmp_path: Path, how: str) -> None:
    from hieradjudicate.io.inventories.wordnet import read_wordnet

    index, data = _wordnet(tmp_path / "wn")
    text = index.read_text(encoding="latin-1")
    if how == "offset past the end":
        index.write_text(text.replace(text.split()[-1], "99999999"), encoding="latin-1")
    elif how == "non-numeric count":
        index.write_text(text.replace("bank n 2", "bank n x"), encoding="latin-1")
    elif how == "truncated data line":
        data.write_bytes(data.read_bytes()[:-40])
    elif how == "empty data file":
        data.write_bytes(b"")
    elif how == "missing data file":
        data.unlink()
    else:
        index.write_text(text.replace(text.split()[-1], f"{int(text.split()[-1]) + 3:08d}"),
                         encoding="latin-1")
    with pytest.raises(FormatError) as err:
        read_wordnet(str(tmp_path / "wn"), ["bank.n"])
    message = str(err.value)
    assert ("data.noun" in message or "index.noun:2" in message), message
    if how in ("offset past the end", "non-numeric count"):
        assert "index.noun:2" in message


# ------------------------------------------------------------------ validate and project new
def test_validate_and_project_new_agree_on_a_cut_inventory(tmp_path: Path, capsys) -> None:
    cut = tmp_path / "inventory.txt"
    cut.write_bytes((DEMO / "inventory.txt").read_bytes()[:500])
    args = ["--inventory", str(cut), "--annotations", str(DEMO / "annotator_ann.key")]
    assert main(["validate", *args]) == 1
    out = capsys.readouterr().out
    assert "NOT valid: 7 lexelt(s) of the annotations are absent from the inventory: bright.a" in out
    assert main(["project", "new", str(tmp_path / "p.hadj"), *args]) == 1
    assert "7 lexelt(s) of the annotations are absent from the inventory" in capsys.readouterr().err
    assert not (tmp_path / "p.hadj").exists()
    assert main(["project", "new", str(tmp_path / "p.hadj"), *args, "--skip-bad-lines"]) == 0


# ------------------------------------------------------------------ decisions CSV
@pytest.fixture
def semi(tmp_path: Path) -> Path:
    """A project whose inventory has the sense id '4;x' (the CSV's tag separator inside an id)."""
    inv = tmp_path / "inventory.txt"
    inv.write_text((DEMO / "inventory.txt").read_text().replace("\n4: a row", "\n4;x: a row"))
    ann = tmp_path / "ann.key"
    ann.write_text((DEMO / "annotator_ann.key").read_text().replace(" 4\n", " 4;x\n"))
    path = tmp_path / "p.hadj"
    assert main(["project", "new", str(path), "--inventory", str(inv), "--annotations", str(ann)]) == 0
    return path


def test_a_sense_id_with_a_semicolon_round_trips_through_csv(semi: Path, tmp_path: Path, capsys) -> None:
    assert main(["project", "decide", str(semi), "bank.n", "bank.n.001", "4;x", "1.1"]) == 0
    out = tmp_path / "gold.csv"
    assert main(["project", "export", str(semi), "--format", "csv", "-o", str(out)]) == 0
    assert "4;x;1.1" in out.read_text() or "1.1;4;x" in out.read_text()
    capsys.readouterr()
    assert main(["project", "import-decisions", str(semi), str(out)]) == 0, capsys.readouterr().err
    from hieradjudicate.app.session.session import Session

    with Session.open(semi, read_only=True) as s:
        rows = [r for r in s.store.iter_history() if r.instance == "bank.n.001"]
    assert [set(r.tags) for r in rows] == [{"4;x", "1.1"}, {"4;x", "1.1"}]


def test_import_refuses_control_characters_in_notes(semi: Path, tmp_path: Path, capsys) -> None:
    csv = tmp_path / "d.csv"
    csv.write_bytes(b"lexelt,instance,tags,note\nbank.n,bank.n.001,1.1,fine\nbank.n,bank.n.002,1.2,a\x00b\n")
    assert main(["project", "import-decisions", str(semi), str(csv)]) == 1
    err = capsys.readouterr().err
    assert "d.csv:3:" in err and "control character 0x00" in err
    assert main(["project", "decide", str(semi), "bank.n", "bank.n.001", "1.1", "--note", "a\x1bb"]) == 1
    assert "control character" in capsys.readouterr().err


def test_index_damage_is_detected_on_open(semi: Path) -> None:
    import sqlite3

    from hieradjudicate.core.errors import ProjectError
    from hieradjudicate.io.store.project_store import Store

    conn = sqlite3.connect(semi)
    conn.execute("PRAGMA writable_schema = ON")
    conn.execute("UPDATE sqlite_master SET sql = 'CREATE INDEX files_kind ON files (active, kind)' "
                 "WHERE name = 'files_kind'")
    conn.commit()
    conn.close()
    with pytest.raises(ProjectError, match="stored input copies are damaged"):
        Store.open(semi)


def test_crafted_stored_file_names_are_written_safely(semi: Path, tmp_path: Path) -> None:
    import sqlite3

    from hieradjudicate.app.session.session import Session

    conn = sqlite3.connect(semi)
    conn.execute("UPDATE files SET source_path = '../../x\x01/..' WHERE kind = 'inventory'")
    conn.execute("UPDATE files SET source_path = '' WHERE kind = 'annotations'")
    conn.execute("DELETE FROM arrays")  # the corpus is rebuilt from the stored copies
    conn.commit()
    conn.close()
    with Session.open(semi) as s:
        assert s.corpus.n == 400
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith(".")) == \
        ["ann.key", "inventory.txt", "p.hadj"]
