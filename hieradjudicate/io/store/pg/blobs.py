"""The server store's copies of input files and its cached arrays (part of :class:`PgStore`).

The same records and checks as the file store: a copy keeps its bytes (zlib unless gzip
already), size and SHA-256, checked when read back; arrays are one ``.npz`` blob per name.
Writing them is the lead's (the grants refuse anyone else).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from hieradjudicate.core.errors import ProjectError
from hieradjudicate.io.store.blob import pack_blob, unpack_blob
from hieradjudicate.io.store.records import FileRecord, utc_now


class StoredBlobs:
    """Mixed into :class:`~hieradjudicate.io.store.pg.store.PgStore` (its ``_read``, ``_write``)."""

    location: Any
    _read: Any
    _write: Any

    # ------------------------------------------------------------------ files
    def add_file(self, kind: str, source_path: Any, *, data: bytes | None = None,
                 role: str | None = None, set_names: Sequence[str] = (), format: str | None = None,
                 options: Mapping[str, Any] | None = None) -> FileRecord:
        src = os.fspath(source_path)
        if data is None:
            try:
                data = Path(src).read_bytes()
            except OSError as exc:
                raise ProjectError(f"{src}: cannot read the file to import ({exc.strerror})") from None
        rec = FileRecord(0, kind, role, tuple(set_names), format, dict(options or {}),
                         os.path.abspath(src), len(data), hashlib.sha256(data).hexdigest(), utc_now())
        return self.put_file(rec, *pack_blob(data))

    def put_file(self, rec: FileRecord, blob: bytes, compression: str) -> FileRecord:
        """Store a file copy as given (``publish`` copies the file project's rows)."""
        with self._write(f"store a copy of {rec.source_path}") as cur:
            cur.execute(
                "INSERT INTO files (kind, role, set_names, format, options, source_path, size, sha256,"
                " imported_at, compression, active, data) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)"
                " RETURNING id",
                (rec.kind, rec.role, json.dumps(list(rec.set_names)), rec.format,
                 json.dumps(rec.options), rec.source_path, rec.size, rec.sha256, rec.imported_at,
                 compression, rec.active, blob))
            fid = int(cur.fetchone()[0])
        return FileRecord(fid, rec.kind, rec.role, rec.set_names, rec.format, rec.options,
                          rec.source_path, rec.size, rec.sha256, rec.imported_at, rec.active)

    def files(self, kind: str | None = None, *, active_only: bool = True) -> list[FileRecord]:
        sql = ("SELECT id, kind, role, set_names, format, options, source_path, size, sha256,"
               " imported_at, active FROM files WHERE (%s::text IS NULL OR kind = %s)")
        if active_only:
            sql += " AND active"
        return [FileRecord(r[0], r[1], r[2], tuple(json.loads(r[3])), r[4], json.loads(r[5]),
                           r[6], r[7], r[8], r[9], bool(r[10]))
                for r in self._read(sql + " ORDER BY id", (kind, kind))]

    def file_raw(self, file_id: int) -> tuple[str, bytes]:
        rows = self._read("SELECT compression, data FROM files WHERE id = %s", (file_id,), binary=True)
        if not rows:
            raise ProjectError(f"{self.location}: no stored file with id {file_id}")
        return rows[0][0], bytes(rows[0][1])

    def file_bytes(self, file_id: int) -> bytes:
        rows = self._read("SELECT compression, data, sha256, source_path FROM files WHERE id = %s",
                          (file_id,), binary=True)
        if not rows:
            raise ProjectError(f"{self.location}: no stored file with id {file_id}")
        compression, blob, digest, source = rows[0]
        data = unpack_blob(compression, blob, digest)
        if data is None:
            raise ProjectError(f"{self.location}: the stored copy of {source} is damaged")
        return data

    def deactivate_file(self, file_id: int) -> None:
        with self._write("mark a file as replaced") as cur:
            cur.execute("UPDATE files SET active = false WHERE id = %s", (file_id,))

    # ----------------------------------------------------------------- arrays
    def put_arrays(self, name: str, arrays: Mapping[str, np.ndarray],
                   meta: Mapping[str, Any] | None = None, *, compress: bool = False) -> None:
        buf = io.BytesIO()
        (np.savez_compressed if compress else np.savez)(buf, **dict(arrays))
        with self._write(f"store the arrays {name!r}") as cur:
            cur.execute("INSERT INTO arrays (name, meta, updated_at, data) VALUES (%s, %s, %s, %s)"
                        " ON CONFLICT (name) DO UPDATE SET meta = excluded.meta,"
                        " updated_at = excluded.updated_at, data = excluded.data",
                        (name, json.dumps(dict(meta or {})), utc_now(), buf.getvalue()))

    def get_arrays(self, name: str) -> tuple[dict[str, np.ndarray], dict[str, Any]] | None:
        rows = self._read("SELECT data, meta FROM arrays WHERE name = %s", (name,), binary=True)
        if not rows:
            return None
        with np.load(io.BytesIO(rows[0][0]), allow_pickle=False) as npz:
            arrays = {k: npz[k] for k in npz.files}
        return arrays, json.loads(rows[0][1])

    def array_names(self) -> list[str]:
        return [r[0] for r in self._read("SELECT name FROM arrays ORDER BY name")]

