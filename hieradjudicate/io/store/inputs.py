"""What loading a project reads from its store, in one pass: the stored input copies in effect,
the corpus cache when it was made from exactly those copies, and the bytes of the copies the load
needs (the inventories beside a fitting cache, every copy without one).

The application assembles the corpus from a :class:`StoredInputs`
(:mod:`hieradjudicate.app.session.stored_inputs`) and does not go back to the store for more;
nothing here calls into the application.  Works with either store (a ``.hadj`` file or a server):
it asks only ``files``, ``file_bytes`` and ``get_arrays``.
"""

from __future__ import annotations

import sqlite3
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from hieradjudicate.io.store.records import FileRecord

#: what a damaged cache blob raises when read (it is only a cache: it reads as none)
CACHE_READ_ERRORS = (ValueError, KeyError, EOFError, OSError, zipfile.BadZipFile, sqlite3.DatabaseError)


def effective_files(files: Sequence[FileRecord]) -> list[FileRecord]:
    """The stored copies in effect, in load order: a copy replaced by another active copy is
    dropped, and a replacement takes the place (``order``) of the copy it replaced."""
    replaced = {f.options.get("replaces") for f in files}
    kept = [f for f in files if f.id not in replaced]
    return sorted(kept, key=lambda f: (f.options.get("order", f.id), f.id))


def files_key(files: Sequence[FileRecord]) -> list[list[Any]]:
    """The stored copies a cache was made from, as its ``files`` meta entry records them."""
    return [[f.id, f.sha256] for f in files]


def read_copies(store: Any, files: Sequence[FileRecord],
                replace: Mapping[int, bytes] | None = None) -> dict[int, bytes]:
    """The bytes of each of ``files`` (``replace[id]`` instead of the stored copy where given),
    each checked against its SHA-256 by the store."""
    return {f.id: replace[f.id] if replace and f.id in replace else store.file_bytes(f.id)
            for f in files}


@dataclass(frozen=True)
class StoredInputs:
    """Everything one load reads from the store (see the module docstring)."""

    #: where the project is, for messages (a path or a server location)
    location: Any
    #: the copies in effect, in load order
    files: list[FileRecord]
    #: ``(arrays, meta)`` of the cache when its meta fits the copies and the stamp, else ``None``
    cache: tuple[dict[str, np.ndarray], dict[str, Any]] | None
    #: bytes by file id: the inventory copies beside a cache, every copy without one
    copies: dict[int, bytes]


def cache_fits(meta: Mapping[str, Any], files: Sequence[FileRecord], stamp: Mapping[str, Any]) -> bool:
    """Whether a cache was made from exactly ``files`` and carries every ``stamp`` entry."""
    return meta.get("files") == files_key(files) and all(meta.get(k) == v for k, v in stamp.items())


def read_stored_inputs(store: Any, *, cache: str, stamp: Mapping[str, Any]) -> StoredInputs:
    """Read what a load needs: the records in effect, the cache named ``cache`` when it fits them
    and ``stamp`` (e.g. the cache format and program version that can read it), and the copies."""
    files = effective_files(store.files())
    try:
        cached = store.get_arrays(cache)
    except CACHE_READ_ERRORS:
        cached = None
    if cached is not None and not cache_fits(cached[1], files, stamp):
        cached = None
    needed = [f for f in files if cached is None or f.kind == "inventory"]
    return StoredInputs(getattr(store, "path", "the project"), files, cached, read_copies(store, needed))
