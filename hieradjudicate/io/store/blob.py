"""Stored file copies (input files, system runs) as kept in a project: packed on the way in,
unpacked and checked against their SHA-256 on the way out, the same in the file and server stores."""

from __future__ import annotations

import hashlib
import zlib
from typing import Any


def pack_blob(data: bytes) -> tuple[bytes, str]:
    """``(blob, compression)`` of a stored file: zlib-compressed unless already gzip."""
    return (data, "none") if data[:2] == b"\x1f\x8b" else (zlib.compress(data, 6), "zlib")


def unpack_blob(compression: str, blob: Any, sha256: str) -> bytes | None:
    """A stored file's bytes, or ``None`` when they cannot be unpacked or do not match their
    SHA-256 (damaged): the one check behind files, runs, ``check`` and ``repair``, in both stores."""
    try:
        data = zlib.decompress(blob) if compression == "zlib" else bytes(blob)
    except (zlib.error, TypeError):
        return None
    return data if hashlib.sha256(data).hexdigest() == sha256 else None
