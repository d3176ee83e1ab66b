"""Shared machinery of the annotation readers: weight parsing and the final assembly.

Every annotation reader reduces its file to *units* and *labels*.  A unit is
one answer of one set for one instance as the file states it (a Senseval
line, a cell of a wide table, one ``worker:sense`` pair, one JSON line, one
row of a long table); a label is one tag of a unit, with its weight.
:func:`build_source` turns these columns into an
:class:`~hieradjudicate.core.records.AnnotationSource`: it factorises the
instances, drops later units for a (set, instance) already answered (first
wins, reported as duplicates), makes the rows of each (set, item) contiguous
and applies the rule "one unweighted tag makes the whole answer unweighted".
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import numpy as np

from hieradjudicate.core.errors import ProblemLog
from hieradjudicate.core.records import AnnotationSource
from hieradjudicate.io.textfile import check_name_lengths

_NUMBER = re.compile(r"[+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
_SPECIAL = {"nan": "a NaN", "inf": "an infinite", "infinity": "an infinite"}
WEIGHT_EXPECTED = "expected a finite number >= 0"


def weight_problem(text: str) -> str | None:
    """Say what is wrong with a weight written as ``text``; ``None`` when it is valid."""
    t = text.strip()
    if not t:
        return f"empty weight; {WEIGHT_EXPECTED}"
    low = t.lower().lstrip("+-")
    if low in _SPECIAL:
        return f"{_SPECIAL[low]} weight {t!r}; {WEIGHT_EXPECTED}"
    if t.startswith("-") and _NUMBER.fullmatch(t[1:]):
        return f"negative weight {t!r}; {WEIGHT_EXPECTED}"
    if not _NUMBER.fullmatch(t):
        return f"non-numeric weight {t!r}; {WEIGHT_EXPECTED}"
    if not math.isfinite(float(t)):
        return f"an infinite weight {t!r} (too large); {WEIGHT_EXPECTED}"
    return None


def number_problem(value: object) -> str | None:
    """Like :func:`weight_problem` for a value already parsed (JSON)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return f"weight {value!r} is not a number; {WEIGHT_EXPECTED}"
    if isinstance(value, float) and math.isnan(value):
        return f"a NaN weight; {WEIGHT_EXPECTED}"
    try:
        f = float(value)
    except OverflowError:
        return f"an infinite weight (too large); {WEIGHT_EXPECTED}"
    if math.isinf(f):
        return f"an infinite weight; {WEIGHT_EXPECTED}"
    if f < 0:
        return f"negative weight {value!r}; {WEIGHT_EXPECTED}"
    return None


class TagTable:
    """Tag strings to codes, in order of first appearance (exact, case-sensitive)."""

    def __init__(self) -> None:
        self.index: dict[str, int] = {}
        self.names: list[str] = []

    def code(self, tag: str) -> int:
        c = self.index.get(tag)
        if c is None:
            c = self.index[tag] = len(self.names)
            self.names.append(tag)
        return c

    def codes(self, tags: Sequence[str]) -> np.ndarray:
        return np.fromiter(map(self.code, tags), dtype=np.int64, count=len(tags))


class Parsed:
    """Units and labels of one file, before assembly (see the module docstring).

    ``cand_lexelt``/``cand_instance`` hold candidate items (they may repeat);
    ``unit_item`` indexes them.  Units must be in file order.
    ``instance_hash``, when a reader gives it, is a hash per candidate
    instance id (equal ids, equal hashes): all hashes distinct proves all
    candidates distinct without hashing the strings in Python.

    (A plain class, not a dataclass: ``score`` imports this module at every start, and a
    dataclass costs about 2 ms to make.)
    """

    def __init__(self, cand_lexelt: np.ndarray | list, cand_instance: np.ndarray | list, unit_item: np.ndarray,
                 unit_set: np.ndarray, unit_line: np.ndarray, label_unit: np.ndarray, label_tag: np.ndarray,
                 label_weight: np.ndarray, set_names: list[str], tags: list[str],
                 comments: dict[int, str] | None = None, instance_hash: np.ndarray | None = None,
                 one_label_per_unit: bool = False, set_roles: dict[str, str] | None = None,
                 unit_time: np.ndarray | None = None, unit_lead: np.ndarray | None = None) -> None:
        self.cand_lexelt = cand_lexelt  # object array, or a list of str
        self.cand_instance = cand_instance  # object array, or a list of str
        self.unit_item = unit_item  # int64
        self.unit_set = unit_set  # int64
        self.unit_line = unit_line  # int64
        self.label_unit = label_unit  # int64, non-decreasing
        self.label_tag = label_tag  # int64
        self.label_weight = label_weight  # float64
        self.set_names = set_names
        self.tags = tags
        self.comments: dict[int, str] = {} if comments is None else comments  # unit -> comment
        self.instance_hash = instance_hash  # uint64 per candidate
        self.one_label_per_unit = one_label_per_unit  # label_unit is 0..n_units-1 (the packed reader's pairs)
        self.set_roles: dict[str, str] = {} if set_roles is None else set_roles  # set name -> role the file implies
        self.unit_time = unit_time  # float64 per unit: UTC seconds, NaN when absent (times.py)
        self.unit_lead = unit_lead  # float64 per unit: seconds spent (Label Studio's lead_time)

    @classmethod
    def from_rows(cls, lexelts: list, instances: list, unit_set: list, unit_line: list, label_unit: list,
                  label_tag: list, label_weight: list, set_names: list[str], tags: list[str]) -> "Parsed":
        """From per-row lists, one unit (candidate item) per row, as the table and JSON Lines readers
        collect them."""
        n = len(unit_line)
        return cls(
            cand_lexelt=np.array(lexelts, dtype=object),
            cand_instance=np.array(instances, dtype=object),
            unit_item=np.arange(n, dtype=np.int64),
            unit_set=np.array(unit_set, dtype=np.int64),
            unit_line=np.array(unit_line, dtype=np.int64),
            label_unit=np.array(label_unit, dtype=np.int64),
            label_tag=np.array(label_tag, dtype=np.int64),
            label_weight=np.array(label_weight, dtype=np.float64),
            set_names=set_names,
            tags=tags,
        )


def factorize(values) -> tuple[np.ndarray, np.ndarray]:
    """Codes in order of first appearance, as ``pandas.factorize`` gives them.

    Written here so that reading a Senseval file does not import pandas (0.2 s
    of start-up, a third of the ``score`` command's budget).
    """
    if isinstance(values, np.ndarray) and values.dtype.kind in "iub":
        if values.size == 0:
            return np.zeros(0, np.int64), values[:0]
        uniq, first, inv = np.unique(values, return_index=True, return_inverse=True)
        order = np.argsort(first, kind="stable")
        rank = np.empty(order.size, dtype=np.int64)
        rank[order] = np.arange(order.size)
        return rank[inv.reshape(-1)], uniq[order]
    seq = values.tolist() if isinstance(values, np.ndarray) else values
    table: dict = dict.fromkeys(seq)  # first-appearance order, at C speed
    for code, value in enumerate(table):  # a loop over the distinct values only
        table[value] = code
    codes = np.fromiter(map(table.__getitem__, seq), np.int64, len(seq))
    uniques = np.empty(len(table), dtype=object)
    uniques[:] = list(table)
    return codes, uniques


def _object_array(values) -> np.ndarray:
    """``values`` as a 1-d object array (strings stay whole)."""
    if isinstance(values, np.ndarray):
        return values
    arr = np.empty(len(values), dtype=object)
    arr[:] = values
    return arr


def _first_flags(codes: np.ndarray) -> np.ndarray:
    """True where a code (numbered in order of first appearance) appears first."""
    if codes.size == 0:
        return np.zeros(0, dtype=bool)
    seen = np.maximum.accumulate(codes)
    first = np.empty(codes.size, dtype=bool)
    first[0] = True
    first[1:] = codes[1:] > seen[:-1]
    return first


def _items(p: Parsed) -> tuple[np.ndarray, list[str], list[str]]:
    """Factorise candidate items by (lexelt, instance); return unit item codes and names."""
    unit_item, lexelt, instance, inst_hash = p.unit_item, p.cand_lexelt, p.cand_instance, p.instance_hash
    n = len(instance)
    if n == 0 or unit_item.size == 0:
        return unit_item, [], []
    used = np.zeros(n, dtype=bool)
    used[unit_item] = True
    if not used.all():  # candidates of rows whose every label was rejected
        remap = np.cumsum(used) - 1
        lexelt, instance = _object_array(lexelt), _object_array(instance)
        unit_item, lexelt, instance = remap[unit_item], lexelt[used], instance[used]
        inst_hash = None if inst_hash is None else inst_hash[used]
        n = len(instance)
    names = instance if isinstance(instance, list) else instance.tolist()
    if inst_hash is not None:
        h = np.sort(inst_hash)
        distinct = not bool((h[1:] == h[:-1]).any())  # else maybe a duplicate: the exact path decides
    else:
        distinct = len(set(names)) == n
    lexelts = lexelt if isinstance(lexelt, list) else lexelt.tolist()
    if not distinct and inst_hash is None:  # ids repeat across lexelts (MASC's form.sentence)
        distinct = len(set(zip(lexelts, names))) == n
    if distinct:  # every candidate distinct: the common case
        return unit_item, lexelts, names
    lexelt, instance = _object_array(lexelt), _object_array(instance)
    lex_codes, _ = factorize(lexelt)
    inst_codes, inst_uniques = factorize(instance)
    key = lex_codes.astype(np.int64) * (len(inst_uniques) + 1) + inst_codes
    item_codes, _ = factorize(key)
    first = np.flatnonzero(_first_flags(item_codes))
    return item_codes.astype(np.int64)[unit_item], lexelt[first].tolist(), instance[first].tolist()


def _unit_groups(key: np.ndarray) -> np.ndarray | None:
    """:func:`factorize` codes of the (set, item) keys of the units, or ``None`` when every unit is
    its own (set, item), the usual case, whose codes are ``0..n-1``: one sort proves it (a crowd
    file: a million units, 20 ms instead of the 150 ms of a factorisation)."""
    s = np.sort(key)
    if s.size < 2 or bool((s[1:] != s[:-1]).all()):
        return None
    return factorize(key)[0]


def _source(p: Parsed, path: str, fmt: str, log: ProblemLog, set_names: list[str], item_lexelt: list[str],
            item_instance: list[str], unit_item: np.ndarray, unit_set: np.ndarray) -> AnnotationSource:
    """:func:`build_source`'s result when each unit is one label of its own (set, item): what the
    general path gives, without its gathers by the identity."""
    tags, label_tag = _compact(p.tags, p.label_tag)
    _check_lengths(p, path, unit_item, item_lexelt, item_instance, tags, p.label_unit, label_tag,
                   set_names, unit_set)
    return AnnotationSource(
        path=path, format=fmt, set_names=set_names, item_lexelt=item_lexelt, item_instance=item_instance,
        tags=tags, item=unit_item.astype(np.int64, copy=False), set=unit_set.astype(np.int64, copy=False),
        tag=label_tag.astype(np.int64, copy=False), weight=np.asarray(p.label_weight, dtype=np.float64),
        line=p.unit_line.astype(np.int64, copy=False), problems=sorted(log.problems, key=lambda q: q.line or 0),
        skipped_lines=log.skipped_lines, duplicates=0,
        comments={u: c for u, c in p.comments.items() if 0 <= u < unit_item.size},  # label u is unit u
        time=_per_label(p.unit_time, p.label_unit), lead_time=_per_label(p.unit_lead, p.label_unit),
    )


def _per_label(per_unit: np.ndarray | None, label_unit: np.ndarray) -> np.ndarray | None:
    return None if per_unit is None else np.asarray(per_unit, dtype=np.float64)[label_unit]


def build_source(
    p: Parsed, path: str, fmt: str, log: ProblemLog, *, merge_units: bool = False
) -> AnnotationSource:
    """Assemble the :class:`AnnotationSource`; report duplicate units (first wins).

    With ``merge_units`` (long tables: one row per label), units of the same
    (set, item) are parts of one answer, not duplicates.
    """
    unit_item, item_lexelt, item_instance = _items(p)
    set_names, unit_set = _compact(p.set_names, p.unit_set)
    n_units = unit_item.size
    if len(set_names) <= 1 and len(item_lexelt) == n_units and (
        n_units < 2 or bool(np.all(unit_item[1:] > unit_item[:-1]))
    ):  # one set, one unit per item, in order (Senseval files): every unit is its own group
        group = np.arange(n_units, dtype=np.int64)
    else:
        group = _unit_groups(unit_set * max(len(item_lexelt), 1) + unit_item)
        if group is None and p.one_label_per_unit and not merge_units:
            # every unit its own (set, item) and one label each: no duplicate, no reordering, no
            # partial weights -- the columns are the units' own
            return _source(p, path, fmt, log, set_names, item_lexelt, item_instance, unit_item, unit_set)
        if group is None:
            group = np.arange(n_units, dtype=np.int64)
    duplicates = 0
    label_unit, label_tag, label_weight = p.label_unit, p.label_tag, p.label_weight
    if not merge_units:
        first = _first_flags(group)
        dup_units = np.flatnonzero(~first)
        duplicates = int(dup_units.size)
        if duplicates:
            first_unit = np.flatnonzero(first)  # first unit of each group, by group code
            multi = len(set_names) > 1
            for u in dup_units[: log.cap].tolist():
                g = int(group[u])
                i = int(unit_item[u])
                who = f" by {set_names[int(unit_set[u])]!r}" if multi else ""
                log.warning(
                    int(p.unit_line[u]),
                    f"duplicate answer{who} for instance {item_instance[i]!r} "
                    f"(first given at line {int(p.unit_line[first_unit[g]])}); "
                    "expected one answer per instance, this one is ignored",
                )
            log.n_warnings += max(0, duplicates - log.cap)
            keep = first[label_unit]
            label_unit, label_tag, label_weight = label_unit[keep], label_tag[keep], label_weight[keep]
    label_group = group[label_unit]
    if label_group.size > 1 and bool(np.any(label_group[1:] < label_group[:-1])):
        order = np.argsort(label_group, kind="stable")
        label_unit, label_tag = label_unit[order], label_tag[order]
        label_weight, label_group = label_weight[order], label_group[order]
    label_weight = np.array(label_weight, dtype=np.float64, copy=True)
    nan = np.isnan(label_weight)
    if nan.any():
        partial = np.bincount(label_group, weights=nan, minlength=int(group.max()) + 1) > 0
        label_weight[partial[label_group]] = np.nan
    tags, label_tag = _compact(p.tags, label_tag)
    _check_lengths(p, path, unit_item, item_lexelt, item_instance, tags, label_unit, label_tag,
                   set_names, unit_set)
    comments: dict[int, str] = {}
    if p.comments:
        units, first_rows = np.unique(label_unit, return_index=True)
        row_of = dict(zip(units.tolist(), first_rows.tolist()))
        comments = {row_of[u]: c for u, c in p.comments.items() if u in row_of}
    return AnnotationSource(
        path=path,
        format=fmt,
        set_names=set_names,
        item_lexelt=item_lexelt,
        item_instance=item_instance,
        tags=tags,
        item=unit_item[label_unit].astype(np.int64, copy=False),
        set=unit_set[label_unit].astype(np.int64, copy=False),
        tag=label_tag.astype(np.int64, copy=False),
        weight=label_weight,
        line=p.unit_line[label_unit].astype(np.int64, copy=False),
        problems=sorted(log.problems, key=lambda q: q.line or 0),
        skipped_lines=log.skipped_lines,
        duplicates=duplicates,
        comments=comments,
        time=_per_label(p.unit_time, label_unit),
        lead_time=_per_label(p.unit_lead, label_unit),
    )


def _check_lengths(p: Parsed, path: str, unit_item: np.ndarray, item_lexelt: list[str],
                   item_instance: list[str], tags: list[str], label_unit: np.ndarray,
                   label_tag: np.ndarray, set_names: list[str], unit_set: np.ndarray) -> None:
    """Refuse over-long ids, tags, lexelts and set names, naming the line where each appears."""
    def first_line(units_of: np.ndarray, i: int, units: np.ndarray | None = None) -> int | None:
        hit = np.flatnonzero(units_of == i)
        if hit.size == 0:
            return None
        u = int(hit[0]) if units is None else int(units[hit[0]])
        return int(p.unit_line[u])

    check_name_lengths(path, "instance id", item_instance, lambda i: first_line(unit_item, i))
    check_name_lengths(path, "lexelt", item_lexelt, lambda i: first_line(unit_item, i))
    check_name_lengths(path, "tag", tags, lambda i: first_line(label_tag, i, label_unit))
    check_name_lengths(path, "set name", set_names, lambda i: first_line(unit_set, i))


def _compact(names: list[str], codes: np.ndarray) -> tuple[list[str], np.ndarray]:
    """Drop names (tags, sets) that no kept row uses (they came from skipped lines)."""
    if not names:
        return [], codes
    used = np.bincount(codes, minlength=len(names)) > 0
    if used.all():
        return list(names), codes
    remap = np.cumsum(used) - 1
    return [n for n, u in zip(names, used.tolist()) if u], remap[codes]
