"""Byte-level damage for the readers' property tests: deletions, insertions, replacements,
truncation and duplicated lines, as hypothesis strategies."""

from __future__ import annotations

import signal
import tracemalloc
from contextlib import contextmanager

from hypothesis import strategies as st


def mutations(tokens: list[bytes]):
    """One damaging operation; ``tokens`` are format-specific byte strings worth inserting."""
    return st.one_of(
        st.tuples(st.just("delete"), st.integers(0, 10**6), st.integers(1, 40)),
        st.tuples(st.just("insert"), st.integers(0, 10**6),
                  st.one_of(st.binary(min_size=1, max_size=8), st.sampled_from(tokens))),
        st.tuples(st.just("replace"), st.integers(0, 10**6), st.binary(min_size=1, max_size=4)),
        st.tuples(st.just("truncate"), st.integers(0, 10**6), st.just(b"")),
        st.tuples(st.just("dupline"), st.integers(0, 10**6), st.just(b"")),
        # hostile inputs (issue #12): long runs of tokens, long ids, control bytes, NUL tails
        st.tuples(st.just("repeat"), st.integers(0, 10**6),
                  st.tuples(st.sampled_from(HOSTILE_RUNS), st.integers(1000, 300_000))),
        st.tuples(st.just("insert"), st.integers(0, 10**6), st.sampled_from(CONTROL_BYTES)),
        st.tuples(st.just("nulend"), st.just(0), st.integers(1, 64)),
    )


#: Tokens repeated thousands of times: a sense-map line with a long run of ancestors, a long id,
#: non-ASCII text, a wide row, many lines.
HOSTILE_RUNS = [b" 2 s", b"x", b"\xc3\xa9", b"a;", b"\t", b"\n", b"i", b"art.n 1 x\n"]
CONTROL_BYTES = [bytes([c]) for c in (0, 1, 7, 8, 0x0B, 0x0C, 0x1B, 0x7F)] + [b"\x1b]0;PWNED\x07"]
#: The readers refuse control characters; an accepted source never holds one.
CONTROL_CHARS = frozenset(chr(c) for c in (*range(0, 9), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F))


def clean_name(name: str) -> bool:
    """A name an accepted source may hold: no control characters, not over the length limit."""
    return len(name) <= 1000 and not (CONTROL_CHARS & set(name))


@contextmanager
def bounded(seconds: int = 30, megabytes: int = 400):
    """Fail the input (not hang) after ``seconds``, and when Python allocations inside the block
    peak above ``megabytes`` (tracemalloc: the data kept, not the process's size)."""
    def boom(*_):
        raise TimeoutError(f"one input took more than {seconds} s")
    old = signal.signal(signal.SIGALRM, boom)
    signal.alarm(seconds)
    tracemalloc.start()
    try:
        yield
        _, peak = tracemalloc.get_traced_memory()
        assert peak < megabytes * 2**20, f"one input peaked at {peak / 2**20:.0f} MB"
    finally:
        tracemalloc.stop()
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def mutate(data: bytes, ops) -> bytes:
    for kind, pos, arg in ops:
        i = pos % (len(data) + 1)
        if kind == "delete":
            data = data[:i] + data[i + arg:]
        elif kind == "insert":
            data = data[:i] + arg + data[i:]
        elif kind == "replace":
            data = data[:i] + arg + data[i + len(arg):]
        elif kind == "truncate":
            data = data[:i]
        elif kind == "repeat":
            token, count = arg
            data = data[:i] + token * count + data[i:]
        elif kind == "nulend":
            data = data + b"\0" * arg
        else:
            lines = data.split(b"\n")
            k = pos % len(lines)
            lines.insert(k, lines[k])
            data = b"\n".join(lines)
    return data


def real_seeds(relative_paths: tuple[str, ...], head: int) -> list[bytes]:
    """The first ``head`` bytes (decompressed) of shared real files, as seeds for damage; none
    when ``HIERADJ_REALDATA`` is unset."""
    import gzip
    import os
    from pathlib import Path

    value = os.environ.get("HIERADJ_REALDATA")
    root = Path(value) if value else None
    if root is None or not root.is_dir():
        return []
    out = []
    for rel in relative_paths:
        raw = (root / rel).read_bytes()
        if raw[:2] == b"\x1f\x8b":
            raw = gzip.decompress(raw)
        out.append(raw[:head])
    return out
