"""The packed wide table (the MASC crowd file) read column-wise, without a loop per row or label.

A clean tab-separated file (ASCII, no spaces, a header on line 1, every row with the header's
number of fields, none empty, every labels cell ``worker:tag,...``) is split with a few
``str`` and numpy operations over the whole text: one ``split`` gives the columns, the labels
column is joined into one byte string whose ``,`` and ``:`` positions give every worker and tag,
and each worker or tag (8 bytes at most) becomes a 64-bit key, factorised by a hash table.  The
result is exactly what :func:`~hieradjudicate.io.annotations.wide.parse_wide` makes of such a file
row by row.  Any other file -- a damaged row, a blank line, a space, an empty cell, a long tag --
returns ``None`` here and is read by that row-wise path, which names each problem with its line:
reading is exactly as strict as before.
"""

from __future__ import annotations

import numpy as np

from hieradjudicate.io.annotations.build import Parsed, TagTable
from hieradjudicate.io.annotations.bytewords import LOW_BYTES, words_view

_COMMA, _COLON, _TAB, _LF = 44, 58, 9, 10
_MULT = np.uint64(0x9E3779B97F4A7C15)  # Fibonacci hashing


def parse_packed_fast(text: str, header: list[str], fields: dict[str, int], sep: str | None) -> Parsed | None:
    """The :class:`Parsed` of a clean tab-separated packed table (see the module docstring), or
    ``None`` when the file needs the row-wise reader."""
    n_h = len(header)
    if sep not in (None, "\t") or not text.isascii() or " " in text or n_h < 2:  # isascii: O(1), a flag of the string
        return None
    h = text.find("\n")
    end = len(text) - 1 if text.endswith("\n") else len(text)
    if h < 0 or end <= h + 1 or text[:h].split("\t") != header:
        return None
    b = np.frombuffer(text.encode("ascii"), dtype=np.uint8)[h + 1:end]  # the data lines
    ends = np.flatnonzero(b == _LF)
    n = ends.size + 1
    tabs = np.flatnonzero(b == _TAB)
    if tabs.size != n * (n_h - 1) or np.count_nonzero(b < 32) != tabs.size + ends.size:
        return None  # a line with another number of fields, or a control character
    # n (n_h - 1) tabs, and each line's last tab before its end and the next line's first after it:
    # every line has exactly n_h - 1 (so no line is blank)
    last, first = tabs[n_h - 2::n_h - 1], tabs[0::n_h - 1]
    if (last[:-1] > ends).any() or (first[1:] < ends).any():
        return None
    del b, ends, tabs, last, first
    # the only whitespace is the tabs and line ends, so split() cuts at exactly those; it drops
    # empty fields, so the count proves there is none
    flat = text.split()
    if len(flat) != (n + 1) * n_h:
        return None
    lab_col, lex_col, inst_col = (n_h + fields[f] for f in ("labels", "lexelt", "instance"))
    form_col = n_h + fields["form"] if "form" in fields else None
    labels = flat[lab_col::n_h]
    joined = ",".join(labels).encode("ascii")
    split = _split_labels(joined)
    if split is None:
        return None
    colons, w_key, t_key = split
    lexelts = flat[lex_col::n_h]
    instances = flat[inst_col::n_h]
    if form_col is not None and len(set(zip(lexelts, instances))) < n:
        instances = list(map(".".join, zip(flat[form_col::n_h], instances)))
    cell_end = np.cumsum(np.fromiter(map(len, labels), np.int64, n) + 1) - 1  # the joining commas
    per_cell = np.diff(np.searchsorted(colons, cell_end), prepend=0)  # one colon per label
    label_row = np.repeat(np.arange(n, dtype=np.int64), per_cell)
    w_codes, w_names = _names(w_key)
    t_codes, t_names = _names(t_key)
    sets, tags = TagTable(), TagTable()
    w_map = np.fromiter(map(sets.code, w_names), dtype=np.int64, count=len(w_names))
    t_map = np.fromiter(map(tags.code, t_names), dtype=np.int64, count=len(t_names))
    lines = np.arange(2, n + 2, dtype=np.int64)  # the header is line 1, no blank line follows
    k = label_row.size
    return Parsed(np.array(lexelts, dtype=object), np.array(instances, dtype=object), label_row,
                  w_map[w_codes], lines[label_row], np.arange(k, dtype=np.int64), t_map[t_codes],
                  np.full(k, np.nan), sets.names, tags.names, one_label_per_unit=True)


def _split_labels(joined: bytes) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Colon positions and the worker and tag keys of ``w:t,w:t,...`` (``None`` unless every
    pair is well formed and every worker and tag has at most 8 bytes)."""
    b = np.frombuffer(joined, dtype=np.uint8)
    colon = np.flatnonzero(b == _COLON)
    comma = np.flatnonzero(b == _COMMA)
    k = colon.size
    if k == 0 or comma.size != k - 1:
        return None
    w_start = np.empty(k, dtype=np.int64)  # worker i: after comma i-1, up to colon i
    w_start[0] = 0
    np.add(comma, 1, out=w_start[1:])
    t_end = np.empty(k, dtype=np.int64)  # tag i: after colon i, up to comma i
    t_end[:-1] = comma
    t_end[-1] = b.size
    del comma
    w_len = colon - w_start
    t_len = t_end - colon
    t_len -= 1
    del t_end
    # every worker and tag non-empty: the separators alternate colon, comma, ... and none is first
    # or last; at most 8 bytes: each is one 64-bit key
    if int(w_len.min()) < 1 or int(t_len.min()) < 1 or int(w_len.max()) > 8 or int(t_len.max()) > 8:
        return None
    padded = np.zeros(b.size + 8, dtype=np.uint8)
    padded[: b.size] = b
    words = words_view(padded)  # the 8 bytes at each offset
    w_key = words[w_start]
    w_key &= LOW_BYTES[w_len]
    del w_start, w_len
    t_key = words[colon + 1]
    t_key &= LOW_BYTES[t_len]
    return colon, w_key, t_key


def _names(key: np.ndarray) -> tuple[np.ndarray, list[str]]:
    """Codes in order of first appearance and the strings of 64-bit keys (no NUL in the text, so
    a key is its string's bytes, little-endian)."""
    codes, uniques = factorize_keys(key)
    return codes, [int(u).to_bytes(8, "little").rstrip(b"\0").decode("ascii") for u in uniques.tolist()]


def factorize_keys(key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Codes in order of first appearance and the distinct values of a ``uint64`` array.

    Each key gets a slot of a table: itself when all keys are below ``2^18`` (tags of one or two
    bytes), else a hash (``2^18`` slots, then ``2^22``) as long as no two distinct keys share a
    slot -- checked; each slot's first appearance gives its code, in O(n).  Else a sort.
    """
    n = key.size
    if n == 0:
        return np.zeros(0, np.int64), key[:0]
    rows = np.arange(n)
    for bits in (18, 22):
        table = np.zeros(1 << bits, dtype=np.uint64)
        if bits == 18 and int(key.max()) < 1 << bits:
            slot = key.astype(np.int64)
            table[slot] = key
        else:
            slot = (key * _MULT) >> np.uint64(64 - bits)
            table[slot] = key
            if not (table[slot] == key).all():  # two distinct keys share a slot
                continue
        first = np.full(1 << bits, n, dtype=np.int64)
        np.minimum.at(first, slot, rows)
        occupied = np.flatnonzero(first < n)
        occupied = occupied[np.argsort(first[occupied], kind="stable")]  # by first appearance
        code_of = np.zeros(1 << bits, dtype=np.int64)
        code_of[occupied] = np.arange(occupied.size)
        return code_of[slot], table[occupied]
    uniques = np.unique(key)
    codes = np.searchsorted(uniques, key)
    first = np.full(uniques.size, n, dtype=np.int64)
    np.minimum.at(first, codes, rows)
    order = np.argsort(first, kind="stable")
    rank = np.empty(uniques.size, dtype=np.int64)
    rank[order] = np.arange(uniques.size)
    return rank[codes], uniques[order]
