"""Stored system runs of a project (no Qt): keep one, and score every one against the gold.

:func:`store_run` reads the answer file first (a file that is not answers, or answers none of
the project's instances, is refused and nothing is stored), then keeps it in the project
(:mod:`hieradjudicate.io.store.runs`).  :func:`run_history` scores every stored run against
the gold adjudicated so far (the resolved decisions) under a policy (leaf, fine, coarse, mixed)
-- the run-history plot and the run-against-run view of the window.
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


POLICIES = ("leaf", "fine", "coarse", "mixed")


def run_history(session: Any, policy: str = "fine") -> list[RunFigures]:
    """P, R, F1 under ``policy`` of every stored run against the resolved decisions, oldest first;
    empty without runs or without a resolved decision.

    Scored as ``compare --gold P.hadj --inventory INV --policy POLICY`` scores them: fine, coarse
    and mixed as scorer2 (:func:`~hieradjudicate.core.scoring.senseval.score_senseval`, the sense map from
    the project's stored inventory copies), leaf on a corpus of the inventory, the gold and the
    run (:meth:`~hieradjudicate.app.stats.Stats.score`).  Coarse and mixed without a sense
    hierarchy are refused (:class:`HieradjError`), as ``compare`` refuses them."""
    from hieradjudicate.io.annotations.read import read_annotations
    from hieradjudicate.io.store.runs import run_bytes, runs

    if policy not in POLICIES:
        raise HieradjError(f"policy {policy!r}; expected one of {', '.join(POLICIES)}")
    stored = runs(session.store)
    if not stored or not any(r.status == "resolved" for r in session.decisions):
        return []
    inventories = _inventories(session)
    smap = _sense_map(inventories, policy)
    out = []
    with tempfile.TemporaryDirectory(prefix="hadj-runs-") as tmp:
        key_path = Path(tmp) / "gold.key"
        session.export(key_path, format="senseval")
        key = read_annotations(key_path)
        every = session.instances()
        for k, r in enumerate(stored):
            p = Path(tmp) / f"run{k}"
            p.write_bytes(run_bytes(session.store, r.name))
            ans = read_annotations(p, name=r.name)
            if policy == "leaf":
                out.append(_leaf(r, key, ans, inventories, every))
                continue
            from hieradjudicate.core.scoring.senseval import score_senseval

            res = score_senseval(key, ans, policy=policy, sense_map=smap)
            at = positions(every, key.item_lexelt, key.item_instance)  # key item -> instance
            o = res.overall
            out.append(RunFigures(r.name, r.added_at, r.note, o.precision, o.recall, o.f1, o.attempted, o.total,
                                  at[res.instance_item], res.instance_score, res.instance_attempted))
    return out


def _inventories(session: Any) -> list[Any]:
    from hieradjudicate.app.session.stored_inputs import inventory_sources
    from hieradjudicate.io.store.inputs import effective_files

    return inventory_sources(session.store, effective_files(session.store.files()))


def _sense_map(inventories: list[Any], policy: str) -> Any:
    """The sense map of the project's inventories, as ``compare`` builds it from ``--inventory``."""
    from hieradjudicate.core.scoring.senseval import SenseMap

    records = [r for inv in inventories for r in inv.senses]
    smap = SenseMap.from_records(r for r in records if r.parent is not None or r.branching is not None)
    if policy in ("coarse", "mixed") and not smap.parent:
        raise HieradjError(f"the {policy} policy needs a sense hierarchy; the project's inventory has no parent "
                           "relations (every sense is its own top): use the fine or leaf policy")
    return smap


def _leaf(r: Any, key: Any, ans: Any, inventories: list[Any], every: list[tuple[str, str]]) -> RunFigures:
    """One run under the leaf policy: a corpus of the project's inventories, the gold and the run."""
    from hieradjudicate.app.stats import Stats
    from hieradjudicate.core.model import CorpusBuilder

    b = CorpusBuilder()
    for inv in inventories:
        b.add_inventory(inv)
    b.add_annotations(key, role="gold")
    b.add_annotations(ans, role="system")
    c = b.build()
    g = next(k for k, s in enumerate(c.sets) if s.role == "gold")
    k = next(k for k, s in enumerate(c.sets) if s.role == "system")
    res = Stats(c).score(k, g)
    lex = [c.inventory.lexelts[x] for x in c.inst_lexelt[res.gold_instances].tolist()]
    ids = [c.inst_id[i] for i in res.gold_instances.tolist()]
    o = res.figures.overall
    return RunFigures(r.name, r.added_at, r.note, o.precision, o.recall, o.f1, o.attempted, o.total,
                      positions(every, lex, ids), res.instance_score, res.instance_attempted)


__all__ = ["POLICIES", "RunFigures", "StoredRun", "positions", "run_history", "store_run"]
