"""The Senseval key/answer format: ``lexelt instance tag[/weight] ... [!! comment]``.

Speed matters here (answer files of several hundred thousand lines are read
interactively), so the well-formed bulk of a file is parsed column-wise:
the text is split once into space-separated tokens, the tag tokens are
factorised and only the few *distinct* tag tokens are parsed in Python
(tag, weight, validity).  Lines that look unusual (fewer than three fields,
irregular spacing, other whitespace, a bad weight) take a careful per-line
path so that every error message names its line and column exactly.

Conventions: a comment starts at the first token beginning with ``!!`` and
runs to the end of the line; ``tag/weight`` splits at the *last* ``/``; any
whitespace separates fields.
"""

from __future__ import annotations

import re
import sys
from itertools import count

import numpy as np

from hieradjudicate.core.errors import ProblemLog
from hieradjudicate.io.annotations.build import Parsed, TagTable, factorize, weight_problem
from hieradjudicate.io.annotations.bytewords import iter_masked_words, token_hash, words_view

EXPECTED_LINE = "expected 'lexelt instance_id tag[/weight] ... [!! comment]'"
_COMMENT = re.compile(r"(?:^|\s)!!")
_FIELD = re.compile(r"\S+")
_ASCII_OTHER_WS = "\t\x0b\x0c\x1c\x1d\x1e\x1f"
_OTHER_WS = re.compile(r"[^\S \n]")  # whitespace other than space and newline


def split_tag(token: str) -> tuple[str, float, str | None, int]:
    """Split ``tag[/weight]``; return (tag, weight or NaN, problem or None, column offset)."""
    if "/" not in token:
        return token, float("nan"), None, 0
    tag, _, w = token.rpartition("/")
    if not tag:
        return "", float("nan"), f"empty tag before '/' in {token!r}; expected tag/weight", 0
    problem = weight_problem(w)
    if problem is not None:
        return tag, float("nan"), f"{problem} (in {token!r})", len(tag) + 1
    return tag, float(w), None, 0


def _strip_comments(text: str) -> tuple[str, dict[int, str]]:
    """Cut ``!! comment`` tails off the lines; return the text left and line index -> comment."""
    lines = text.split("\n")
    comments: dict[int, str] = {}
    for i in [i for i, line in enumerate(lines) if "!!" in line]:
        line = lines[i]
        m = _COMMENT.search(line)
        if m is not None:
            comments[i] = line[m.end():].strip()
            lines[i] = line[: m.start()].rstrip()
    return ("\n".join(lines) if comments else text), comments


def _other_whitespace_lines(text: str) -> list[int]:
    """Indices of lines holding whitespace other than space and newline (rare: tabs etc.)."""
    if text.isascii():
        if not any(c in text for c in _ASCII_OTHER_WS):
            return []
    elif _OTHER_WS.search(text) is None:
        return []
    return [i for i, line in enumerate(text.split("\n")) if _OTHER_WS.search(line)]


class _Layout:
    """Where the tokens and lines of a text are, from one pass over its UTF-8 bytes.

    Tokens are the pieces between single spaces and newlines, exactly as
    ``text.replace("\\n", " ").split(" ")`` yields them (empty ones included).
    """

    def __init__(self, text: str) -> None:
        self.data = text.encode("utf-8")
        b = np.frombuffer(self.data, dtype=np.uint8)
        sep = np.flatnonzero((b == 32) | (b == 10))
        is_nl = b[sep] == 10
        n_tok = sep.size + 1
        self.token_line = np.zeros(n_tok, dtype=np.int64)
        np.cumsum(is_nl, out=self.token_line[1:])
        nl = sep[is_nl]
        self.n_lines = nl.size + 1
        self.line_first = np.zeros(self.n_lines, dtype=np.int64)  # first token of each line
        self.line_first[1:] = np.flatnonzero(is_nl) + 1
        self.counts = np.diff(np.append(self.line_first, n_tok))
        self.line_start = np.append(0, nl + 1)  # byte offsets
        self.line_end = np.append(nl, b.size)
        # token k lies between separators k-1 and k: it is empty where they touch
        empty = np.flatnonzero(np.diff(sep) == 1) + 1
        if sep.size and sep[0] == 0:
            empty = np.append(0, empty)
        if sep.size and sep[-1] == b.size - 1:
            empty = np.append(empty, n_tok - 1)
        self.empty_lines = np.unique(self.token_line[empty]) if b.size else np.zeros(1, dtype=np.int64)

    def line(self, i: int) -> str:
        return self.data[self.line_start[i]: self.line_end[i]].decode("utf-8")


def _parse_line(line: str, lineno: int, tags: TagTable, log: ProblemLog) -> tuple[str, str, list[int], list[float]] | None:
    """Parse one unusual line with exact error messages; ``None`` when it gives no answer."""
    fields = [(m.start() + 1, m.group()) for m in _FIELD.finditer(line)]
    if not fields:
        return None
    if len(fields) < 3:
        found = "only one field" if len(fields) == 1 else "a lexelt and an instance id but no tag"
        log.error(lineno, f"missing fields: {EXPECTED_LINE}, found {found}", column=len(line) + 1)
        return None
    codes: list[int] = []
    weights: list[float] = []
    for col, token in fields[2:]:
        tag, weight, problem, offset = split_tag(token)
        if problem is not None:
            log.error(lineno, problem, column=col + offset)
            return None
        codes.append(tags.code(tag))
        weights.append(weight)
    return fields[0][1], fields[1][1], codes, weights


_MAX_HASHED = 64  # longer instance ids: no byte hash, the exact set check decides


def _token_hash(padded: bytes, start: np.ndarray, length: np.ndarray) -> np.ndarray | None:
    """A 64-bit hash of each token ``padded[start:start+length]`` (equal tokens, equal hashes).

    Read as little-endian words at any byte offset (``padded`` ends with 8
    spare bytes, see :mod:`~hieradjudicate.io.annotations.bytewords`), so the
    hashing is a few array operations per 8 bytes of the longest token.  Only
    a filter: distinct hashes prove distinct tokens.
    """
    if start.size == 0 or int(length.max()) > _MAX_HASHED:
        return None
    return token_hash(iter_masked_words(words_view(padded), start, length), length)


def _parse_clean(text: str, set_name: str) -> Parsed | None:
    """The fast path: every line ``lexelt instance tag[/weight]...`` with single spaces, no other
    whitespace, no empty line and valid weights.  ``None`` when the text is not like that (the
    general path then reads it, with exact messages)."""
    data = text.encode("utf-8")
    n_bytes = len(data)
    padded = data + bytes(8)
    b = np.frombuffer(padded, dtype=np.uint8, count=n_bytes)
    sep = np.flatnonzero(b <= 32)  # spaces, newlines -- and any other control character
    if sep.size < 2 or sep[0] == 0:
        return None
    kind = b[sep]
    is_nl = kind == 10
    if not bool((is_nl | (kind == 32)).all()) or bool((sep[1:] - sep[:-1] == 1).any()):
        return None  # other whitespace or an empty token
    ends_nl = int(sep[-1]) == n_bytes - 1
    if ends_nl and not is_nl[-1]:
        return None  # a trailing space
    if not text.isascii() and _OTHER_WS.search(text) is not None:
        return None
    n_tok = sep.size + (0 if ends_nl else 1)
    last = np.flatnonzero(is_nl)  # token index of each line's last token
    if not ends_nl:
        last = np.append(last, n_tok - 1)
    first = np.empty_like(last)
    first[0] = 0
    first[1:] = last[:-1] + 1
    n_tag = last - first - 1
    if int(n_tag.min()) < 1:
        return None
    n_lines = first.size
    if int(n_tag.max()) > 1:  # join each line's tags with \x01 (absent here) into one token
        inner = np.ones(sep.size, dtype=bool)
        inner[first] = False
        inner[first + 1] = False
        inner &= ~is_nl
        buf = bytearray(data)
        np.frombuffer(buf, dtype=np.uint8)[sep[inner]] = 1
        text = buf.decode("utf-8")
        del buf
    tokens = text.split()  # == text.replace("\n", " ").split(" ") here, without the empty tail
    if len(tokens) != 3 * n_lines:
        return None
    lex_tok, instance, rest = tokens[0::3], tokens[1::3], tokens[2::3]
    del tokens

    # Tags: each distinct tag part of a line is parsed once; codes in order of first appearance
    # of the tag tokens (one dict operation per line).
    seen: dict[str, int] = {}
    pos = np.fromiter(map(seen.setdefault, rest, count()), dtype=np.int64, count=n_lines)
    del rest
    is_first = pos == np.arange(n_lines)
    rcode = (np.cumsum(is_first) - 1)[pos]
    tags = TagTable()
    r_tag: list[int] = []
    r_weight: list[float] = []
    r_size: list[int] = []
    for part in seen:
        toks = part.split("\x01")
        for token in toks:
            tag, weight, problem, _ = split_tag(token)
            if problem is not None:
                return None
            r_tag.append(tags.code(tag))
            r_weight.append(weight)
        r_size.append(len(toks))
    size = np.array(r_size, dtype=np.int64)
    if int(size.max()) == 1:
        label_unit = np.arange(n_lines, dtype=np.int64)
        lab = rcode
    else:
        r_off = np.cumsum(size) - size
        n = size[rcode]
        label_unit = np.repeat(np.arange(n_lines, dtype=np.int64), n)
        lab = np.arange(int(n.sum()), dtype=np.int64) + np.repeat(r_off[rcode] - (np.cumsum(n) - n), n)
    label_tag = np.array(r_tag, dtype=np.int64)[lab]
    label_weight = np.array(r_weight, dtype=np.float64)[lab]

    # Lexelts: one shared (interned) string object per distinct value, which makes the
    # scorer's comparisons identity checks.
    canon = dict.fromkeys(lex_tok)
    for s in canon:
        canon[s] = sys.intern(s)
    lexelt = list(map(canon.__getitem__, lex_tok))

    start = sep[first] + 1
    inst_hash = _token_hash(padded, start, sep[first + 1] - start)
    return Parsed(
        cand_lexelt=lexelt,  # type: ignore[arg-type]
        cand_instance=instance,  # type: ignore[arg-type]
        unit_item=np.arange(n_lines, dtype=np.int64),
        unit_set=np.zeros(n_lines, dtype=np.int64),
        unit_line=np.arange(1, n_lines + 1, dtype=np.int64),
        label_unit=label_unit,
        label_tag=label_tag,
        label_weight=label_weight,
        set_names=[set_name],
        tags=tags.names,
        instance_hash=inst_hash,
    )


def _attach_comments(p: Parsed, comments: dict[int, str]) -> Parsed:
    """Comments by line index -> by unit."""
    for i, c in comments.items():
        u = int(np.searchsorted(p.unit_line, i + 1))
        if u < p.unit_line.size and p.unit_line[u] == i + 1 and c:
            p.comments[u] = c
    return p


def parse_senseval(text: str, set_name: str, log: ProblemLog) -> Parsed:
    """Parse a Senseval key or answer file into one annotation set named ``set_name``."""
    comments: dict[int, str] = {}
    if "!" in text and "!!" in text:
        text, comments = _strip_comments(text)
    parsed = _parse_clean(text, set_name)
    if parsed is None:
        parsed = _parse_general(text, set_name, log)
    return _attach_comments(parsed, comments) if comments else parsed


def _parse_general(text: str, set_name: str, log: ProblemLog) -> Parsed:
    """Any text: the well-formed lines column-wise, the unusual ones line by line."""
    lay = _Layout(text)
    tok = np.fromiter(text.replace("\n", " ").split(" "), dtype=object, count=lay.token_line.size)
    token_line, starts = lay.token_line, lay.line_first
    slow = lay.counts < 3
    slow[lay.empty_lines] = True
    slow[_other_whitespace_lines(text)] = True

    tags = TagTable()
    tag_idx = np.flatnonzero((np.arange(tok.size) - starts[token_line] >= 2) & ~slow[token_line])
    tcodes, tuniques = factorize(tok[tag_idx])
    u_tag = np.zeros(len(tuniques), dtype=np.int64)
    u_weight = np.full(len(tuniques), np.nan)
    u_bad = np.zeros(len(tuniques), dtype=bool)
    for k, token in enumerate(tuniques.tolist()):
        tag, weight, problem, _ = split_tag(token)
        if problem is None:
            u_tag[k], u_weight[k] = tags.code(tag), weight
        else:
            u_bad[k] = True
    if u_bad.any():
        slow[token_line[tag_idx[u_bad[tcodes]]]] = True
        keep = ~slow[token_line[tag_idx]]
        tag_idx, tcodes = tag_idx[keep], tcodes[keep]

    good = np.flatnonzero(~slow)
    unit_of_line = np.cumsum(~slow) - 1
    cand_lexelt = tok[starts[good]]
    cand_instance = tok[starts[good] + 1]
    unit_line = good + 1
    label_unit = unit_of_line[token_line[tag_idx]]
    label_tag = u_tag[tcodes]
    label_weight = u_weight[tcodes]

    extra = [(i + 1, r) for i in np.flatnonzero(slow).tolist()
             if (r := _parse_line(lay.line(i), i + 1, tags, log)) is not None]
    if extra:
        n_fast = good.size
        cand_lexelt = np.concatenate([cand_lexelt, np.array([r[0] for _, r in extra], dtype=object)])
        cand_instance = np.concatenate([cand_instance, np.array([r[1] for _, r in extra], dtype=object)])
        unit_line = np.concatenate([unit_line, np.array([ln for ln, _ in extra], dtype=np.int64)])
        sizes = [len(r[2]) for _, r in extra]
        label_unit = np.concatenate([label_unit, np.repeat(np.arange(n_fast, n_fast + len(extra)), sizes)])
        label_tag = np.concatenate([label_tag, np.array([c for _, r in extra for c in r[2]], dtype=np.int64)])
        label_weight = np.concatenate([label_weight, np.array([w for _, r in extra for w in r[3]], dtype=float)])
        order = np.argsort(unit_line, kind="stable")
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        cand_lexelt, cand_instance, unit_line = cand_lexelt[order], cand_instance[order], unit_line[order]
        label_unit = rank[label_unit]
        lorder = np.argsort(label_unit, kind="stable")
        label_unit, label_tag, label_weight = label_unit[lorder], label_tag[lorder], label_weight[lorder]

    n_units = unit_line.size
    return Parsed(
        cand_lexelt=cand_lexelt,
        cand_instance=cand_instance,
        unit_item=np.arange(n_units, dtype=np.int64),
        unit_set=np.zeros(n_units, dtype=np.int64),
        unit_line=unit_line.astype(np.int64, copy=False),
        label_unit=label_unit.astype(np.int64, copy=False),
        label_tag=label_tag.astype(np.int64, copy=False),
        label_weight=label_weight.astype(np.float64, copy=False),
        set_names=[set_name],
        tags=tags.names,
    )
