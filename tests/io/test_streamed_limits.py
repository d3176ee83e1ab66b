"""#22 item 6 (gaps): a JSON document that starts with ``{`` (a JSON inventory) and a single ``.xmi``
file outside a zip are counted *as they are read* and refused after megabytes, not after the whole
file is in memory (a 160 MB inventory peaked at 379 MiB); commas inside strings are not values."""

from __future__ import annotations

import gzip
import json
import random

import pytest

from hieradjudicate.core.errors import FormatError
from hieradjudicate.io.jsonsafe import ValueCounter, count_values


def _reference(text: str) -> int:
    """``{``, ``[`` and ``,`` outside strings in the first top-level value, one character at a time."""
    n = depth = 0
    in_string = escaped = started = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
            continue
        if ch == '"':
            in_string = True
        elif ch in "{[":
            n, depth, started = n + 1, depth + 1, True
        elif ch in "}]" and started:
            depth -= 1
            if depth == 0:
                return n
        elif ch == "," and started:
            n += 1
    return n


def _random_value(rng: random.Random, depth: int = 0):
    pick = rng.random()
    if depth > 4 or pick < 0.4:
        alphabet = ['a', ',', '{', '[', ']', '}', '"', '\\', 'é', ' ', '\n', '\\"', ':']
        return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
    if pick < 0.5:
        return rng.choice([1, 2.5, None, True])
    if pick < 0.75:
        return [_random_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {f"k{i},\\": _random_value(rng, depth + 1) for i in range(rng.randint(0, 4))}


@pytest.mark.parametrize("seed", range(40))
def test_the_streamed_count_matches_a_character_by_character_count_at_any_chunk_size(seed: int) -> None:
    rng = random.Random(seed)
    doc = {"lexelts": {"a.n": [_random_value(rng) for _ in range(rng.randint(1, 30))]}}
    text = json.dumps(doc, ensure_ascii=rng.random() < 0.5, indent=rng.choice([None, 1]))
    text += "\n" + json.dumps({"next": [1, 2, 3]})  # JSON Lines after the first value: not counted
    raw = text.encode()
    expected = _reference(text)
    assert count_values(raw) == count_values(text) == expected
    for size in (1, 2, 3, 7, 64):  # every split point of escapes, quotes and multi-byte characters
        counter = ValueCounter()
        for at in range(0, len(raw), size):
            counter.feed(raw[at:at + size])
        assert counter.count == expected, size


def _bomb_inventory(path, entries: int) -> int:
    lines = ['{"lexelts": {"a.n": [']
    lines += ['{"id": "s%d", "children": []},' % i for i in range(entries)]
    lines.append('{"id": "t"}]}}')
    path.write_bytes(gzip.compress("\n".join(lines).encode()))
    return len(lines)


def test_a_json_inventory_with_too_many_values_is_refused_while_it_is_read(tmp_path, monkeypatch) -> None:
    """Refused where the count passes the limit (a line early in the file), not after reading it all."""
    from hieradjudicate.io.inventories.read import read_inventory

    monkeypatch.setenv("HIERADJ_MAX_JSON_VALUES", "400000")
    path = tmp_path / "inventory.json.gz"
    total_lines = _bomb_inventory(path, 800_000)  # 3.2 million values, 28 MB inflated
    with pytest.raises(FormatError) as err:
        read_inventory(path)
    problem = err.value.problems[0]
    assert "more than 400,000 JSON values (stopped here)" in problem.message
    # 4 values a line: the limit is passed at line 100,000, in a chunk (1 MiB, < 33,000 lines here)
    # that began at the line named; the rest of the file (700,000 lines) was never read
    assert problem.line is not None and 100_000 - 33_000 <= problem.line <= 100_001 < total_lines


def test_commas_inside_strings_are_not_counted_as_values(tmp_path, monkeypatch) -> None:
    """Glosses full of commas: far more ',' than the limit, few values; the inventory reads."""
    from hieradjudicate.io.inventories.read import read_inventory

    monkeypatch.setenv("HIERADJ_MAX_JSON_VALUES", "1000")
    senses = [{"id": f"s{i}", "gloss": "a, b, c, " * 50} for i in range(40)]
    path = tmp_path / "inventory.json"
    path.write_text(json.dumps({"lexelts": {"bank.n": senses}}))
    assert len(read_inventory(path).senses) == 40


def test_json_lines_are_counted_per_line_not_as_one_document(tmp_path, monkeypatch) -> None:
    """A JSON Lines file starts with '{' too: it is parsed a line at a time, so its total is no limit."""
    from hieradjudicate.io.annotations.read import read_annotations

    monkeypatch.setenv("HIERADJ_MAX_JSON_VALUES", "1000")
    path = tmp_path / "a.jsonl"
    lines = [json.dumps({"lexelt": "bank.n", "instance": str(i), "set": "ann",
                         "tags": [{"tag": "1", "weight": 1}]}) for i in range(2000)]
    path.write_text("\n".join(lines) + "\n")
    src = read_annotations(path)
    assert len(src.item_instance) == 2000 and not [p for p in src.problems if p.severity == "error"]


def test_a_single_xmi_file_with_too_many_elements_is_refused_while_it_is_read(tmp_path, monkeypatch) -> None:
    """An .xmi outside a zip was read whole (up to 512 MiB) before its elements were counted."""
    from hieradjudicate.io.annotations.tools.uima import iter_cas_files

    monkeypatch.setenv("HIERADJ_MAX_XML_ELEMENTS", "50000")
    n = 400_000
    body = '<?xml version="1.0" encoding="UTF-8"?>\n<xmi:XMI xmlns:xmi="http://www.omg.org/XMI" ' \
           'xmlns:cas="http:///uima/cas.ecore">\n' + '<cas:NULL xmi:id="0"/>\n' * n + "</xmi:XMI>\n"
    path = tmp_path / "doc.xmi"
    path.write_bytes(gzip.compress(body.encode()))  # gzip by content: 9 MB inflated
    with pytest.raises(FormatError) as err:
        list(iter_cas_files(str(path)))
    problem = err.value.problems[0]
    assert "more than 50,000 XML elements in one document (stopped here)" in problem.message
    # one element a line, 23 bytes: the chunk (1 MiB, 45,590 lines) passing 50,000 began at line 45,592
    assert problem.line is not None and 50_000 - 45_600 <= problem.line <= 50_002 < n


def test_a_gzip_xmi_file_is_read_as_xmi(tmp_path) -> None:
    """A .xmi compressed by gzip was sniffed on its compressed bytes and read as a table (5 GB for a
    1.2 MB file of 24 million elements); its content is sniffed now, as every other input's."""
    from tests.conftest import skip_without_realdata
    from hieradjudicate.io.annotations.read import read_annotations

    root = skip_without_realdata("inception") / "inception"
    (tmp_path / "TypeSystem.xml").write_bytes((root / "TypeSystem.xml").read_bytes())
    gz = tmp_path / "moralistik.xmi"
    gz.write_bytes(gzip.compress((root / "moralistik.xmi").read_bytes()))
    cols = {"layer": "NamedEntity", "feature": "identifier"}
    plain, packed = read_annotations(root / "moralistik.xmi", columns=cols), read_annotations(gz, columns=cols)
    assert packed.format == "uima-xmi" and packed.item_instance == plain.item_instance
    assert len(packed.item_instance) == 71


@pytest.mark.parametrize("packed", [False, True])
def test_an_xml_document_that_is_not_xmi_is_refused_before_it_is_read(tmp_path, packed: bool) -> None:
    from hieradjudicate.io.annotations.read import read_annotations

    body = b'<?xml version="1.0"?>\n<corpus lang="en">' + b"<w/>" * 1000 + b"</corpus>\n"
    path = tmp_path / "answers.xml"
    path.write_bytes(gzip.compress(body) if packed else body)
    with pytest.raises(FormatError) as err:
        read_annotations(path)
    problem = err.value.problems[0]
    assert problem.line == 1 and "an XML document, but not UIMA CAS XMI" in problem.message
