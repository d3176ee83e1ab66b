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

import numpy as np

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
    #: per decided instance (corpus instance index in ``instances``): the score (NaN: not answered)
    instances: Any = None
    score: Any = None
    attempted_per_instance: Any = None


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


def _joined(lexelts, ids) -> np.ndarray:
    return np.char.add(np.char.add(np.asarray(lexelts, dtype=str), "\x00"), np.asarray(ids, dtype=str))


def positions(instances: list[tuple[str, str]], lexelts, ids) -> np.ndarray:
    """Index in ``instances`` of every ``(lexelts[j], ids[j])`` (-1: not there), by sorted search."""
    if not instances or not len(ids):
        return np.full(len(ids), -1, dtype=np.int64)
    known = _joined([k[0] for k in instances], [k[1] for k in instances])
    order = np.argsort(known)
    want = _joined(lexelts, ids)
    pos = np.clip(np.searchsorted(known[order], want), 0, len(known) - 1)
    return np.where(known[order][pos] == want, order[pos], -1).astype(np.int64)


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
        at = positions(session.instances(), key.item_lexelt, key.item_instance)  # key item -> instance
        for k, r in enumerate(stored):
            p = Path(tmp) / f"run{k}"
            p.write_bytes(run_bytes(session.store, r.name))
            res = score_senseval(key, read_annotations(p, name=r.name), policy="fine")
            o = res.overall
            out.append(RunFigures(r.name, r.added_at, r.note, o.precision, o.recall, o.f1, o.attempted, o.total,
                                  at[res.instance_item], res.instance_score, res.instance_attempted))
    return out


__all__ = ["RunFigures", "StoredRun", "positions", "run_history", "store_run"]
