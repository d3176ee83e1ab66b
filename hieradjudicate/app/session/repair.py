"""``project repair``: a sound project from what a damaged one still holds.

The damaged file is only read.  A new project is built beside it from the
stored input copies that match their SHA-256, the settings, the batches and
every decision whose checksum holds (re-chained in the same order, ids kept),
the stored system runs that match their SHA-256;
the corpus cache is rebuilt from the copies.  Then, unless another output was
given, the damaged file is kept as ``NAME.hadj.damaged`` and the repaired one
takes its name.  Decisions that failed their checksum are listed, never
carried over silently.
"""

from __future__ import annotations

import os
import zlib
from dataclasses import dataclass
from pathlib import Path

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


def _free_name(p: Path) -> Path:
    candidate, n = p, 2
    while candidate.exists():
        candidate = p.with_name(f"{p.name}-{n}")
        n += 1
    return candidate


def repair_project(path: str | os.PathLike[str], output: str | os.PathLike[str] | None = None
                   ) -> RepairSummary:
    """Build a sound copy of a damaged project (see the module docstring)."""
    from hieradjudicate.app.session.session import Session

    src = Path(path)
    if src.is_file():
        schema.recover_journal(src)  # an interrupted save is rolled back first (it is not damage)
    found = salvage(src)
    active_damaged = found.damaged_files
    if active_damaged:
        raise ProjectError(f"{src}: the stored copy of {', '.join(active_damaged[:3])} is damaged, so the "
                           "corpus cannot be rebuilt; create the project again from the original files "
                           "(project new) and bring the decisions over (project history -o h.csv, then "
                           "project import-decisions)")
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
                         found.flagged, found.unreadable, len(found.runs), list(found.damaged_runs))


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
