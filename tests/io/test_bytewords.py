"""Tokens read as 64-bit words: the covering words are the token's own bytes, whatever the lengths."""

from __future__ import annotations

import numpy as np

from hieradjudicate.io.annotations.bytewords import LOW_BYTES, iter_cover_words, same_bytes, words_view


def _tokens(rng, n: int, short_share: float) -> tuple[bytearray, np.ndarray, np.ndarray]:
    """``n`` random lowercase tokens joined by spaces (8 zero bytes after), their starts and lengths."""
    short = rng.random(n) < short_share
    lens = np.where(short, rng.integers(1, 9, n), rng.integers(9, 40, n))
    text = b" ".join(bytes(rng.integers(97, 123, int(k)).astype(np.uint8)) for k in lens) + b"\n"
    starts = np.concatenate(([0], np.cumsum(lens[:-1] + 1)))
    return bytearray(text) + bytearray(8), starts.astype(np.int32), lens.astype(np.int32)


def _expected(words, start, length) -> list[np.ndarray]:
    """One token at a time: its masked word when shorter than 8 bytes, else its word at
    ``min(j, L - 8)`` for each step ``j``."""
    steps = []
    for j in range(0, int(length.max()), 8):
        steps.append(np.array([int(words[s]) & int(LOW_BYTES[k]) if k < 8 else int(words[s + min(k - 8, j)])
                               for s, k in zip(start.tolist(), length.tolist())], dtype=np.uint64))
    return steps


def test_covering_words_are_each_tokens_own_bytes_for_mixed_lengths() -> None:
    rng = np.random.default_rng(20261129)
    for trial in range(120):
        buf, start, length = _tokens(rng, int(rng.integers(1, 80)), short_share=(0.2, 0.8, 0.95)[trial % 3])
        words = words_view(buf)
        got = list(iter_cover_words(words, start, length))
        want = _expected(words, start, length)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g, w)


def test_tokens_of_one_length_compare_equal_exactly_when_their_bytes_do() -> None:
    rng = np.random.default_rng(7)
    buf, start, length = _tokens(rng, 400, short_share=0.5)
    words = words_view(buf)
    text = bytes(buf)
    for _ in range(300):
        i, k = (int(x) for x in rng.integers(0, start.size, 2))
        if length[i] != length[k]:
            continue
        a, b = start[[i]], start[[k]]
        same = text[a[0]: a[0] + length[i]] == text[b[0]: b[0] + length[k]]
        assert same_bytes(words, a, b, length[[i]]) == same
        assert same_bytes(words, a, a, length[[i]])
