"""Tokens of a byte buffer as little-endian 64-bit words, for the readers that never make a
Python string per line (the clean Senseval scan, the packed MASC table, the Senseval fast path).

A token of at most 8 bytes, masked to its length, *is* its word when the text has no zero byte;
longer tokens are a list of words (one per 8 bytes of the longest), which can be hashed as a
filter and compared exactly.
"""

from __future__ import annotations

import numpy as np

#: ``LOW_BYTES[L]``: the low ``L`` bytes of a word (``L`` = 0..8)
LOW_BYTES = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [(1 << 64) - 1], dtype=np.uint64)
_K0, _K1 = np.uint64(0x9E3779B97F4A7C15), np.uint64(0xBF58476D1CE4E5B9)


def words_view(buf) -> np.ndarray:
    """Little-endian 64-bit words starting at every byte offset of ``buf`` that has 8 bytes
    (a strided view, no copy): a buffer ending with 8 zero bytes has one at every byte."""
    return np.ndarray((len(buf) - 7,), dtype="<u8", buffer=buf, strides=(1,))


def masked_words(words: np.ndarray, start: np.ndarray, length: np.ndarray) -> list[np.ndarray]:
    """Each token's bytes as little-endian words, zero past its end: one array per 8 bytes of
    the longest.  A clean file has no zero byte, so these words *are* the token, exactly."""
    return list(iter_masked_words(words, start, length))


def iter_masked_words(words: np.ndarray, start: np.ndarray, length: np.ndarray):
    """:func:`masked_words` one step at a time (only one step's array alive)."""
    if length.size == 0:
        return
    lmax = int(length.max())
    past_end = int(start.max()) + lmax > words.size - 1  # only then can a short token's word overrun
    for j in range(0, lmax, 8):
        m = words[np.minimum(start + j, words.size - 1) if past_end and j else (start + j if j else start)]
        table = LOW_BYTES[np.clip(np.arange(lmax + 1) - j, 0, 8)]  # the mask of step j, by token length
        m &= table[length]
        yield m


def iter_cover_words(words: np.ndarray, start: np.ndarray, length: np.ndarray):
    """Words that cover each token, one array per 8 bytes of the longest, with no mask where it can
    be done without: a token of ``L >= 8`` bytes gives, at step ``j``, its word at offset
    ``min(j, L - 8)`` (the last one overlaps the one before, ending at the token's end); a shorter
    token gives its masked word at every step.  Two tokens *of the same length* are equal exactly
    when all their words are (the offsets are a function of the length), so a comparison or a hash
    of these words must include the length.  About a third cheaper than :func:`iter_masked_words`
    (and cheaper still where most tokens are much shorter than the longest: only the longer ones are
    read at the later steps).  The arrays yielded are the caller's to read, not to change."""
    if length.size == 0:
        return
    lmax = int(length.max())
    short = int(length.min()) < 8
    last = length - 8
    m = None
    for j in range(0, lmax, 8):
        if m is None:  # every token's first word; a token shorter than 8 bytes masked to its length
            m = words[start]
            if short:
                m &= LOW_BYTES[np.minimum(length, 8)]
        elif not short and np.count_nonzero(length > j) >= 0.6 * length.size:
            m = words[start + np.minimum(last, j)]
        else:  # the tokens that end before byte j keep the word of the step before; the others are read
            sub = np.flatnonzero(length > j)
            m = m.copy()
            m[sub] = words[start[sub] + np.minimum(last[sub], j)]
        yield m


def token_hash(parts, length: np.ndarray) -> np.ndarray:
    """A 64-bit hash of tokens given as :func:`masked_words` or :func:`iter_cover_words` (a filter:
    equal tokens, equal hash).  Step ``j`` is mixed in only for the tokens that have bytes there
    (``length > 8 j``), so a token's hash is its own, whatever the longest token beside it: a key
    and an answer file whose longest ids differ hash the same id alike."""
    h = length.astype(np.uint64)
    h *= _K0
    for step, m in enumerate(parts):
        g = h ^ m
        g *= _K1
        g ^= g >> np.uint64(31)
        longer = length > 8 * step
        if step == 0 or bool(longer.all()):
            h = g
        else:
            np.copyto(h, g, where=longer)
    return h


def same_bytes(words: np.ndarray, a: np.ndarray, b: np.ndarray, length: np.ndarray,
               words_b: np.ndarray | None = None) -> bool:
    """Whether token ``[a, a+length)`` equals token ``[b, b+length)`` for every row (exact)."""
    words_b = words if words_b is None else words_b
    return all(np.array_equal(x, y) for x, y in zip(iter_cover_words(words, a, length),
                                                       iter_cover_words(words_b, b, length)))

