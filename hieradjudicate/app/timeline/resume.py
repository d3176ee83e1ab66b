"""The decision points kept in the project, so that a view after more decisions computes only the
points that changed (issue 32: incremental, not a replay of the whole history at each view).

Every point but the last is closed: later decisions (saved later, so sorted after it) cannot
change it.  :func:`~hieradjudicate.app.timeline.decisions.decision_timeline` hands back a
:class:`Checkpoint` -- the closed points, the state of the replay at the end of the last closed one
(the row in effect per instance, each set's running score sums) and the annotators' majority per
instance -- and takes one up again when

* its key holds: the content of the project's inputs (the SHA-256 of every stored copy in effect,
  so a re-import or another inventory starts afresh), ``by``, the resamples and the seed;
* the rows it covered are still the first rows in time order (their ids and times hash to the kept
  fingerprint; a decision saved with an earlier time, e.g. a team member's clock, starts afresh).

Then only the rows after it are replayed and the points from there on computed.  The kept state is a
cache in the project's arrays (``timeline-decisions-<by>``): refused or damaged, nothing is lost, the
timeline is computed from the start.  No Qt.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from hieradjudicate.core.errors import HieradjError
from hieradjudicate.io.store.records import DecisionRow

VERSION = 1
PREFIX = "timeline-decisions-"


@dataclass
class Checkpoint:
    key: str
    stops: list[int]  # each closed point's end (rows in time order, exclusive)
    fingerprint: str  # of the rows up to stops[-1]
    points: list[Any]  # DecisionPoint, the closed ones
    day_resolved: dict[str, int]
    last: np.ndarray  # row in effect per instance after stops[-1] (-1: none)
    sums: np.ndarray
    atts: np.ndarray
    n: np.ndarray
    has_major: np.ndarray
    major_sig: np.ndarray

    @property
    def stop(self) -> int:
        return self.stops[-1] if self.stops else 0


def fingerprint(rows: Sequence[DecisionRow], stop: int) -> str:
    """A hash of the ids and times of ``rows[:stop]`` (rows are never changed once stored)."""
    h = hashlib.sha1(usedforsecurity=False)
    h.update("\n".join(f"{r.id}\t{r.decided_at}" for r in rows[:stop]).encode())
    return h.hexdigest()


def content_key(store: Any) -> list[Any] | None:
    """The stored copies in effect (SHA-256, kind, role), or None when the store cannot say."""
    from hieradjudicate.app.session.stored_inputs import effective_files

    try:
        return [[f.sha256, f.kind, f.role] for f in effective_files(store.files())]
    except (HieradjError, AttributeError):  # e.g. a team member the server does not show the copies
        return None


def make_key(content: list[Any] | None, by: str | int, n_resamples: int, seed: int, max_sets: int) -> str | None:
    return None if content is None else json.dumps([VERSION, content, str(by), n_resamples, seed, max_sets])


def _point_json(p: Any) -> dict[str, Any]:
    return {"label": p.label, "start": p.start, "end": p.end, "decisions": p.decisions, "withdrawals": p.withdrawals,
            "counts": p.counts, "overturn": p.overturn.as_dict(), "by_person": p.by_person,
            "scores": {k: f.as_dict() for k, f in p.scores.items()}}


def load(store: Any, key: str | None, by: str | int,
         point: Callable[[dict[str, Any], np.ndarray], Any]) -> Checkpoint | None:
    """The checkpoint kept under ``key`` (None: none, another key, or unreadable); ``point(d,
    instances)`` makes a point of its plain form (:func:`~hieradjudicate.app.timeline.decisions.point_from_json`)."""
    if key is None or not hasattr(store, "get_arrays"):
        return None
    try:
        got = store.get_arrays(PREFIX + str(by))
    except (HieradjError, ValueError, OSError, KeyError):
        return None
    if got is None or got[1].get("key") != key:
        return None
    a, meta = got
    try:
        ptr = a["instances_ptr"]
        points = [point(d, a["instances"][ptr[j]:ptr[j + 1]].astype(np.int64)) for j, d in enumerate(meta["points"])]
        return Checkpoint(key, [int(x) for x in meta["stops"]], str(meta["fingerprint"]), points,
                          {k: int(v) for k, v in meta["day_resolved"].items()}, a["last"].astype(np.int64),
                          a["sums"], a["atts"], a["n"].astype(np.int64), a["has_major"].astype(bool),
                          a["major_sig"].astype(np.int64))
    except (KeyError, TypeError, ValueError, IndexError):  # a damaged cache: computed from the start
        return None


#: the annotators' majority per instance, kept when an import or re-import is stored
MAJORITY = "timeline-majority"


def save_majority(store: Any, content: list[Any] | None, has_major: np.ndarray, major_sig: np.ndarray) -> None:
    """Keep the annotators' majority of the inputs ``content`` (:func:`content_key`): the first view of a
    project computes no majority (a crowd's 1.08 M labels sorted).  A cache: refused, nothing lost."""
    if content is None or not hasattr(store, "put_arrays") or getattr(store, "read_only", True):
        return
    try:
        store.put_arrays(MAJORITY, {"has_major": has_major, "major_sig": major_sig},
                         {"key": json.dumps([VERSION, content])})
    except HieradjError:
        pass


def kept_majority(store: Any, key: str | None, content: list[Any] | None) -> Checkpoint | None:
    """A checkpoint with no point (nothing to take up) but the majority kept for these inputs, or None."""
    if key is None or content is None or not hasattr(store, "get_arrays"):
        return None
    try:
        got = store.get_arrays(MAJORITY)
        if got is None or got[1].get("key") != json.dumps([VERSION, content]):
            return None
        has, sig = got[0]["has_major"].astype(bool), got[0]["major_sig"].astype(np.int64)
    except (HieradjError, ValueError, OSError, KeyError, TypeError):
        return None
    empty = np.zeros(0, np.int64)
    return Checkpoint(key, [], "", [], {}, empty, np.zeros(0), np.zeros(0), empty, has, sig)


def save(store: Any, cp: Checkpoint, by: str | int) -> None:
    """Keep ``cp`` in the project when it can be written (a cache: refused, nothing lost)."""
    if not hasattr(store, "put_arrays") or getattr(store, "read_only", True):
        return
    inst = [p.instances for p in cp.points]
    arrays = {"last": cp.last, "sums": cp.sums, "atts": cp.atts, "n": cp.n, "has_major": cp.has_major,
              "major_sig": cp.major_sig,
              "instances": np.concatenate(inst) if inst else np.zeros(0, np.int64),
              "instances_ptr": np.concatenate([[0], np.cumsum([x.size for x in inst])]).astype(np.int64)}
    meta = {"key": cp.key, "stops": cp.stops, "fingerprint": cp.fingerprint, "day_resolved": cp.day_resolved,
            "points": [_point_json(p) for p in cp.points]}
    try:
        store.put_arrays(PREFIX + str(by), arrays, meta)
    except HieradjError:  # refused (read-only, a server that keeps no cache for this login): nothing lost
        pass
