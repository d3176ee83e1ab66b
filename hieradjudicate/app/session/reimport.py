"""Re-import a changed annotation file: replace its sets, flag the decisions whose basis changed.

An annotator fixes their work and sends the file again.  :class:`Reimport`
(run by :meth:`Session.reimport <hieradjudicate.app.session.session.Session.reimport>`
through the undo stack) reads the new file together with the project's
other stored copies, and only if that succeeds:

1. appends, in one transaction, a ``flagged`` decision (same tags, source and
   basis, a note saying why) for every current decision whose basis changed:

   * source ``set:<name>`` for a set of the file, when that set's tags for
     the instance differ from the tags the decision was taken from (its
     basis, else its own tags) -- including the set no longer answering;
   * source ``auto-agreement``, when the agreement recorded in its basis
     (identical, or compatible most/least specific) no longer holds over the
     annotators now, or would now pick other tags;

   only instances where the file's answers changed are examined; every other
   decision (manual, suggestion, import, other sets) is left as it is;
2. stores the new copy (options ``replaces`` = the old copy's id and
   ``order`` = its place, so the sets keep their position), then marks the
   old copy replaced (it stays in the project, for the record);
3. replaces the session's corpus and refreshes the corpus cache.

A crash between steps leaves a consistent project: flags without the new
file (re-import again), or both copies stored with the newer one in effect
(:func:`effective_files` ignores a copy another active copy replaces).

Undo re-imports the previous copy (no flags) and restores the decisions as
they were before the flags; redo does the converse.  Both are saved changes.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from hieradjudicate.app.session.batch import agreement
from hieradjudicate.app.session.commands import Applied, Command, Decide
from hieradjudicate.app.session.decisions import Decision, DecisionState
from hieradjudicate.app.session.stored_inputs import (
    check_storable,
    reload_corpus,
    write_cache,
)
from hieradjudicate.app.timeline.at_import import keep_state
from hieradjudicate.core.errors import ProjectError
from hieradjudicate.io.store.inputs import effective_files
from hieradjudicate.core.model import Corpus, tag_set_signature
from hieradjudicate.io.store.project_store import DecisionRow, FileRecord, Store, utc_now
from hieradjudicate.io.textfile import display_path


class ReimportHost(Protocol):
    """What a re-import needs of the open project (the :class:`~hieradjudicate.app.session.session.Session`
    fits): typed, so a reader sees exactly what is touched, without importing the session."""

    store: Store
    corpus: Corpus

    @property
    def read_only(self) -> bool: ...

    @property
    def read_only_reason(self) -> str | None: ...

    def replace_corpus(self, corpus: Corpus) -> None: ...

    def execute(self, command: Command) -> Any: ...

Key = tuple[str, str]


def find_file(store: Store, key: str | int) -> FileRecord:
    """The active annotation copy with id ``key`` or holding the set named ``key``."""
    files = effective_files(store.files("annotations"))
    if isinstance(key, int) or str(key).isdigit():
        for f in files:
            if f.id == int(key):
                return f
    for f in files:
        if str(key) in f.set_names:
            return f
    names = ", ".join(n for f in files for n in f.set_names)
    raise ProjectError(f"{store.path}: no annotation set or file {key!r}; sets are: {names}")


@dataclass
class ReimportResult:
    """What a re-import did."""

    old_file: int
    new_file: int
    path: str
    sets: list[str]
    changed: int  # instances where the file's answers changed
    flagged: list[DecisionRow] = field(default_factory=list)

    def __str__(self) -> str:
        return (f"re-imported {', '.join(self.sets) or 'no set'} from {self.path}: "
                f"{self.changed} instance(s) changed, {len(self.flagged)} decision(s) flagged")


def changed_keys(old: Corpus, new: Corpus, names: Sequence[str]) -> dict[str, set[Key]]:
    """Per set name, the instances whose tag set differs between the two corpora (vectorised;
    an answer present in only one of them counts as changed)."""
    inv_o, inv_n = old.inventory, new.inventory
    node_index = {(inv_n.lexelts[int(x)], t): k
                  for k, (x, t) in enumerate(zip(inv_n.node_lexelt.tolist(), inv_n.node_id))}
    node_map = np.asarray([node_index.get((inv_o.lexelts[int(x)], t), -1)
                           for x, t in zip(inv_o.node_lexelt.tolist(), inv_o.node_id)], np.int64)
    to_new = np.asarray([new.instance_index(*old.instance_key(i)) for i in range(old.n)], np.int64)
    out: dict[str, set[Key]] = {}
    for name in names:
        so = next((s for s in old.sets if s.name == name), None)
        sn = next((s for s in new.sets if s.name == name), None)
        keys: set[Key] = set()
        if so is None and sn is not None:
            keys.update(new.instance_key(i) for i in sn.rows.tolist())
        elif sn is None and so is not None:
            keys.update(old.instance_key(i) for i in so.rows.tolist())
        elif so is not None and sn is not None:
            o_rows = to_new[so.rows]
            lost = o_rows < 0
            keys.update(old.instance_key(i) for i in so.rows[lost].tolist())
            mapped = node_map[so.tag_node]
            o_sig = tag_set_signature(so.tag_ptr, np.where(mapped < 0, 0, mapped))
            o_sig[np.add.reduceat((mapped < 0).astype(np.int64), so.tag_ptr[:-1]) > 0
                  if so.n else np.zeros(0, bool)] = -1  # a tag the new inventory lacks
            o_rows, o_sig = o_rows[~lost], o_sig[~lost]
            order = np.argsort(o_rows)
            o_rows, o_sig = o_rows[order], o_sig[order]
            both, io_, in_ = np.intersect1d(o_rows, sn.rows, assume_unique=True,
                                            return_indices=True)
            diff = both[o_sig[io_] != sn.signature[in_]]
            only = np.setxor1d(o_rows, sn.rows, assume_unique=True)
            keys.update(new.instance_key(i) for i in np.concatenate([diff, only]).tolist())
        out[name] = keys
    return out


def _answer(corpus: Corpus, name: str, key: Key) -> tuple[str, ...] | None:
    s = next((x for x in corpus.sets if x.name == name), None)
    i = corpus.instance_index(*key)
    if s is None or i < 0:
        return None
    r = int(s.position(np.asarray([i]))[0])
    return None if r < 0 else tuple(corpus.tag_strings(s, r))


def _show(tags: tuple[str, ...] | None) -> str:
    return "no answer" if tags is None else " ".join(tags)


def flag_decisions(old: Corpus, new: Corpus, state: DecisionState, names: Sequence[str],
                   file_label: str) -> tuple[list[Decision], int]:
    """The ``flagged`` decisions a re-import appends, and how many instances changed."""
    changed = changed_keys(old, new, names)
    touched: dict[Key, list[str]] = {}
    for name, keys in changed.items():
        for k in keys:
            touched.setdefault(k, []).append(name)
    agreements: dict[tuple[str, str], dict[Key, tuple[str, ...]]] = {}

    def agreed(rule: str, specific: str) -> dict[Key, tuple[str, ...]]:
        if (rule, specific) not in agreements:
            agr = agreement(new, compatible=rule == "compatible", specific=specific)
            agreements[rule, specific] = {
                new.instance_key(int(i)): tuple(new.tag_strings(
                    new.sets[int(k)], int(new.sets[int(k)].position(np.asarray([i]))[0])))
                for i, k in zip(agr.instances.tolist(), agr.chosen.tolist(), strict=True)
                if new.instance_key(int(i)) in touched}
        return agreements[rule, specific]

    flags = []
    for row in state:
        sets = touched.get(row.key)
        if sets is None or row.status not in ("resolved", "flagged"):
            continue
        why = None
        basis: dict[str, Any] = dict(row.basis or {})
        if row.source.startswith("set:") and row.source[4:] in sets:
            name = row.source[4:]
            before = tuple(basis.get("tags") or row.tags)
            now = _answer(new, name, row.key)
            if now is None or set(now) != set(before):
                why = f"{name}'s answer changed from {_show(before)} to {_show(now)}"
        elif row.source == "auto-agreement":
            rule = str(basis.get("rule", "identical"))
            pick = agreed("compatible" if rule == "compatible" else "identical",
                          str(basis.get("specific", "most")))
            now = pick.get(row.key)
            what = ", ".join(f"{n}: {_show(_answer(old, n, row.key))} -> "
                             f"{_show(_answer(new, n, row.key))}" for n in sorted(sets))
            if now is None:
                why = f"the annotators no longer agree ({what})"
            elif set(now) != set(row.tags):
                why = f"the agreed answer is now {_show(now)} ({what})"
        if why is not None:
            note = f"re-import of {file_label}: {why}"
            if row.note:
                note += f" [earlier note: {row.note}]"
            flags.append(Decision(row.lexelt, row.instance, row.tags, row.source, "flagged", note,
                                  basis=row.basis))
    return flags, len(set(touched))


class Reimport(Command):
    """Replace one stored annotation copy by new bytes; flag (or restore) decisions."""

    def __init__(self, session: ReimportHost, file_id: int, data: bytes, source_path: str, *,
                 flag: bool = True, restore: Sequence[Decision] = (),
                 label: str | None = None) -> None:
        self.session = session
        self.file_id = file_id
        self.data = data
        self.source_path = os.path.abspath(source_path)
        self.flag = flag
        self.restore = list(restore)
        self.label = label or f"re-import {Path(source_path).name}"
        self.result: ReimportResult | None = None

    def execute(self, state: DecisionState, *, kind: str = "do") -> Applied:
        session, store = self.session, self.session.store
        if store.read_only_reason is not None:
            raise ProjectError(f"cannot re-import: {store.read_only_reason}")
        files = effective_files(store.files())
        old = next((f for f in files if f.id == self.file_id), None)
        if old is None or old.kind != "annotations":
            raise ProjectError(f"{store.path}: no annotation file with id {self.file_id} in use")
        options = dict(old.options)
        if not options.get("name") and len(old.set_names) == 1:
            options["name"] = old.set_names[0]  # the set keeps its name whatever the file is called
        options["order"] = old.options.get("order", old.id)
        options["replaces"] = old.id
        pending = FileRecord(-1, "annotations", old.role, (), old.format, options,
                             self.source_path, len(self.data), "", utc_now())
        # 1. read everything first: a file that cannot be read changes nothing
        new_corpus = reload_corpus(store, [pending if f.id == old.id else f for f in files],
                             data={-1: self.data})
        new_sets = [s.name for s in new_corpus.sets if s.source == self.source_path]
        label = Path(self.source_path).name
        if self.flag:
            decisions, changed = flag_decisions(session.corpus, new_corpus, state,
                                                sorted(set(old.set_names) | set(new_sets)), label)
        else:
            decisions = self.restore
            changed = len(set().union(*changed_keys(session.corpus, new_corpus,
                                                    sorted(set(old.set_names) | set(new_sets)))
                                      .values()))
        # 2. the decisions, then the copy (see the module docstring for crash safety)
        inverse_decide, rows = Decide(decisions, self.label).execute(state, kind=kind)
        old_bytes = store.file_bytes(old.id)
        try:
            rec = store.add_file("annotations", self.source_path, data=self.data, role=old.role,
                                 set_names=new_sets, format=old.format, options=options)
        except ProjectError:
            if rows:
                inverse_decide.execute(state, kind="undo")
            raise
        store.deactivate_file(old.id)
        # 3. the corpus in memory and its cache
        session.replace_corpus(new_corpus)
        write_cache(store, new_corpus)
        keep_state(store, new_corpus)  # the timeline's import point and Fleiss side of this state
        self.result = ReimportResult(old.id, rec.id, self.source_path, new_sets, changed,
                                     rows if self.flag else [])
        inverse = Reimport(session, rec.id, old_bytes, old.source_path, flag=False,
                           restore=getattr(inverse_decide, "decisions", []),
                           label=self.label)
        return Applied(inverse, rows)

    def __repr__(self) -> str:
        return f"Reimport({self.label!r}, file {self.file_id})"


def reimport(session: ReimportHost, key: str | int, path: str | os.PathLike[str]) -> ReimportResult:
    """Re-import ``path`` in place of the annotation file ``key`` (set name or file id);
    undoable as one step.  Raises :class:`ProjectError` (read-only, unknown set, unreadable
    file) or :class:`~hieradjudicate.core.errors.FormatError` before anything is changed."""
    if session.read_only:
        raise ProjectError(f"cannot re-import: {session.read_only_reason}")
    old = find_file(session.store, key)
    check_storable(os.fspath(path))  # a regular file, small enough to keep a copy of
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise ProjectError(f"{display_path(path)}: cannot read the file to import "
                           f"({exc.strerror})") from None
    # the project keeps the name as UTF-8 text: undecodable bytes are stored escaped
    command = Reimport(session, old.id, data, display_path(path))
    session.execute(command)
    assert command.result is not None
    return command.result

