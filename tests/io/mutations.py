"""Byte-level damage for the readers' property tests: deletions, insertions, replacements,
truncation and duplicated lines, as hypothesis strategies."""

from __future__ import annotations

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
    )


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
