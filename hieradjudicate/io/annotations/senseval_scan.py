"""Clean Senseval keys and answers read as byte ranges: ``scorer2``'s speed without its leniency.

``score`` with a scorer2 policy needs, per line, a lexelt code, an instance to
join on and the tag codes -- never the instance id as a Python string.  A file
that is *clean* passes every check of the strict reader
(:func:`~hieradjudicate.io.annotations.read.read_annotations`) by construction:

* a regular, uncompressed file within ``HIERADJ_MAX_INPUT_BYTES``, lines within
  ``HIERADJ_MAX_LINE_BYTES``, tokens within ``HIERADJ_MAX_ID_CHARS``;
* printable ASCII, spaces and newlines only (no BOM, CR, tab, control byte or
  non-ASCII character, so UTF-8 decoding is the identity);
* detected as Senseval by the same detector, no ``!!`` comment anywhere;
* every line ``lexelt instance tag[/weight] ...`` with single spaces, no empty
  line, every weight valid, no (lexelt, instance) twice.

Such a file is read here with a few array passes over its bytes: ids are
hashed (64-bit, 8 bytes per step), distinct tags and lexelts -- a few thousand
-- are decoded and parsed once, and every equality a hash suggests is then
confirmed byte for byte.  Whenever a file is not clean, or two different ids
share a hash, :func:`scan_senseval` or :func:`align` returns ``None`` and the
caller reads the file with the strict reader, which names every problem
exactly.  So this is a faster route to the same result, never a laxer one.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field

import numpy as np

from hieradjudicate.io.annotations.build import TagTable
from hieradjudicate.io.annotations.bytewords import iter_cover_words, same_bytes
from hieradjudicate.io.annotations.bytewords import token_hash as _hash
from hieradjudicate.io.annotations.bytewords import words_view as _words
from hieradjudicate.io.annotations.senseval import split_tag
from hieradjudicate.io.textfile import max_id_chars, max_input_bytes, max_line_bytes

_MIX = np.uint64(0x9E3779B97F4A7C15)
_BLOCK = 1 << 16  # lines compared and hashed at once (a hash is the token's own, whatever its block)
_HEAD = 65536


@dataclass
class Scanned:
    """One clean Senseval file: lines as byte ranges of ``data``, tags as codes (one set).

    ``item``/``tag``/``weight`` are per label, as in an
    :class:`~hieradjudicate.core.records.AnnotationSource` (``item`` = line index);
    ``weight`` is NaN for a whole line when any of its tags has none.
    """

    path: str
    set_name: str
    data: bytearray  # the file's bytes and 8 zero bytes (words are read at any offset)
    lexelts: list[str]  # distinct, in order of first appearance
    line_lexelt: np.ndarray  # per line: index into lexelts
    inst_start: np.ndarray
    inst_len: np.ndarray
    tags: list[str]
    item: np.ndarray
    tag: np.ndarray
    weight: np.ndarray

    n_items: int = field(init=False)  # lines (kept when the per-line arrays are dropped)
    _inst_hash: np.ndarray | None = field(init=False, default=None, repr=False)

    def __post_init__(self) -> None:
        self.n_items = int(self.inst_start.size)

    @property
    def inst_hash(self) -> np.ndarray:
        """A 64-bit hash of each line's instance id, made when first asked for (a file whose lines
        are the key's, in its order, is joined without one)."""
        if self._inst_hash is None:
            words = _words(self.data)
            self._inst_hash = _hash(iter_cover_words(words, self.inst_start, self.inst_len), self.inst_len)
        return self._inst_hash

    @property
    def line(self) -> np.ndarray:
        """1-based line of each label (a clean file has no empty line)."""
        return self.item + 1

    def instances(self, rows) -> list[str]:
        """The instance ids of lines ``rows``, decoded."""
        d, s, n = self.data, self.inst_start, self.inst_len
        return [d[a: a + b].decode("ascii") for a, b in zip(s[rows].tolist(), n[rows].tolist())]

    def lexelt_of(self, rows) -> list[str]:
        return [self.lexelts[c] for c in self.line_lexelt[rows].tolist()]

    def keep_labels_only(self) -> None:
        """Drop the bytes and the per-line ids once joined (only the labels are scored)."""
        self.data = bytearray(8)
        self.inst_start = self.inst_len = self.line_lexelt = np.zeros(0, np.int32)
        self._inst_hash = None


def _factorize(parts: list[np.ndarray], length: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Codes of the tokens in order of first appearance, and one token index per code;
    ``None`` when two different tokens share a hash (never for tokens of 8 bytes or fewer,
    whose word is the token itself).  ``parts`` are the tokens' :func:`iter_cover_words`."""
    key = parts[0] if len(parts) == 1 else _hash(parts, length)
    _, first, inv = np.unique(key, return_index=True, return_inverse=True)
    del key, _
    inv = inv.reshape(-1)
    if len(parts) > 1:  # every token equal to the first one of its hash: its length, word by word
        rep = first[inv]
        if not (np.array_equal(length, length[rep]) and all(np.array_equal(m, m[rep]) for m in parts)):
            return None
    by_appearance = np.argsort(first, kind="stable")
    rank = np.empty_like(by_appearance)
    rank[by_appearance] = np.arange(by_appearance.size)
    return rank[inv], first[by_appearance]


def _distinct(data: bytearray, words: np.ndarray, start: np.ndarray, length: np.ndarray
              ) -> tuple[np.ndarray, list[str]] | None:
    """Codes of the tokens (order of first appearance) and the distinct tokens, decoded;
    ``None`` when two different tokens share a hash.  Tokens in runs (lexelts of a file
    grouped by word) are compared with their neighbour only, and each run's token decoded."""
    n = start.size
    parts = list(iter_cover_words(words, start, length))
    change = length[1:] != length[:-1]
    for m in parts:
        change |= m[1:] != m[:-1]
    heads = np.flatnonzero(np.concatenate(([True], change)))
    del change
    if heads.size <= max(4096, n // 16):
        table: dict[str, int] = {}
        head_names = [data[a: a + b].decode("ascii") for a, b in zip(start[heads].tolist(), length[heads].tolist())]
        head_codes = np.fromiter((table.setdefault(t, len(table)) for t in head_names), np.int32, heads.size)
        return np.repeat(head_codes, np.diff(np.append(heads, n))), list(table)
    got = _factorize(parts, length)
    if got is None:
        return None
    codes, rep = got
    names = [data[a: a + b].decode("ascii") for a, b in zip(start[rep].tolist(), length[rep].tolist())]
    return codes, names


def _read_clean_bytes(path: str) -> bytearray | None:
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode) or not 0 < st.st_size <= max_input_bytes():
            return None
        data = bytearray(st.st_size + 8)
        with open(path, "rb") as fh:
            got = fh.readinto(memoryview(data)[: st.st_size])
            if got != st.st_size or fh.read(1):
                return None  # the file changed while read
    except OSError:
        return None  # the strict reader names it
    if data.find(b"!") >= 0 and b"!!" in data:  # a comment (memchr finds no '!' at once)
        return None
    return data


def _is_senseval(data: bytearray, path: str) -> bool:
    from hieradjudicate.io.annotations.read import detect_annotation_format
    from hieradjudicate.io.annotations.sniffing import is_uima

    head = bytes(data[:_HEAD])
    if not head.isascii() or is_uima(head):
        return False
    if len(data) - 8 > _HEAD:
        head = head[: head.rfind(b"\n") + 1]
    return detect_annotation_format(head.decode("ascii"), path) == "senseval"


def _separators(b: np.ndarray) -> np.ndarray:
    """Positions of the bytes <= 32 (spaces, newlines and any control byte) as int32, found a
    block at a time so that no file-sized temporary is made."""
    block = 1 << 20
    parts = [np.flatnonzero(b[at: at + block] <= 32).astype(np.int32) + np.int32(at)
             for at in range(0, b.size, block)]
    return np.concatenate(parts) if parts else np.zeros(0, np.int32)


def _three_columns(end: np.ndarray):
    """:func:`_lines` for a file of three tokens a line, from each line's token ends (n x 3)."""
    line_start = np.empty(end.shape[0], dtype=np.int32)
    line_start[0] = 0
    line_start[1:] = end[:-1, 2] + 1
    inst_start, tag_start = end[:, 0] + 1, end[:, 1] + 1
    lex_len, inst_len, tag_len = end[:, 0] - line_start, end[:, 1] - inst_start, end[:, 2] - tag_start
    longest = max(int(lex_len.max()), int(inst_len.max()), int(tag_len.max()))
    if longest > max_id_chars() or int((end[:, 2] - line_start).max()) > max_line_bytes():
        return None
    return line_start, lex_len, inst_start, inst_len, tag_start, tag_len, np.arange(end.shape[0], dtype=np.int64)


def _lines(tok_end: np.ndarray, is_nl: np.ndarray):
    """Per line, from the ends of its tokens (``is_nl``: a line's last one): the lexelt's and the
    instance's starts and lengths, and per tag its start, length and line (``item``); ``None``
    when a line has fewer than three tokens or a token or line is too long."""
    tok_start = np.empty_like(tok_end)
    tok_start[0] = 0
    tok_start[1:] = tok_end[:-1] + 1
    tok_len = tok_end - tok_start
    last = np.flatnonzero(is_nl).astype(np.int32)  # each line's last token
    first = np.empty_like(last)
    first[0] = 0
    first[1:] = last[:-1] + 1
    count = last - first + 1
    if int(count.min()) < 3:
        return None
    if int(tok_len.max()) > max_id_chars() or int((tok_end[last] - tok_start[first]).max()) > max_line_bytes():
        return None
    del last
    n_lines = first.size
    if int(count.max()) == 3:
        tag_tok = first + 2
        item = np.arange(n_lines, dtype=np.int64)
    else:
        n_tags = count - 2
        item = np.repeat(np.arange(n_lines, dtype=np.int64), n_tags)
        tag_tok = (np.arange(item.size, dtype=np.int32)
                   + np.repeat(first + 2 - (np.cumsum(n_tags, dtype=np.int32) - n_tags), n_tags))
    return (tok_start[first], tok_len[first], tok_start[first + 1], tok_len[first + 1],
            tok_start[tag_tok], tok_len[tag_tok], item)


def read_clean_bytes(path: str) -> bytearray | None:
    """The bytes of ``path`` and 8 zero bytes, read once, for :func:`scan_senseval`; ``None`` when
    the file cannot be clean (not a regular file, too large, a ``!!`` comment)."""
    return _read_clean_bytes(path)


def scan_senseval(path: str, set_name: str, data: bytearray | None = None) -> Scanned | None:
    """Read a clean Senseval file (see the module docstring); ``None`` when it is not clean.
    ``data``: its :func:`read_clean_bytes` when the caller has read them (not read again)."""
    data = _read_clean_bytes(path) if data is None else data
    if data is None or not _is_senseval(data, path):
        return None
    n = len(data) - 8
    b = np.frombuffer(data, dtype=np.uint8, count=n)
    sep = _separators(b)
    if sep.size < 2 or sep[0] == 0 or bool(np.any(np.diff(sep) == 1)):
        return None  # a leading space, an empty line or token
    kind = b[sep]
    is_nl = kind == 10
    if not bool((is_nl | (kind == 32)).all()) or int(b.max()) > 126:
        return None  # a tab, CR or other control byte, DEL, or a byte that is not ASCII
    del kind, b
    if int(sep[-1]) == n - 1:  # the last line's newline
        if not is_nl[-1]:
            return None  # a trailing space
        tok_end = sep
    else:
        tok_end, is_nl = np.append(sep, np.int32(n)), np.append(is_nl, True)
    m = tok_end.size
    if m % 3 == 0 and np.count_nonzero(is_nl) == m // 3 and bool(is_nl[2::3].all()):
        # every line "lexelt instance tag" (the usual answer file): its tokens by column, no gathers
        del is_nl
        got = _three_columns(tok_end.reshape(-1, 3))
    else:
        got = _lines(tok_end, is_nl)
        del is_nl
    del tok_end, sep
    if got is None:
        return None
    lex_start, lex_len, inst_start, inst_len, tag_start, tag_len, item = got
    n_lines = inst_start.size
    words = _words(data)
    lex = _distinct(data, words, lex_start, lex_len)
    del lex_start, lex_len
    if lex is None:
        return None
    line_lexelt, lexelts = lex
    tok = _distinct(data, words, tag_start, tag_len)
    del tag_start, tag_len
    if tok is None:
        return None
    tok_codes, tokens = tok
    table = TagTable()
    t_tag = np.empty(len(tokens), dtype=np.int64)
    t_weight = np.empty(len(tokens))
    for k, token in enumerate(tokens):
        tag, weight, problem, _ = split_tag(token)
        if problem is not None or not tag:
            return None
        t_tag[k], t_weight[k] = table.code(tag), weight
    weight = t_weight[tok_codes]
    nan = np.isnan(weight)
    if nan.any() and not nan.all():  # one unweighted tag makes the whole answer unweighted
        weight[(np.bincount(item, weights=nan, minlength=n_lines) > 0)[item]] = np.nan
    return Scanned(path, set_name, data, lexelts, line_lexelt, inst_start, inst_len, table.names, item,
                   t_tag[tok_codes], weight)


def _compared(words_a: np.ndarray, a: np.ndarray, words_b: np.ndarray, b: np.ndarray, length: np.ndarray,
              same: list[bool]):
    """The ``b`` tokens' :func:`iter_cover_words`, each step compared with the ``a`` tokens' on the
    way: ``same[0]`` ends ``False`` when a token differs (:func:`same_bytes` and the reads of a hash
    of ``b`` at once)."""
    for x, y in zip(iter_cover_words(words_a, a, length), iter_cover_words(words_b, b, length)):
        if same[0] and not np.array_equal(x, y):
            same[0] = False
        yield y


def align(key: Scanned, ans: Scanned) -> tuple[np.ndarray, np.ndarray, list[str]] | None:
    """Join the answers to the key on (lexelt, instance), exactly.

    Returns the key lexelt code per key line (codes index the key's lexelts
    sorted), the key line of each answer line (-1 = not in the key) and those
    sorted lexelts -- what the strict scorer's alignment gives.  ``None`` when
    a file names an instance twice or two different ids share a hash: the
    strict reader then reports or decides.
    """
    lexelts = sorted(key.lexelts)
    code = {s: i for i, s in enumerate(lexelts)}
    k_map = np.array([code[s] for s in key.lexelts], dtype=np.int64)
    a_map = np.array([code.get(s, -1) for s in ans.lexelts], dtype=np.int32)  # only compared here
    klex, alex = k_map[key.line_lexelt], a_map[ans.line_lexelt]
    same = False
    if alex.size == klex.size and np.array_equal(alex, klex) and np.array_equal(ans.inst_len, key.inst_len):
        if key._inst_hash is None:  # the key's hash from the same reads as the comparison, a block at a time
            seen, h = [True], np.empty(klex.size, dtype=np.uint64)
            wa, wk = _words(ans.data), _words(key.data)
            for at in range(0, klex.size, _BLOCK):
                rows = slice(at, at + _BLOCK)
                words = _compared(wa, ans.inst_start[rows], wk, key.inst_start[rows], key.inst_len[rows], seen)
                h[rows] = _hash(words, key.inst_len[rows])
                for _ in words:  # whatever the hash did not read is compared too
                    pass
            key._inst_hash, same = h, seen[0]
        else:
            same = same_bytes(_words(ans.data), ans.inst_start, key.inst_start, ans.inst_len, _words(key.data))
    k_comb = klex.astype(np.uint64)  # key.inst_hash + klex * _MIX, made in place
    k_comb *= _MIX
    k_comb += key.inst_hash
    if same:  # the key's lines, in its order (compared byte for byte: no hash of the answers needed)
        k_comb.sort()
        if bool(np.any(k_comb[1:] == k_comb[:-1])):
            return None  # maybe a duplicate instance: the strict reader warns
        del k_comb
        return klex, np.arange(klex.size, dtype=np.int64), lexelts
    else:
        a_comb = alex.astype(np.uint64)  # -1 (not in the key) wraps: no key line has it
        a_comb *= _MIX
        a_comb += ans.inst_hash
        order = np.argsort(k_comb, kind="stable")
        k_sorted = k_comb[order]
        del k_comb
        if bool(np.any(k_sorted[1:] == k_sorted[:-1])):
            return None
        a_sorted = np.sort(a_comb)
        if bool(np.any(a_sorted[1:] == a_sorted[:-1])):
            return None
        del a_sorted
        pos = np.minimum(np.searchsorted(k_sorted, a_comb), k_sorted.size - 1)
        kidx = np.where(k_sorted[pos] == a_comb, order[pos], -1)
        del pos, order, k_sorted, a_comb
        hit = np.flatnonzero(kidx >= 0)
        k_hit = kidx[hit]
    if not (np.array_equal(alex[hit], klex[k_hit]) and np.array_equal(ans.inst_len[hit], key.inst_len[k_hit])
            and same_bytes(_words(ans.data), ans.inst_start[hit], key.inst_start[k_hit], ans.inst_len[hit],
                           _words(key.data))):
        return None  # a hash collision
    return klex, kidx, lexelts
