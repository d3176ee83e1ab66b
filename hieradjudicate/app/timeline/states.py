"""Each state of the annotations kept when it comes to be: an import point's figures and the
statistics a marker's Fleiss before/after needs, so that no view rebuilds an older state
(issue 32: computed incrementally, not by replaying the history at each view).

A state is the set of stored copies in effect after an import (the project's creation, each
re-import, an undo of one).  When it comes to be, the program holds its corpus:
:func:`~hieradjudicate.app.timeline.at_import.keep_state` then computes

* its import point's figures (:func:`~hieradjudicate.app.timeline.imports.corpus_figures`, at the
  resamples and seed the command line and the window use by default), kept in the import points'
  cache (``timeline-imports``) under the state's content key, where a view finds them;
* its :class:`~hieradjudicate.core.stats.timeline_stats.FleissSide` -- the per-instance Fleiss
  statistics of the annotator group, with each instance's (lexelt, id) -- kept as
  ``timeline-state-<hash of the content>``: a marker's Fleiss before/after compares the kept sides
  of the state at the marker and of the state now (:func:`load_side`), each mapped onto the open
  corpus's instances, and equals the comparison of the rebuilt corpora (to rounding);
* each marker's Fleiss before/after against it, so that the view reads it.

A project made by an older version (or whose cache was refused) has none of it kept: a view then
rebuilds the older states once, one at a time, and keeps what it computed.  No Qt.
"""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np

from hieradjudicate.core.errors import HieradjError
from hieradjudicate.core.stats.timeline_stats import FleissSide, fleiss_side

PREFIX = "timeline-state-"
#: the resamples and seed of the figures kept at an import (the command line's and the window's defaults)
RESAMPLES, SEED = 1000, None


def state_key(by_id: dict[int, Any], files: tuple[int, ...]) -> str:
    """A state's content: each of its stored copies' SHA-256, kind and role."""
    return ",".join(f"{by_id[i].sha256}:{by_id[i].kind}:{by_id[i].role}" for i in files)


def state_name(by_id: dict[int, Any], files: tuple[int, ...]) -> str:
    """The name a state's side is kept under: a hash of its content (:func:`state_key`)."""
    return PREFIX + hashlib.sha256(state_key(by_id, files).encode()).hexdigest()[:32]


def corpus_side(corpus: Any, group: list[int], stats: Any = None) -> FleissSide:
    """The Fleiss side of the sets ``group`` of a corpus (the annotator group, laid out as the
    dashboard does: a crowd's stays one leaf per row), in the corpus's own instance indices;
    ``stats``: the caller's :class:`~hieradjudicate.app.stats.Stats` of it."""
    from hieradjudicate.app.stats import Stats

    return fleiss_side((stats or Stats(corpus)).layout(group))


def instance_keys(corpus: Any) -> np.ndarray:
    """``lexelt<TAB>instance id`` of every instance of ``corpus``."""
    lex = np.asarray(corpus.inventory.lexelts, dtype=object)[corpus.inst_lexelt]
    return np.asarray(lex + "\t" + np.asarray(corpus.inst_id, dtype=object), dtype=str)


def map_keys(keys: np.ndarray, corpus: Any) -> np.ndarray:
    """Each key as an instance index of ``corpus`` (-1 where it lacks it)."""
    kn = instance_keys(corpus)
    if not kn.size or not keys.size:
        return np.full(keys.size, -1, np.int64)
    order = np.argsort(kn)
    pos = np.minimum(np.searchsorted(kn[order], keys), kn.size - 1)
    return np.where(kn[order][pos] == keys, order[pos], -1).astype(np.int64)


def side_arrays(side: FleissSide, corpus: Any) -> dict[str, np.ndarray]:
    """A side of ``corpus`` as arrays to keep: its statistics and each instance's key."""
    return {"V": side.V, "keys": instance_keys(corpus)[side.seg_inst]}


def side_from_arrays(arrays: dict[str, np.ndarray], corpus: Any) -> FleissSide:
    """A kept side on the instances of ``corpus`` (those it lacks dropped), in layout order."""
    inst = map_keys(np.asarray(arrays["keys"]), corpus)
    lex = np.where(inst >= 0, corpus.inst_lexelt[np.maximum(inst, 0)], -1)
    X = len(corpus.inventory.lexelts)
    return FleissSide(np.asarray(arrays["V"], np.float64), inst, lex, X).sorted_by(inst, lex, X)


def rebased(side: FleissSide, old: Any, corpus: Any) -> FleissSide:
    """A side of the corpus ``old`` on the instances of ``corpus``."""
    return side_from_arrays(side_arrays(side, old), corpus)


def is_kept(store: Any, name: str) -> bool:
    names = getattr(store, "array_names", None)
    if names is not None:
        return name in set(names())
    return hasattr(store, "get_arrays") and store.get_arrays(name) is not None


def load_side(store: Any, name: str, corpus: Any) -> FleissSide | None:
    """The side kept under ``name`` on the instances of ``corpus`` (None: none or unreadable)."""
    if not hasattr(store, "get_arrays"):
        return None
    try:
        got = store.get_arrays(name)
        return None if got is None else side_from_arrays(got[0], corpus)
    except (HieradjError, KeyError, ValueError, OSError):
        return None


def keep_arrays(store: Any, name: str, arrays: dict[str, np.ndarray]) -> None:
    """Write a side's arrays, compressed (MASC: 10 MB -> 0.5 MB, 0.2 CPU-s; read back in 0.02 s)."""
    store.put_arrays(name, arrays, {"what": "Fleiss statistics of a state"}, compress=True)


def save_side(store: Any, name: str, side: FleissSide, corpus: Any) -> None:
    """Keep a side when the project can be written (a cache: refused, nothing lost)."""
    if not hasattr(store, "put_arrays") or getattr(store, "read_only", True):
        return
    try:
        keep_arrays(store, name, side_arrays(side, corpus))
    except HieradjError:
        pass
