"""Wide annotation tables: one row per instance.

Plain form: ``lexelt, instance`` and one column per annotator (the column
name is the set name); a cell holds tags separated by ``;`` or ``,`` and an
empty cell means "not annotated".

Packed form (the MASC crowd file, or any table mapped with a ``labels``
column): one cell holds every annotator's label as ``worker:tag,...``; each
worker becomes one set.  MASC numbers its sentences per *form* of a word
(``sentence_id`` restarts at 1 in every ``form_id``), so the instance id is
``sentence_id`` alone only when that is unique within each ``word_pos``, and
otherwise ``form_id.sentence_id`` (e.g. ``2.1``) — the real file needs the
latter.  A clean packed file is read column-wise by
:mod:`~hieradjudicate.io.annotations.packed` (MASC, a million labels: about
0.1 s); any other goes row by row here, where the labels are still split
with one ``str.split`` of the joined cells and damaged cells take a per-cell
path with exact messages.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import numpy as np

from hieradjudicate.core.errors import ProblemLog
from hieradjudicate.io.annotations.build import Parsed, TagTable, factorize
from hieradjudicate.io.annotations.packed import parse_packed_fast
from hieradjudicate.io.annotations.tables import cell, read_table

_CELL_SPLIT = re.compile(r"[;,]")
MASC = {"lexelt": "word_pos", "form": "form_id", "instance": "sentence_id", "labels": "labels"}


def parse_wide(text: str, fmt: str, columns: Mapping[str, str] | None, sep: str | None, log: ProblemLog) -> Parsed:
    """Read a plain or packed wide table (``fmt`` is ``wide-table`` or ``masc``)."""
    packed = fmt == "masc" or bool(columns and "labels" in columns)
    required = ("lexelt", "instance", "labels") if packed else ("lexelt", "instance")
    fixed = MASC if fmt == "masc" else None
    header, fields, rows = read_table(text, sep, columns, required, log, fixed)
    if packed:
        fast = parse_packed_fast(text, header, fields, sep)
        if fast is not None:  # a clean file, read column-wise; any other goes row by row below
            return fast
    lexelts: list[str] = []
    forms: list[str] = []
    instances: list[str] = []
    lines: list[int] = []
    cells: list[list[str]] = []
    form_col = fields.get("form")
    value_cols = [fields["labels"]] if packed else [
        i for i in range(len(header)) if i not in (fields["lexelt"], fields["instance"])]
    for lineno, row in rows:
        if len(row) > len(header):
            log.error(lineno, f"found {len(row)} fields; expected at most {len(header)} as in the header")
            continue
        lex, inst = cell(row, fields["lexelt"]), cell(row, fields["instance"])
        form = cell(row, form_col) if form_col is not None else ""
        if not lex or not inst or (form_col is not None and not form):
            what = "lexelt" if not lex else "instance" if not inst else "form_id"
            log.error(lineno, f"empty or missing {what} field; expected {', '.join(header)}")
            continue
        lexelts.append(lex)
        instances.append(inst)
        forms.append(form)
        lines.append(lineno)
        cells.append([cell(row, i) for i in value_cols])
    if form_col is not None and len(set(zip(lexelts, instances))) < len(instances):
        instances = [f"{f}.{s}" for f, s in zip(forms, instances)]
    cand_lexelt = np.array(lexelts, dtype=object)
    cand_instance = np.array(instances, dtype=object)
    line_arr = np.array(lines, dtype=np.int64)
    if packed:
        return _packed([c[0] for c in cells], cand_lexelt, cand_instance, line_arr, log)
    names = [header[i].strip() or f"column {i + 1}" for i in value_cols]
    return _plain(cells, names, cand_lexelt, cand_instance, line_arr)


def _plain(cells: list[list[str]], names: list[str], lexelt: np.ndarray, instance: np.ndarray,
           lines: np.ndarray) -> Parsed:
    sets, tags = TagTable(), TagTable()
    unit_item: list[int] = []
    unit_set: list[int] = []
    label_unit: list[int] = []
    label_tag: list[int] = []
    for r, row_cells in enumerate(cells):
        for name, value in zip(names, row_cells):
            row_tags = [t for t in (x.strip() for x in _CELL_SPLIT.split(value)) if t] if value else []
            if not row_tags:
                continue
            label_unit.extend([len(unit_item)] * len(row_tags))
            label_tag.extend(tags.code(t) for t in row_tags)
            unit_item.append(r)
            unit_set.append(sets.code(name))
    item = np.array(unit_item, dtype=np.int64)
    return Parsed(lexelt, instance, item, np.array(unit_set, dtype=np.int64), lines[item],
                  np.array(label_unit, dtype=np.int64), np.array(label_tag, dtype=np.int64),
                  np.full(len(label_tag), np.nan), sets.names, tags.names)


def _well_formed(cells: list[str]) -> bool:
    """True when every cell is ``a:b,c:d,...`` (separators strictly alternate, none empty)."""
    joined = ",".join(cells)
    if not joined or ",," in joined or "::" in joined:
        return False
    b = np.frombuffer(joined.encode("utf-8"), dtype=np.uint8)
    seps = b[(b == 44) | (b == 58)]
    return bool(seps.size % 2 == 1 and (seps[0::2] == 58).all() and (seps[1::2] == 44).all()
                and b[0] not in (44, 58) and b[-1] not in (44, 58))


def _packed(cells: list[str], lexelt: np.ndarray, instance: np.ndarray, lines: np.ndarray,
            log: ProblemLog) -> Parsed:
    """Split ``worker:tag,...`` cells; each pair is one unit (one worker's answer)."""
    ok = [bool(c) for c in cells]
    if not _well_formed([c for c in cells if c]):
        ok = [bool(c) and _well_formed([c]) for c in cells]
    good = [c for c, k in zip(cells, ok) if k]
    rows = np.flatnonzero(ok)
    tokens = ",".join(good).replace(":", ",").split(",") if good else []
    counts = np.fromiter((c.count(",") + 1 for c in good), dtype=np.int64, count=len(good))
    label_row = np.repeat(rows, counts)
    w_codes, w_uniques = factorize(tokens[0::2])
    t_codes, t_uniques = factorize(tokens[1::2])
    w_names = [w.strip() for w in w_uniques.tolist()]
    t_names = [t.strip() for t in t_uniques.tolist()]
    keep = np.ones(label_row.size, dtype=bool)
    bad_w = np.array([not w for w in w_names], dtype=bool)
    bad_t = np.array([not t for t in t_names], dtype=bool)
    if bad_w.any() or bad_t.any():
        keep = ~(bad_w[w_codes] | bad_t[t_codes])
        for i in np.flatnonzero(~keep)[: log.cap].tolist():
            log.error(int(lines[label_row[i]]), f"label {tokens[2 * i]!r}:{tokens[2 * i + 1]!r} has an empty "
                      "worker or tag; expected worker:tag", skipped=False)
        log.n_errors += max(0, int((~keep).sum()) - log.cap)
    sets, tags = TagTable(), TagTable()
    w_map = np.fromiter(map(sets.code, w_names), dtype=np.int64, count=len(w_names))
    t_map = np.fromiter(map(tags.code, t_names), dtype=np.int64, count=len(t_names))
    for r in np.flatnonzero([bool(c) and not k for c, k in zip(cells, ok)]).tolist():
        log.error(int(lines[r]), f"{_damage(cells[r])}; expected worker:tag,worker:tag,...")
    unit_item = label_row[keep]
    n = unit_item.size
    return Parsed(lexelt, instance, unit_item, w_map[w_codes[keep]], lines[unit_item],
                  np.arange(n, dtype=np.int64), t_map[t_codes[keep]], np.full(n, np.nan),
                  sets.names, tags.names)


def _damage(value: str) -> str:
    """Say which pair of a damaged labels cell is wrong."""
    for k, pair in enumerate(value.split(","), start=1):
        worker, colon, tag = pair.partition(":")
        if not colon or not worker.strip() or not tag.strip() or ":" in tag:
            return f"damaged labels cell: pair {k} {pair!r} is not worker:tag"
    return f"damaged labels cell {value[:60]!r}"
