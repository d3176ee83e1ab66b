"""Annotator agreement at each import and re-import of the project's sets (issue 32).

The project keeps every copy of every imported file (a re-imported copy is
marked replaced, never deleted) with the time it was imported.  The state at
an import is the copies in effect once it was stored
(:func:`~hieradjudicate.io.store.inputs.effective_files` over the
copies stored up to then).  For each state the figures are the dashboard's
group figures (:class:`~hieradjudicate.app.stats.Stats`): mean pairwise
kappa (Cohen and Scott), Fleiss' kappa, Davies & Fleiss' (Conger's) kappa
and Krippendorff's alpha, Fleiss' kappa per lexelt (``fleiss:LEXELT``), each
set's mean kappa with the others, and the BCa
intervals of Fleiss' kappa and alpha
(:func:`~hieradjudicate.core.agreement.bootstrap.bootstrap_figures`).

The newest state is the corpus the project has open (never rebuilt).  An
older state is rebuilt from its stored copies once.  Every state's figures,
the newest's too, are kept in the project's array cache (``timeline-imports``)
when the project is writable, keyed by the content of its copies (SHA-256),
so later views read them (they never change: the copies are kept as they
were imported) and a state whose copies are the same as another's is computed
once.  No Qt.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from hieradjudicate.io.store.inputs import effective_files
from hieradjudicate.app.stats import Stats
from hieradjudicate.app.timeline.decisions import Figure
from hieradjudicate.app.timeline.states import state_key
from hieradjudicate.core.agreement.bootstrap import bootstrap_figures
from hieradjudicate.core.errors import ProjectError
from hieradjudicate.core.model import Corpus
from hieradjudicate.io.store.records import FileRecord

CACHE = "timeline-imports"
FIGURES = ("mean_kappa_cohen", "mean_kappa_scott", "fleiss", "conger", "alpha")


@dataclass(frozen=True)
class ImportEvent:
    at: str  # imported_at of the copy (UTC)
    label: str  # "project created" or "re-import of NAME (file)"
    files: tuple[int, ...]  # the copies in effect after it
    sets: tuple[str, ...]  # the sets the import brought in


@dataclass(frozen=True)
class ImportPoint:
    event: ImportEvent
    n_instances: int
    sets: list[str]  # the group compared
    figures: dict[str, Figure]  # FIGURES
    per_set: dict[str, float | None]  # each set's mean Cohen kappa with the others


def import_events(store: Any) -> list[ImportEvent]:
    """The project's creation and every re-import since, oldest first."""
    files: list[FileRecord] = sorted(store.files(active_only=False), key=lambda f: f.id)
    if not files:
        return []
    events: list[ImportEvent] = []
    first = [f for f in files if "replaces" not in f.options]
    last_first = max(f.id for f in first) if first else files[0].id
    created = [f for f in files if f.id <= last_first]
    events.append(ImportEvent(max(f.imported_at for f in created), "project created",
                              tuple(f.id for f in effective_files(created)),
                              tuple(n for f in created if f.kind == "annotations" for n in f.set_names)))
    for f in files:
        if f.id > last_first:
            upto = [g for g in files if g.id <= f.id]
            what = "re-import" if "replaces" in f.options else "import"
            name = ", ".join(f.set_names) or f.source_path
            events.append(ImportEvent(f.imported_at, f"{what} of {name}",
                                      tuple(g.id for g in effective_files(upto)), tuple(f.set_names)))
    return events


def group_of(corpus: Corpus) -> list[int]:
    """The dashboard's group: the annotator sets, or every non-gold set when fewer than two."""
    ann = [k for k, s in enumerate(corpus.sets) if s.role == "annotator"]
    return ann if len(ann) >= 2 else [k for k, s in enumerate(corpus.sets) if s.role != "gold"]


def corpus_figures(corpus: Corpus, *, n_resamples: int = 1000, seed: int | None = None,
                   stats: Stats | None = None) -> tuple[list[str], dict[str, Figure], dict[str, float | None]]:
    """The group figures of one corpus (see the module docstring); ``stats``: the caller's cached ones."""
    from hieradjudicate.core.agreement.bootstrap import DEFAULT_SEED

    stats = stats or Stats(corpus)
    group = group_of(corpus)
    names = [corpus.sets[k].name for k in group]
    if len(group) < 2:
        none = Figure(None, why="fewer than two sets to compare")
        return names, {k: none for k in FIGURES}, {}
    pm, multi, alpha = stats.agreement(group)
    fl, ci_a, per_lexelt = None, None, [None] * len(multi.lexelt_fleiss)
    if n_resamples > 0:
        from hieradjudicate.core.agreement.lexelt_intervals import fleiss_intervals

        lay = stats.layout(group)
        s0 = DEFAULT_SEED if seed is None else seed
        b = bootstrap_figures(lay.inst, lay.rater, None, corpus.inst_lexelt, pairs=[], layout=lay,
                              n_lexelts=len(corpus.inventory.lexelts), n_resamples=n_resamples, seed=s0)
        fl, ci_a = b.fleiss, b.alpha
        # each lexelt's Fleiss interval, as the dashboard's lexelt table draws it (one stratified resampling)
        _, per_lexelt = fleiss_intervals(None, None, None, corpus.inst_lexelt, n_lexelts=len(corpus.inventory.lexelts),
                                         n_resamples=n_resamples, seed=s0,
                                         lexelt_kappas=[f.kappa for f in multi.lexelt_fleiss], layout=lay)

    def fig(value: float | None, n: float, ci: Any = None, why: str | None = None) -> Figure:
        if ci is not None:
            return Figure(value, ci.low, ci.high, int(n), ci.reason)
        return Figure(value, n=int(n), why=why)

    no_ci = "no interval (none in the bootstrap machinery)" if n_resamples > 0 else "no resamples"
    mc, ms = pm.mean_kappa("cohen"), pm.mean_kappa("scott")
    figures = {
        "mean_kappa_cohen": fig(mc.value, mc.n or 0, why="mean of the pairs (no interval)"),
        "mean_kappa_scott": fig(ms.value, ms.n or 0, why="mean of the pairs (no interval)"),
        "fleiss": fig(multi.fleiss.kappa.value, multi.fleiss.n, fl, None if fl else no_ci),
        "conger": fig(multi.conger.kappa.value, multi.conger.n, why=no_ci),
        "alpha": fig(alpha.alpha.value, alpha.n_pairable, ci_a, None if ci_a else no_ci),
    }
    lexelts = corpus.inventory.lexelts
    for x, ag in enumerate(multi.lexelt_fleiss):  # per lexelt: "fleiss:bank.n", with its interval
        if ag.n > 0:
            ci = per_lexelt[x] if x < len(per_lexelt) else None
            figures[f"fleiss:{lexelts[x]}"] = fig(ag.kappa.value, ag.n, ci, None if ci else no_ci)
    k = np.ma.masked_invalid(np.ma.asarray(pm.kappa_cohen, dtype=np.float64))
    m = len(group)
    k = np.ma.array(k, mask=np.ma.getmaskarray(k) | np.eye(m, dtype=bool))
    mean = k.mean(axis=1)
    per_set = {n: (None if np.ma.is_masked(v) else float(v)) for n, v in zip(names, mean)}
    return names, figures, per_set


def _to_json(p: ImportPoint) -> dict[str, Any]:
    return {"n": p.n_instances, "sets": p.sets, "per_set": p.per_set,
            "figures": {k: v.as_dict() for k, v in p.figures.items()}}


def _from_json(e: ImportEvent, d: dict[str, Any]) -> ImportPoint:
    return ImportPoint(e, int(d["n"]), list(d["sets"]), {k: Figure(**v) for k, v in d["figures"].items()},
                       dict(d["per_set"]))


@dataclass
class ImportPlan:
    """What the import points need from the store, read in one go (the caller's thread: a SQLite
    connection stays in its thread); :func:`compute_import_points` then touches no store."""

    events: list[ImportEvent]
    files: dict[int, FileRecord]
    known: dict[str, Any]  # the cache: figures of older states by key
    data: dict[int, bytes]  # stored copies of the older states not in the cache
    n_resamples: int
    seed: int | None
    location: Any  # the store (only its name, in a message, when a copy cannot be read)

    def key(self, e: ImportEvent) -> str:
        """The state's content (each copy's SHA-256, kind and role: the same files give the same
        figures, whichever import brought them), the resamples and the seed."""
        files = ",".join(f"{self.files[i].sha256}:{self.files[i].kind}:{self.files[i].role}" for i in e.files)
        return f"v3|{files}|{self.n_resamples}|{self.seed}"  # v3: each lexelt with its interval


def import_plan(store: Any, *, n_resamples: int = 1000, seed: int | None = None,
                fetch: bool = True) -> ImportPlan:
    """Read the events, the cache and (``fetch``) the bytes of the older states to rebuild."""
    events = import_events(store)
    by_id = {f.id: f for f in store.files(active_only=False)} if events else {}
    stored = (store.get_arrays(CACHE) if hasattr(store, "get_arrays") else None) or ({}, {})
    plan = ImportPlan(events, by_id, dict(stored[1]), {}, n_resamples, seed, store)
    if fetch:
        for e in events[:-1]:
            if plan.key(e) not in plan.known and plan.key(e) != plan.key(events[-1]):
                for i in e.files:
                    if i not in plan.data:
                        plan.data[i] = store.file_bytes(i)
    return plan


def states_to_rebuild(store: Any, *, n_resamples: int = 1000, seed: int | None = None) -> int:
    """How many older states a view must rebuild from the stored copies (none kept: a project made
    by an older version); 0 when every state's figures are kept."""
    plan = import_plan(store, n_resamples=n_resamples, seed=seed, fetch=False)
    if not plan.events:
        return 0
    last = plan.key(plan.events[-1])
    return len({plan.key(e) for e in plan.events[:-1]} - set(plan.known) - {last})


REBUILD_NOTE = ("rebuilding {n} older state(s) of the annotations from the project's stored copies, once "
                "(a project made by an older version keeps none; a crowd's take about half a minute each); "
                "they are kept for the next view")


def compute_import_points(plan: ImportPlan, corpus: Corpus, *, stats: Stats | None = None,
                          rebuild: Callable[[Any, list[FileRecord]], Corpus] | None = None
                          ) -> tuple[list[ImportPoint], dict[str, Any]]:
    """The points of ``plan`` (the newest from ``corpus``) and the cache entries they added."""
    if rebuild is None:
        from hieradjudicate.app.session.stored_inputs import reload_corpus

        def rebuild(store: Any, files: list[FileRecord]) -> Corpus:
            return reload_corpus(store, files, data=plan.data)
    out: list[ImportPoint] = []
    added: dict[str, Any] = {}
    for j, e in enumerate(plan.events):
        key = plan.key(e)
        if key in plan.known or key in added:  # kept (or met earlier in this plan): the same content
            out.append(_from_json(e, plan.known.get(key) or added[key]))
        elif j == len(plan.events) - 1:  # the newest: the corpus the project has open, never rebuilt
            names, figs, per_set = corpus_figures(corpus, n_resamples=plan.n_resamples, seed=plan.seed, stats=stats)
            p = ImportPoint(e, corpus.n, names, figs, per_set)
            added[key] = _to_json(p)
            out.append(p)
        else:
            old = rebuild(plan.location, [plan.files[i] for i in e.files])
            names, figs, per_set = corpus_figures(old, n_resamples=plan.n_resamples, seed=plan.seed)
            n_old = old.n
            del old  # a crowd's older corpus is hundreds of MB: gone before the next
            p = ImportPoint(e, n_old, names, figs, per_set)
            added[key] = _to_json(p)
            out.append(p)
    return out, added


def save_import_cache(store: Any, plan: ImportPlan, added: dict[str, Any]) -> None:
    """Keep the added entries in the project when it can be written (a cache: refused, nothing lost)."""
    if added and hasattr(store, "put_arrays") and not getattr(store, "read_only", True):
        try:
            store.put_arrays(CACHE, {}, {**plan.known, **added})
        except ProjectError:
            pass


def import_timeline(store: Any, corpus: Corpus, *, n_resamples: int = 1000, seed: int | None = None,
                    stats: Stats | None = None, rebuild: Callable[[Any, list[FileRecord]], Corpus] | None = None,
                    cache: bool = True) -> list[ImportPoint]:
    """One point per :func:`import_event`; the newest from ``corpus`` itself (see the module docstring).

    ``rebuild(store, files)`` makes the corpus of older states (default: the stored copies read
    again, as a re-import does).
    """
    plan = import_plan(store, n_resamples=n_resamples, seed=seed, fetch=rebuild is None)
    if not plan.events:
        return []
    points, added = compute_import_points(plan, corpus, stats=stats, rebuild=rebuild)
    if cache:
        save_import_cache(store, plan, added)
    return points


DIFFERENCES = "timeline-fleiss-before-after"  # the project's cache of the Fleiss differences, by content


def difference_key(by_id: dict[int, Any], before: tuple[int, ...], now: tuple[int, ...], n_resamples: int,
                   seed: int) -> str:
    """What a Fleiss before/after depends on: the content of both states, the resamples and the seed."""
    return f"{state_key(by_id, before)}->{state_key(by_id, now)}|{n_resamples}|{seed}"


def files_to_rebuild(store: Any, marks: list[Any], *, n_resamples: int, seed: int) -> set[int]:
    """The stored copies the markers' Fleiss before/after still need (none when all are kept)."""
    events = import_events(store)
    if not events:
        return set()
    by_id = {f.id: f for f in store.files(active_only=False)}
    kept = _kept_differences(store)
    out: set[int] = set()
    from hieradjudicate.app.timeline.states import is_kept, state_name

    for m in marks:
        before = [e for e in events if e.at < m.at]
        if before and before[-1].files != events[-1].files and \
                difference_key(by_id, before[-1].files, events[-1].files, n_resamples, seed) not in kept and \
                not is_kept(store, state_name(by_id, before[-1].files)):  # its side kept: compared without it
            out |= set(before[-1].files)
    return out


def kept_sides(store: Any, marks: list[Any]) -> dict[str, Any]:
    """The Fleiss sides kept for the states the markers' before/after compare (name -> arrays)."""
    from hieradjudicate.app.timeline.states import state_name

    events = import_events(store)
    if not events or not marks or not hasattr(store, "get_arrays"):
        return {}
    by_id = {f.id: f for f in store.files(active_only=False)}
    names = {state_name(by_id, events[-1].files)}
    for m in marks:
        before = [e for e in events if e.at < m.at]
        if before:
            names.add(state_name(by_id, before[-1].files))
    out = {}
    for name in sorted(names):
        got = store.get_arrays(name)
        if got is not None:
            out[name] = got
    return out




def _kept_differences(store: Any) -> dict[str, Any]:
    got = store.get_arrays(DIFFERENCES) if hasattr(store, "get_arrays") else None
    return dict(got[1]) if got else {}


class StoredCopies:
    """The store's file records, its timeline cache and the bytes of every stored copy, read at once
    (in the store's thread: a SQLite connection stays in its thread) for the import points computed
    in another thread.  It answers what :func:`import_plan` and
    :func:`~hieradjudicate.app.session.stored_inputs.reload_corpus` ask of a store."""

    def __init__(self, store: Any, marks: list[Any] | None = None, *, n_resamples: int = 1000,
                 seed: int | None = None, also: set[int] | frozenset[int] = frozenset()) -> None:
        """``marks`` given: only the copies still needed are read -- those of the older states not kept
        (the import points, the markers' Fleiss before/after at ``n_resamples`` and ``seed``) and
        ``also`` (e.g. :func:`~hieradjudicate.app.timeline.dated.files_without_kept_dates`)."""
        self.path = getattr(store, "path", "the project")
        self.read_only = True  # nothing is written through it
        self._files = store.files(active_only=False)
        self._cache = store.get_arrays(CACHE) if hasattr(store, "get_arrays") else None
        self._differences = store.get_arrays(DIFFERENCES) if hasattr(store, "get_arrays") else None
        self.held: dict[str, Any] = {}  # Fleiss before/after computed in the thread, for the owner to keep
        self.held_sides: dict[str, Any] = {}  # Fleiss sides of states rebuilt in the thread, likewise
        self._sides = kept_sides(store, marks or [])  # those kept when their states came to be
        if marks is None:
            wanted = {f.id for f in self._files}
        else:
            plan = import_plan(self, n_resamples=n_resamples, seed=seed, fetch=False)
            last = plan.key(plan.events[-1]) if plan.events else None
            wanted = {i for e in plan.events[:-1] if plan.key(e) not in plan.known and plan.key(e) != last
                      for i in e.files}
            wanted |= files_to_rebuild(self, marks, n_resamples=n_resamples, seed=0 if seed is None else seed)
            wanted |= set(also)
        self._bytes = {i: store.file_bytes(i) for i in sorted(wanted)}

    def files(self, kind: str | None = None, *, active_only: bool = True) -> list[FileRecord]:
        return [f for f in self._files if (kind is None or f.kind == kind) and (f.active or not active_only)]

    def file_bytes(self, file_id: int) -> bytes:
        return self._bytes[file_id]

    def get_arrays(self, name: str) -> Any:
        return self._cache if name == CACHE else self._differences if name == DIFFERENCES else \
            self._sides.get(name)

    def keep_held(self, store: Any) -> None:
        """Write what the thread computed into ``store`` (the owner's thread; a cache: refused, nothing lost)."""
        if not hasattr(store, "put_arrays") or getattr(store, "read_only", True):
            return
        try:
            if self.held:
                store.put_arrays(DIFFERENCES, {}, {**_kept_differences(store), **self.held})
            from hieradjudicate.app.timeline.states import keep_arrays

            for name, arrays in self.held_sides.items():
                keep_arrays(store, name, arrays)
        except ProjectError:
            pass
