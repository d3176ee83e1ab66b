"""One block of a clean Senseval file -- whole lines -- scanned with a few array passes.

:mod:`~hieradjudicate.io.annotations.senseval_scan` reads a file as a run of blocks of about
:data:`BLOCK_BYTES` each (cut after a newline), so every temporary array is the size of a block,
not of the file: a 394,400-line key scans with a few MiB of temporaries, and an answer file is
scanned, joined and dropped a block at a time.  Lexelts and tags get file-wide codes through
:class:`Tables` (a dictionary of the few thousand distinct tokens, each parsed once).

A block is refused (``None``) on anything a clean file may not hold; see
:mod:`~hieradjudicate.io.annotations.senseval_scan` for the rules.
"""

from __future__ import annotations

import numpy as np

from hieradjudicate.core.arrays import sorted_unique
from hieradjudicate.io.annotations.build import TagTable
from hieradjudicate.io.annotations.bytewords import iter_cover_words, token_hash
from hieradjudicate.io.annotations.senseval import split_tag
from hieradjudicate.io.textfile import max_id_chars, max_line_bytes

#: bytes per block (whole lines): small enough for its temporaries to stay in the cache
BLOCK_BYTES = 1 << 20


class Tables:
    """The distinct lexelts and tag tokens of one file, over its blocks, with file-wide codes
    (each in order of first appearance)."""

    def __init__(self) -> None:
        self.lexelt_index: dict[str, int] = {}
        self.lexelts: list[str] = []
        self.tags = TagTable()
        self._token: dict[str, tuple[int, float]] = {}  # tag[/weight] token -> (tag code, weight)

    def lexelt_codes(self, names: list[str]) -> np.ndarray:
        out = np.empty(len(names), dtype=np.int32)
        for k, s in enumerate(names):
            c = self.lexelt_index.get(s)
            if c is None:
                c = self.lexelt_index[s] = len(self.lexelts)
                self.lexelts.append(s)
            out[k] = c
        return out

    def token_codes(self, tokens: list[str]) -> tuple[np.ndarray, np.ndarray] | None:
        """Tag code and weight (NaN: none given) of each ``tag[/weight]`` token; ``None`` when one
        is not a valid tag (an empty tag, a bad weight)."""
        tag = np.empty(len(tokens), dtype=np.int64)
        weight = np.empty(len(tokens))
        seen = self._token
        for k, token in enumerate(tokens):
            got = seen.get(token)
            if got is None:
                t, w, problem, _ = split_tag(token)
                if problem is not None or not t:
                    return None
                got = seen[token] = (self.tags.code(t), w)
            tag[k], weight[k] = got
        return tag, weight


def block_ends(data, lo: int, hi: int, size: int = BLOCK_BYTES):
    """``(start, end)`` of the blocks of ``data[lo:hi]``: each ends after a newline (the last one
    at ``hi``)."""
    while lo < hi:
        cut = data.find(b"\n", min(lo + size, hi) - 1, hi) if lo + size < hi else -1
        end = hi if cut < 0 else cut + 1
        yield lo, end
        lo = end


def _factorize(parts: list[np.ndarray], length: np.ndarray, hash_parts) -> tuple[np.ndarray, np.ndarray] | None:
    """Codes of the tokens (one per distinct token, in no particular order) and one token index
    per code; ``None`` when two different tokens share a hash (never for tokens of 8 bytes or
    fewer, whose word is the token itself).  ``parts`` are the tokens' :func:`iter_cover_words`."""
    key = parts[0] if len(parts) == 1 else hash_parts(parts, length)
    uniq = sorted_unique(key)
    codes = np.searchsorted(uniq, key)
    del key
    rep = np.empty(uniq.size, dtype=np.int64)
    rep[codes] = np.arange(codes.size)  # any one token of each code: all of them are compared
    if len(parts) > 1:  # every token equal to its code's representative: its length, word by word
        each = rep[codes]
        if not (np.array_equal(length, length[each]) and all(np.array_equal(m, m[each]) for m in parts)):
            return None
    return codes, rep


def _distinct(data, words: np.ndarray, start: np.ndarray, length: np.ndarray, hash_parts
              ) -> tuple[np.ndarray, list[str]] | None:
    """Codes of the tokens and the distinct tokens, decoded; ``None`` when two different tokens
    share a hash.  Tokens in runs (lexelts of a file grouped by word) are compared with their
    neighbour only, and each run's token decoded."""
    n = start.size
    parts = list(iter_cover_words(words, start, length))
    change = length[1:] != length[:-1]
    for m in parts:
        change |= m[1:] != m[:-1]
    heads = np.flatnonzero(np.concatenate(([True], change)))
    del change
    if heads.size <= max(256, n // 16):
        table: dict[str, int] = {}
        head_names = [data[a: a + b].decode("ascii") for a, b in zip(start[heads].tolist(), length[heads].tolist())]
        head_codes = np.fromiter((table.setdefault(t, len(table)) for t in head_names), np.int32, heads.size)
        return np.repeat(head_codes, np.diff(np.append(heads, n))), list(table)
    got = _factorize(parts, length, hash_parts)
    if got is None:
        return None
    codes, rep = got
    names = [data[a: a + b].decode("ascii") for a, b in zip(start[rep].tolist(), length[rep].tolist())]
    return codes, names


def _lines(lo: int, tok_end: np.ndarray, is_nl: np.ndarray):
    """Per line, from the ends of its tokens (``is_nl``: a line's last one): the lexelt's and the
    instance's starts and lengths, and per tag its start, length and line (``item``); ``None``
    when a line has fewer than three tokens or a token or line is too long."""
    tok_start = np.empty_like(tok_end)
    tok_start[0] = lo
    tok_start[1:] = tok_end[:-1] + 1
    tok_len = tok_end - tok_start
    last = np.flatnonzero(is_nl)  # each line's last token
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
        tag_tok = np.arange(item.size) + np.repeat(first + 2 - (np.cumsum(n_tags) - n_tags), n_tags)
    return (tok_start[first], tok_len[first], tok_start[first + 1], tok_len[first + 1],
            tok_start[tag_tok], tok_len[tag_tok], item)


def _columns(b: np.ndarray, lo: int, hi: int, last_block: bool):
    """The token ranges of block ``[lo, hi)`` (see :func:`_lines`), or ``None`` when the block is
    not clean: a leading or trailing space, an empty line or token, a byte that is not printable
    ASCII, a short line, a token or line too long."""
    blk = b[lo:hi]
    sep = np.flatnonzero(blk <= 32)  # (int64: numpy gathers through int64 positions fastest)
    if sep.size < 2 or sep[0] == 0 or bool(np.any(np.diff(sep) == 1)):
        return None  # a leading space, an empty line or token
    kind = blk[sep]
    is_nl = kind == 10
    if not bool((is_nl | (kind == 32)).all()) or int(blk.max()) > 126:
        return None  # a tab, CR or other control byte, DEL, or a byte that is not ASCII
    del kind, blk
    sep += lo
    if int(sep[-1]) == hi - 1:  # the block's last newline
        if not is_nl[-1]:
            return None  # a trailing space
        tok_end = sep
    elif not last_block:
        return None  # a block ends after a newline
    else:
        tok_end, is_nl = np.append(sep, hi), np.append(is_nl, True)
    m = tok_end.size
    if m % 3 == 0 and np.count_nonzero(is_nl) == m // 3 and bool(is_nl[2::3].all()):
        # every line "lexelt instance tag" (the usual answer file): its tokens by column, no gathers
        end = tok_end.reshape(-1, 3)
        line_start = np.empty(end.shape[0], dtype=np.int64)
        line_start[0] = lo
        line_start[1:] = end[:-1, 2] + 1
        inst_start, tag_start = end[:, 0] + 1, end[:, 1] + 1
        lex_len, inst_len, tag_len = end[:, 0] - line_start, end[:, 1] - inst_start, end[:, 2] - tag_start
        longest = max(int(lex_len.max()), int(inst_len.max()), int(tag_len.max()))
        if longest > max_id_chars() or int((end[:, 2] - line_start).max()) > max_line_bytes():
            return None
        return (line_start, lex_len, inst_start, inst_len, tag_start, tag_len,
                np.arange(end.shape[0], dtype=np.int64))
    return _lines(lo, tok_end, is_nl)


def scan_block(data, b: np.ndarray, words: np.ndarray, lo: int, hi: int, last_block: bool, tables: Tables,
               hash_parts=token_hash):
    """Block ``[lo, hi)`` of ``data`` (``b``: its bytes as uint8, ``words``: its
    :func:`~hieradjudicate.io.annotations.bytewords.words_view`), whole lines, as arrays:
    ``(line_lexelt, inst_start, inst_len, item, tag, weight)`` with ``item`` the line within the
    block and codes from ``tables``; ``None`` when the block is not clean."""
    got = _columns(b, lo, hi, last_block)
    if got is None:
        return None
    lex_start, lex_len, inst_start, inst_len, tag_start, tag_len, item = got
    lex = _distinct(data, words, lex_start, lex_len, hash_parts)
    if lex is None:
        return None
    line_lexelt = tables.lexelt_codes(lex[1])[lex[0]]
    tok = _distinct(data, words, tag_start, tag_len, hash_parts)
    if tok is None:
        return None
    tok_codes, tokens = tok
    parsed = tables.token_codes(tokens)
    if parsed is None:
        return None
    weight = parsed[1][tok_codes]
    nan = np.isnan(weight)
    if nan.any() and not nan.all():  # one unweighted tag makes the whole answer unweighted
        weight[(np.bincount(item, weights=nan, minlength=inst_start.size) > 0)[item]] = np.nan
    return line_lexelt, inst_start, inst_len, item, parsed[0][tok_codes], weight


class Filled:
    """Columns of one length filled block by block into one array each, sized from an estimate of
    the final length and grown only when it was short: a block's part is copied in and dropped,
    so the whole file's columns are never held beside their parts (nor scattered between them)."""

    def __init__(self, *dtypes) -> None:
        self.dtypes = dtypes
        self.cols: list[np.ndarray] | None = None
        self.size = 0

    def add(self, parts, done: float) -> None:
        """Append ``parts`` (one array per column, of one length); ``done``: the share of the file
        read so far (0 < done <= 1), for the estimate."""
        k = parts[0].size
        end = self.size + k
        if self.cols is None or end > self.cols[0].size:
            cap = max(end, int(end / done * 1.05) + 1024)  # pages never written are never resident
            grown = [np.empty(cap, dtype=dt) for dt in self.dtypes]
            if self.cols is not None:
                for new, old in zip(grown, self.cols):
                    new[: self.size] = old[: self.size]
            self.cols = grown
        for col, p in zip(self.cols, parts):
            col[self.size: end] = p
        self.size = end

    def arrays(self) -> list[np.ndarray]:
        if self.cols is None:
            return [np.empty(0, dtype=dt) for dt in self.dtypes]
        return [c[: self.size] for c in self.cols]


class Weights:
    """A weight column filled block by block; while no weight is given (NaN: the usual file)
    none is stored, and the column is then one NaN seen through a zero stride."""

    def __init__(self) -> None:
        self.size = 0
        self.filled: Filled | None = None

    def add(self, weight: np.ndarray, done: float) -> None:
        if self.filled is None:
            if bool(np.isnan(weight).all()):
                self.size += weight.size
                return
            self.filled = Filled(np.float64)
            if self.size:
                self.filled.add((np.full(self.size, np.nan),), done)
        self.filled.add((weight,), done)
        self.size += weight.size

    def array(self) -> np.ndarray:
        if self.filled is None:
            return np.broadcast_to(np.float64(np.nan), (self.size,))
        return self.filled.arrays()[0]
