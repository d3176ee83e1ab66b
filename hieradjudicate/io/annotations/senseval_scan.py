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

import numpy as np

from hieradjudicate.core.arrays import has_duplicate_u64
from hieradjudicate.core.scoring.senseval import MAX_EXAMPLES
from hieradjudicate.io.annotations.bytewords import iter_cover_words, same_bytes
from hieradjudicate.io.annotations.bytewords import token_hash as _hash
from hieradjudicate.io.annotations.bytewords import words_view as _words
from hieradjudicate.io.annotations.senseval_blocks import BLOCK_BYTES, Filled, Tables, Weights, block_ends, scan_block
from hieradjudicate.io.textfile import max_input_bytes, max_line_bytes

_MIX = np.uint64(0x9E3779B97F4A7C15)
_HEAD = 65536


class Scanned:
    """One clean Senseval file: lines as byte ranges of ``data``, tags as codes (one set).

    ``item``/``tag``/``weight`` are per label, as in an
    :class:`~hieradjudicate.core.records.AnnotationSource` (``item`` = line index);
    ``weight`` is NaN for a whole line when any of its tags has none.  (A plain class, not a
    dataclass: ``score`` imports it at every start, and a dataclass costs milliseconds to make.)
    """

    def __init__(self, path: str, set_name: str, data: bytearray, lexelts: list[str], line_lexelt: np.ndarray,
                 inst_start: np.ndarray, inst_len: np.ndarray, tags: list[str], item: np.ndarray, tag: np.ndarray,
                 weight: np.ndarray) -> None:
        self.path, self.set_name = path, set_name
        self.data = data  # the file's bytes and 8 zero bytes (words are read at any offset)
        self.lexelts = lexelts  # distinct, in order of first appearance
        self.line_lexelt = line_lexelt  # per line: index into lexelts
        self.inst_start, self.inst_len = inst_start, inst_len
        self.tags, self.item, self.tag, self.weight = tags, item, tag, weight
        self.n_items = int(inst_start.size)  # lines
        self.join_index: KeyIndex | None = None  # the key's side of a join, made once (score_file)

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


class _Unclean(Exception):
    """A file that is not clean (the strict reader reads it and names why)."""


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
    if _comment(data, st.st_size):
        return None
    return data


def _comment(data: bytearray, end: int) -> bool:
    """Whether ``data[:end]`` holds a ``!!`` comment (memchr finds no '!' at once)."""
    return data.find(b"!", 0, end) >= 0 and data.find(b"!!", 0, end) >= 0


def _is_senseval(head: bytes, whole: bool, path: str) -> bool:
    """Whether a file whose first bytes are ``head`` (``whole``: all of it) is Senseval annotations."""
    from hieradjudicate.io.annotations.read import detect_annotation_format
    from hieradjudicate.io.annotations.sniffing import is_uima

    if not head.isascii() or is_uima(head):
        return False
    if not whole:
        head = head[: head.rfind(b"\n") + 1]
    return detect_annotation_format(head.decode("ascii"), path) == "senseval"


def read_clean_bytes(path: str) -> bytearray | None:
    """The bytes of ``path`` and 8 zero bytes, read once, for :func:`scan_senseval`; ``None`` when
    the file cannot be clean (not a regular file, too large, a ``!!`` comment)."""
    return _read_clean_bytes(path)


def scan_senseval(path: str, set_name: str, data: bytearray | None = None) -> Scanned | None:
    """Read a clean Senseval file (see the module docstring); ``None`` when it is not clean.
    ``data``: its :func:`read_clean_bytes` when the caller has read them (not read again).
    Scanned a block of lines at a time (:mod:`~hieradjudicate.io.annotations.senseval_blocks`):
    the temporaries are a block's size, the arrays kept the file's."""
    data = _read_clean_bytes(path) if data is None else data
    if data is None:
        return None
    n = len(data) - 8
    if not _is_senseval(bytes(data[:_HEAD]), n <= _HEAD, path):
        return None
    b = np.frombuffer(data, dtype=np.uint8, count=n)
    words = _words(data)
    tables = Tables()
    lines, labels, weights = Filled(np.int32, np.int32, np.int32), Filled(np.int32, np.int32), Weights()
    for lo, hi in block_ends(data, 0, n, BLOCK_BYTES):
        got = scan_block(data, b, words, lo, hi, hi == n, tables, _hash)
        if got is None:
            return None
        got[3][:] += lines.size  # the block's lines to the file's
        lines.add(got[:3], hi / n)
        labels.add(got[3:5], hi / n)
        weights.add(got[5], hi / n)
    if not lines.size:
        return None
    line_lexelt, inst_start, inst_len = lines.arrays()
    item, tag = labels.arrays()
    weight = weights.array()
    return Scanned(path, set_name, data, tables.lexelts, line_lexelt, inst_start, inst_len, tables.tags.names,
                   item, tag, weight)


def _chunks(path: str, size: int):
    """The file at ``path`` read once, in blocks of whole lines: ``(buf, end, last)`` with the
    block's bytes at ``buf[:end]`` and at least 8 bytes after them (zeros after the file's last).
    Raises :class:`_Unclean` for a file that cannot be clean (not a regular file, too large, changed
    while read, a ``!!`` comment, a line longer than the limit)."""
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode) or not 0 < st.st_size <= max_input_bytes():
            raise _Unclean
        with open(path, "rb") as fh:
            # one buffer, reused: a block is the caller's until it asks for the next one
            buf, kept, total = bytearray(size + 8), 0, 0  # kept: bytes of a cut line at its start
            while True:
                want = min(size, st.st_size - total)
                if len(buf) < kept + want + 8:  # a line longer than a block so far
                    buf.extend(bytes(kept + want + 8 - len(buf)))
                if fh.readinto(memoryview(buf)[kept: kept + want]) != want:
                    raise _Unclean  # the file changed while read
                total += want
                end = kept + want
                if total == st.st_size:
                    buf[end: end + 8] = bytes(8)  # zeros after the file's last byte
                    if fh.read(1) or _comment(buf, end):
                        raise _Unclean
                    yield buf, end, True
                    return
                cut = buf.rfind(b"\n", 0, end) + 1
                if cut == 0 and end > max_line_bytes():
                    raise _Unclean
                if cut:
                    if _comment(buf, cut):
                        raise _Unclean
                    yield buf, cut, False
                kept = end - cut
                buf[:kept] = buf[cut:end]
    except OSError:
        raise _Unclean from None  # the strict reader names it


class KeyIndex:
    """The key's side of a join: each line's lexelt code (into the key's lexelts, sorted) and,
    when first needed, its (lexelt, instance) hash sorted for look-ups."""

    def __init__(self, key: Scanned) -> None:
        self.key = key
        self.lexelts = sorted(key.lexelts)
        self.code = {s: i for i, s in enumerate(self.lexelts)}
        self.klex = np.array([self.code[s] for s in key.lexelts], dtype=np.int32)[key.line_lexelt]
        self.words = _words(key.data)
        self._sorted: tuple[np.ndarray, np.ndarray] | None = None
        self._unique: bool | None = None
        self._comb: np.ndarray | None = None  # line hashes kept so far (lines 0 .. _filled - 1)
        self._filled = 0

    def note_hash(self, at: int, h: np.ndarray) -> None:
        """Keep the instance hashes ``h`` of key lines ``at, at + 1, ...`` (made while an answer
        block in the key's order was compared with them) when they continue those kept."""
        if at != self._filled:
            return
        if self._comb is None:
            self._comb = np.empty(self.klex.size, dtype=np.uint64)
        got = self._comb[at: at + h.size]
        got[:] = self.klex[at: at + h.size]
        got *= _MIX
        got += h
        self._filled += h.size

    def comb(self) -> np.ndarray:
        """The key's line hashes (lexelt and instance): those kept and the rest made here, a block
        of lines at a time.  The caller owns the array (it may sort it)."""
        key = self.key
        comb = np.empty(self.klex.size, dtype=np.uint64) if self._comb is None else self._comb
        step = 1 << 16  # lines hashed at once (a hash is the token's own, whatever its block)
        for at in range(self._filled, comb.size, step):
            rows = slice(at, at + step)
            got = comb[rows]
            got[:] = self.klex[rows]
            got *= _MIX
            start = key.inst_start[rows].astype(np.int64)  # (int64: numpy gathers through it fastest)
            got += _hash(iter_cover_words(self.words, start, key.inst_len[rows]), key.inst_len[rows])
        self._comb, self._filled = None, 0
        return comb

    def table(self) -> tuple[np.ndarray, np.ndarray] | None:
        """The key's line hashes sorted, and the line of each; ``None`` when two lines share one
        (maybe a duplicate instance: the strict reader warns)."""
        if self._sorted is None and self._unique is not False:
            comb = self.comb()
            order = np.argsort(comb, kind="stable")
            comb = comb[order]
            self._unique = not bool(np.any(comb[1:] == comb[:-1]))
            self._sorted = (comb, order) if self._unique else None
        return self._sorted

    def unique(self) -> bool:
        """Whether no two key lines share a hash (so no instance is named twice)."""
        if self._unique is None:
            self._unique = not has_duplicate_u64(self.comb())
        return self._unique


def _compared(words_a: np.ndarray, a: np.ndarray, words_b: np.ndarray, b: np.ndarray, length: np.ndarray,
              same: list[bool]):
    """The ``b`` tokens' :func:`iter_cover_words`, each step compared with the ``a`` tokens' on the
    way: ``same[0]`` ends ``False`` when a token differs (:func:`same_bytes` and the reads of a hash
    of ``b`` at once)."""
    for x, y in zip(iter_cover_words(words_a, a, length), iter_cover_words(words_b, b, length)):
        if same[0] and not np.array_equal(x, y):
            same[0] = False
        yield y


class _Join:
    """Answer blocks joined to the key one at a time (:meth:`add`), every hash match confirmed
    byte for byte; what each block leaves is its key lines and labels."""

    def __init__(self, index: KeyIndex) -> None:
        self.index = index
        self.kidx = Filled(np.int32)
        self.seen = np.zeros(index.klex.size, dtype=bool)  # key lines answered
        self.hits = 0
        self.missed: list[np.ndarray] = []  # hashes of the lines not in the key (a duplicate?)
        self.unknown: dict[int, tuple[str, str]] = {}  # the first few of those, named
        self.lines = 0

    def add(self, data, words, lexelts: list[str], line_lexelt: np.ndarray, inst_start: np.ndarray,
            inst_len: np.ndarray, done: float = 1.0) -> bool:
        """Join one block's lines (``lexelts``: the answer file's, for ``line_lexelt``; ``done``: the
        share of the file read with this block); ``False`` when it cannot be done exactly (a hash
        collision)."""
        ix = self.index
        key = ix.key
        a_map = np.array([ix.code.get(s, -1) for s in lexelts], dtype=np.int64)
        alex = a_map[line_lexelt]
        n, at = alex.size, self.lines
        rows = slice(at, at + n)
        same = [False]
        if (at + n <= ix.klex.size and np.array_equal(alex, ix.klex[rows])
                and np.array_equal(inst_len, key.inst_len[rows])):
            # compared byte for byte with the key's lines, whose hashes are made from the same reads
            same[0] = True
            words_k = _compared(words, inst_start, ix.words, key.inst_start[rows].astype(np.int64), inst_len, same)
            ix.note_hash(at, _hash(words_k, inst_len))
            for _ in words_k:  # whatever the hash did not read is compared too
                pass
        if same[0]:
            kidx = np.arange(at, at + n, dtype=np.int32)  # the key's lines, in its order: no hash needed
            k_hit = kidx
        else:
            table = ix.table()
            if table is None:
                return False
            k_sorted, order = table
            a_comb = alex.astype(np.uint64)  # -1 (not in the key) wraps: no key line has it
            a_comb *= _MIX
            a_comb += _hash(iter_cover_words(words, inst_start, inst_len), inst_len)
            pos = np.minimum(np.searchsorted(k_sorted, a_comb), k_sorted.size - 1)
            kidx = np.where(k_sorted[pos] == a_comb, order[pos], -1)
            del pos
            hit = np.flatnonzero(kidx >= 0)
            k_hit = kidx[hit]
            if not (np.array_equal(alex[hit], ix.klex[k_hit]) and np.array_equal(inst_len[hit], key.inst_len[k_hit])
                    and same_bytes(words, inst_start[hit], key.inst_start[k_hit].astype(np.int64), inst_len[hit],
                                   ix.words)):
                return False  # a hash collision
            miss = np.flatnonzero(kidx < 0)
            if miss.size:
                self.missed.append(a_comb[miss])
                for i in miss[: max(0, MAX_EXAMPLES - len(self.unknown))].tolist():
                    a, b = int(inst_start[i]), int(inst_len[i])
                    self.unknown[at + i] = (lexelts[line_lexelt[i]], data[a: a + b].decode("ascii"))
        self.seen[k_hit] = True
        self.hits += k_hit.size
        self.kidx.add((kidx,), done)
        self.lines += n
        return True

    def result(self) -> np.ndarray | None:
        """The key line of every answer line (-1: not in the key); ``None`` when a file names an
        instance twice (or two ids share a hash): the strict reader then reports or decides."""
        if not self.index.unique() or int(np.count_nonzero(self.seen)) != self.hits:
            return None
        if self.missed:
            if has_duplicate_u64(np.concatenate(self.missed)):
                return None
        return self.kidx.arrays()[0]


def align(key: Scanned, ans: Scanned) -> tuple[np.ndarray, np.ndarray, list[str]] | None:
    """Join the answers to the key on (lexelt, instance), exactly.

    Returns the key lexelt code per key line (codes index the key's lexelts
    sorted), the key line of each answer line (-1 = not in the key) and those
    sorted lexelts -- what the strict scorer's alignment gives.  ``None`` when
    a file names an instance twice or two different ids share a hash: the
    strict reader then reports or decides.
    """
    index = KeyIndex(key)
    join = _Join(index)
    if not join.add(ans.data, _words(ans.data), ans.lexelts, ans.line_lexelt, ans.inst_start, ans.inst_len):
        return None
    kidx = join.result()
    return None if kidx is None else (index.klex, kidx, index.lexelts)


class JoinedAnswers:
    """An answer file streamed against a key: its labels (as in :class:`Scanned`), the key line of
    each of its lines (-1: not in the key) and the first few unknown lines named."""

    def __init__(self, path: str, set_name: str, tags: list[str], item: np.ndarray, tag: np.ndarray,
                 weight: np.ndarray, n_items: int, kidx: np.ndarray, unknown: dict[int, tuple[str, str]]) -> None:
        self.path, self.set_name, self.tags = path, set_name, tags
        self.item, self.tag, self.weight, self.n_items = item, tag, weight, n_items
        self.kidx, self.unknown = kidx, unknown


def join_answers(path: str, set_name: str, index: KeyIndex, head_ok) -> JoinedAnswers | None:
    """The answer file at ``path`` read once, a block at a time, each block scanned and joined to
    the key and its bytes dropped: only the labels and the join are kept.  ``head_ok(head)``: whether
    the file's first bytes may be annotations at all.  ``None`` when the file is not clean or the
    join is not exact (the strict route decides)."""
    tables, join = Tables(), _Join(index)
    labels, weights = Filled(np.int32, np.int32), Weights()
    try:
        size = os.stat(path).st_size
        done = 0
        for k, (buf, end, last) in enumerate(_chunks(path, BLOCK_BYTES)):
            if k == 0:
                head = bytes(buf[: min(_HEAD, end)])
                if not (_is_senseval(head, last and end <= _HEAD, path) and head_ok(head)):
                    return None
            b, words = np.frombuffer(buf, dtype=np.uint8, count=end), _words(buf)
            got = scan_block(buf, b, words, 0, end, last, tables, _hash)
            if got is None:
                return None
            line_lexelt, inst_start, inst_len, item, tag, weight = got
            item += join.lines
            done += end
            if not join.add(buf, words, tables.lexelts, line_lexelt, inst_start, inst_len, min(1.0, done / size)):
                return None
            labels.add((item, tag), min(1.0, done / size))
            weights.add(weight, min(1.0, done / size))
            del buf, b, words, got, line_lexelt, inst_start, inst_len, item, tag, weight
    except (_Unclean, OSError):
        return None
    kidx = join.result()
    if kidx is None:
        return None
    cols = labels.arrays()
    return JoinedAnswers(path, set_name, tables.tags.names, cols[0], cols[1], weights.array(), join.lines, kidx,
                         join.unknown)
