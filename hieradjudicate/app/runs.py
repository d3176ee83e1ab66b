"""Stored system runs of a project (no Qt): keep one, and score every one against the gold.

:func:`store_run` reads the answer file first (a file that is not answers, or answers none of
the project's instances, is refused and nothing is stored), then keeps it in the project
(:mod:`hieradjudicate.io.store.runs`).  :func:`run_history` scores every stored run against
the gold adjudicated so far (the resolved decisions) under the fine policy -- the run-history
plot of the window and of ``compare --project``.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hieradjudicate.core.errors import HieradjError


@dataclass(frozen=True)
class StoredRun:
    name: str
    added_at: str
    note: str
    answered: int  # answered instances of the project
    outside: int  # answered instances that are not in the project


@dataclass(frozen=True)
class RunFigures:
    name: str
    added_at: str
    note: str
    precision: float | None
    recall: float | None
    f1: float | None
    attempted: float
    total: int


def _read_answers(path: str, name: str):
    from hieradjudicate.app.loading.load import read_annotation_file
    from hieradjudicate.app.loading.specs import AnnotationSpec

    return read_annotation_file(AnnotationSpec(path, name=name, role="system"))


def store_run(session: Any, name: str, path: str | os.PathLike[str], note: str = "") -> StoredRun:
    """Keep the answer file ``path`` in the project as run ``name``; raises :class:`HieradjError`
    (nothing stored) for a file that is not answers or answers no instance of the project."""
    from hieradjudicate.io.store.runs import add_run

    name = name.strip()
    if not name:
        raise HieradjError("a run needs a name")
    src = _read_answers(os.fspath(path), name)
    known = set(session.instances())
    answered = set(zip(src.item_lexelt, src.item_instance, strict=True))
    inside = answered & known
    if not inside:
        raise HieradjError(f"{path}: none of its {len(answered)} answered instance(s) is an instance of "
                           f"{session.path} (do the lexelts and instance ids match?); nothing was stored")
    rec = add_run(session.store, name, path, note=note)
    return StoredRun(rec.name, rec.added_at, rec.note, len(inside), len(answered - inside))


def run_history(session: Any) -> list[RunFigures]:
    """P, R, F1 (fine policy) of every stored run against the resolved decisions, oldest first;
    empty without runs or without a resolved decision."""
    from hieradjudicate.core.senseval import score_senseval
    from hieradjudicate.io.annotations.read import read_annotations
    from hieradjudicate.io.store.runs import run_bytes, runs

    stored = runs(session.store)
    if not stored or not any(r.status == "resolved" for r in session.decisions):
        return []
    out = []
    with tempfile.TemporaryDirectory(prefix="hadj-runs-") as tmp:
        key_path = Path(tmp) / "gold.key"
        session.export(key_path, format="senseval")
        key = read_annotations(key_path)
        for k, r in enumerate(stored):
            p = Path(tmp) / f"run{k}"
            p.write_bytes(run_bytes(session.store, r.name))
            res = score_senseval(key, read_annotations(p, name=r.name), policy="fine")
            o = res.overall
            out.append(RunFigures(r.name, r.added_at, r.note, o.precision, o.recall, o.f1, o.attempted, o.total))
    return out


__all__ = ["RunFigures", "StoredRun", "run_history", "store_run"]
