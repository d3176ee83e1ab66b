"""``project repair``: a sound project from what a damaged one still holds.

The damaged file is only read.  A new project is built beside it from the
stored input copies that match their SHA-256, the settings, the batches and
every decision whose checksum holds (re-chained in the same order, ids kept),
the stored system runs that match their SHA-256;
the corpus cache is rebuilt from the copies.  A stored copy that is damaged is
taken from the original file instead when one matches its recorded SHA-256: the
file named with ``--input`` or still at the path it was imported from; without
one the repair stops, names the input and changes nothing (every decision stays
in the damaged file).  Then, unless another output was
given, the damaged file is kept as ``NAME.hadj.damaged`` and the repaired one
takes its name.  Decisions that failed their checksum are listed, never
carried over silently.
"""

from __future__ import annotations

import hashlib
import os
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hieradjudicate.core.errors import ProjectError
from hieradjudicate.io.store import schema
from hieradjudicate.io.store.chain import extend as extend_chain
from hieradjudicate.io.store.health import Salvage, salvage
from hieradjudicate.io.store.project_store import Store
from hieradjudicate.io.store.sidecars import remove_build


@dataclass
class RepairSummary:
    output: Path
    kept_as: Path | None
    decisions: int
    left_out: list[str]
    files: int
    flagged: list[str]
    unreadable: list[tuple[int, int]]
    runs: int = 0  # stored system runs carried over
    runs_left_out: list[str] | None = None  # "NAME: why" of damaged runs not carried over
    rebuilt: list[str] | None = None  # damaged stored copies taken again from their original
    mended_schema: list[str] | None = None  # tables/indexes whose damaged schema text was mended
    truncated: str = ""  # the file was truncated (what is missing): read padded


def _free_name(p: Path) -> Path:
    candidate, n = p, 2
    while candidate.exists():
        candidate = p.with_name(f"{p.name}-{n}")
        n += 1
    return candidate


def repair_project(path: str | os.PathLike[str], output: str | os.PathLike[str] | None = None,
                   originals: Sequence[str | os.PathLike[str]] = ()) -> RepairSummary:
    """Build a sound copy of a damaged project (see the module docstring); ``originals``: files
    that may be the originals of damaged stored copies (matched by SHA-256)."""
    from hieradjudicate.app.session.session import Session

    src = Path(path)
    if src.is_file():
        schema.recover_journal(src)  # an interrupted save is rolled back first (it is not damage)
    found = salvage(src)
    rebuilt = _take_originals(found, [Path(o) for o in originals]) if found.damaged_files else []
    if found.damaged_files:
        names = "; ".join(found.damaged_files[:5])
        raise ProjectError(f"{src}: the stored copy of {len(found.damaged_files)} input file(s) is damaged "
                           f"({names}), so the corpus cannot be rebuilt from it; give the original file "
                           "with --input PATH (it must match the SHA-256 recorded when it was imported) "
                           "and run the repair again. Nothing was changed: the decisions are still in "
                           f"{src.name}")
    target = Path(output) if output is not None else src
    if target != src and target.exists():
        raise ProjectError(f"{target}: already exists; choose another -o")
    tmp = target.with_name(f".{target.name}.new-{os.getpid()}")
    remove_build(tmp)
    try:
        with Store.create(tmp) as store:
            _restore(store, found)
        with Session.open(tmp):  # builds the corpus cache from the stored copies
            pass
        kept = None
        if target == src:
            Store.ensure_not_in_use(src)
            kept = _free_name(src.with_name(src.name + ".damaged"))
            os.replace(src, kept)
        Store.replace_into(tmp, target)
    except BaseException:
        remove_build(tmp)
        raise
    return RepairSummary(target, kept, len(found.decisions), found.left_out, len(found.files),
                         found.flagged, found.unreadable, len(found.runs), list(found.damaged_runs),
                         rebuilt, list(found.mended_schema), found.truncated)


def _take_originals(found: Salvage, originals: list[Path]) -> list[str]:
    """Damaged stored copies replaced by an original file whose SHA-256 matches the record
    (``originals``, then the path each was imported from); returns what was taken from where."""
    taken: list[str] = []
    still: list[tuple[str, dict[str, Any]]] = []
    for name, record in zip(found.damaged_files, found.damaged_records, strict=True):
        data, origin = None, None
        if "sha256" in record:
            for candidate in [*originals, Path(str(record["source_path"]))]:
                data = _matching(candidate, record)
                if data is not None:
                    origin = candidate
                    break
        if data is None:
            still.append((name, record))
            continue
        found.files.append((record, data))
        taken.append(f"{name}: the damaged stored copy was taken again from {origin}")
    found.files.sort(key=lambda f: f[0]["id"])
    found.damaged_files = [n for n, _ in still]
    found.damaged_records = [r for _, r in still]
    return taken


def _matching(candidate: Path, record: dict[str, Any]) -> bytes | None:
    try:
        if not candidate.is_file() or candidate.stat().st_size != record["size"]:
            return None
        data = candidate.read_bytes()
    except OSError:
        return None
    return data if hashlib.sha256(data).hexdigest() == record["sha256"] else None


def _restore(store: Store, found: Salvage) -> None:
    with store.transaction("restore the project") as conn:
        conn.executemany("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)",
                         list(found.settings.items()))
        for record, data in found.files:
            blob = zlib.compress(data, 6) if record["compression"] == "zlib" else data
            conn.execute(
                "INSERT INTO files (id, kind, role, set_names, format, options, source_path, size, sha256,"
                " imported_at, compression, active, data) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (record["id"], record["kind"], record["role"], record["set_names"], record["format"],
                 record["options"], record["source_path"], record["size"], record["sha256"],
                 record["imported_at"], record["compression"], record["active"], blob))
        conn.executemany("INSERT INTO batches (id, label, kind, created_by, created_at) VALUES (?,?,?,?,?)",
                         found.batches)
        batch_ids = {b[0] for b in found.batches}
        rows = [(*r[:9], r[9] if r[9] in batch_ids else None, r[10]) for r in found.decisions]
        conn.executemany("INSERT INTO decisions (id, lexelt, instance, tags, source, status, note, "
                         "decided_by, decided_at, batch, basis) VALUES (?,?,?,?,?,?,?,?,?,?,?)", rows)
        if rows:
            extend_chain(conn, [r[0] for r in rows])
        for record, data in found.runs:  # stored system runs, bytes checked against their SHA-256
            blob = zlib.compress(data, 6) if record["compression"] == "zlib" else data
            conn.execute("INSERT INTO runs (id, name, note, source_path, size, sha256, added_by, added_at,"
                         " compression, data) VALUES (?,?,?,?,?,?,?,?,?,?)",
                         (*(record[k] for k in ("id", "name", "note", "source_path", "size", "sha256",
                                                "added_by", "added_at", "compression")), blob))
