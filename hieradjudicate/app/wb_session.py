"""The workbench's project session (adapter until ``app.session`` exists).

Opens or creates a ``.hadj`` project (:mod:`hieradjudicate.io.store`), builds
the corpus from the copies of the input files the project keeps, and runs
every decision through the undoable command stack
(:mod:`hieradjudicate.app.commands`): each decision is committed to disk
when it is made, so there is never anything unsaved.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from hieradjudicate.app.commands import CommandStack, Decide
from hieradjudicate.app.decisions import Decision, DecisionState
from hieradjudicate.app.loading import AnnotationSpec, LoadResult, load
from hieradjudicate.core.errors import FormatError, Problem
from hieradjudicate.core.model import Corpus, CorpusBuilder
from hieradjudicate.core.records import AnnotationSource
from hieradjudicate.io.store import DecisionRow, Store


class WorkbenchSession:
    """An open project: store, corpus, current decisions and the undo stack."""

    def __init__(self, store: Store, corpus: Corpus) -> None:
        self.store = store
        self.corpus = corpus
        self.state = DecisionState(store)
        self.stack = CommandStack(self.state)
        self._listeners: list[Callable[[list[DecisionRow]], None]] = []
        self.last_saved: str | None = None

    # ---------------------------------------------------------------- opening
    @classmethod
    def create(cls, path: str | os.PathLike[str], inventories: Sequence[str],
               annotations: Sequence[AnnotationSpec], contexts: Sequence[str] = (),
               *, overwrite: bool = False) -> WorkbenchSession:
        """Read and check the inputs, then create the project keeping a copy of every file."""
        result = load_inputs(list(inventories), list(annotations), list(contexts))
        assert result.corpus is not None
        store = Store.create(path, overwrite=overwrite)
        try:
            for p in inventories:
                store.add_file("inventory", p)
            for spec, rep in zip(annotations, [f for f in result.files if f.kind == "annotations"]):
                store.add_file("annotations", spec.path, role=spec.role, set_names=rep.sets or
                               ([spec.name] if spec.name else []), format=spec.format)
            for p in contexts:
                store.add_file("contexts", p)
            _cache_contexts(store, result.corpus, store.files("contexts"))
        except BaseException:
            store.close()
            raise
        return cls(store, result.corpus)

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> WorkbenchSession:
        """Open a project and rebuild its corpus from the stored copies of its files."""
        store = Store.open(path)
        try:
            corpus = corpus_from_store(store)
        except BaseException:
            store.close()
            raise
        return cls(store, corpus)

    def close(self) -> None:
        self.store.close()

    @property
    def path(self) -> Path:
        return Path(self.store.path)

    @property
    def read_only(self) -> bool:
        return self.store.read_only

    # ---------------------------------------------------------------- editing
    def decide(self, decisions: Sequence[Decision], label: str | None = None) -> list[DecisionRow]:
        """Save decisions as one undoable step (committed before this returns)."""
        rows = self.stack.execute(Decide(list(decisions), label))
        self._emit(rows)
        return rows

    def undo(self) -> list[DecisionRow]:
        rows = self.stack.undo()
        self._emit(rows)
        return rows

    def redo(self) -> list[DecisionRow]:
        rows = self.stack.redo()
        self._emit(rows)
        return rows

    def subscribe(self, listener: Callable[[list[DecisionRow]], None]) -> Callable[[], None]:
        """``listener(rows)`` after every saved change (decide, undo, redo)."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def _emit(self, rows: list[DecisionRow]) -> None:
        if rows:
            self.last_saved = rows[-1].decided_at
        for f in list(self._listeners):
            f(rows)


def load_inputs(inventories: list[str], annotations: list[AnnotationSpec],
                contexts: list[str]) -> LoadResult:
    """:func:`~hieradjudicate.app.loading.load`, with a Senseval reader while ``io.annotations`` is absent."""
    try:
        import hieradjudicate.io.annotations  # noqa: F401
    except ImportError:
        return _load_fallback(inventories, annotations, contexts)
    return load(inventories, annotations, contexts, strict=True)


def corpus_from_store(store: Store) -> Corpus:
    """Write the stored copies to a private folder and read them as on import."""
    with tempfile.TemporaryDirectory(prefix="hadj-") as tmp:
        def put(rec) -> str:
            d = Path(tmp) / str(rec.id)
            d.mkdir()
            target = d / Path(rec.source_path).name
            target.write_bytes(store.file_bytes(rec.id))
            return str(target)

        invs = [put(r) for r in store.files("inventory")]
        specs = [AnnotationSpec(put(r), r.set_names[0] if len(r.set_names) == 1 else None,
                                r.role or "annotator", r.format) for r in store.files("annotations")]
        ctx_recs = store.files("contexts")
        cached = _cached_contexts(store, ctx_recs)
        ctxs = [] if cached is not None else [put(r) for r in ctx_recs]
        result = load_inputs(invs, specs, ctxs)
    corpus = result.corpus
    assert corpus is not None
    if cached is not None:
        _attach_contexts(corpus, *cached)
    elif ctx_recs and not store.read_only:
        _cache_contexts(store, corpus, ctx_recs)
    return corpus


_CTX_CACHE = "workbench_contexts"


def _cached_contexts(store: Store, recs) -> tuple[dict, dict] | None:
    """Parsed contexts kept in the project (keyed by the files' SHA-256): reading them is the slow part."""
    if not recs:
        return None
    try:
        got = store.get_arrays(_CTX_CACHE)
    except Exception:  # noqa: BLE001 - a damaged cache is rebuilt from the files
        return None
    if got is None or got[1].get("sha256") != [r.sha256 for r in recs]:
        return None
    return got


def _cache_contexts(store: Store, corpus: Corpus, recs) -> None:
    keys = sorted(corpus.contexts)
    texts = [corpus.contexts[i].text.encode("utf-8") for i in keys]
    lex = [corpus.contexts[i].lexelt.encode("utf-8") for i in keys]
    ids = [corpus.contexts[i].instance.encode("utf-8") for i in keys]
    heads = np.asarray([corpus.contexts[i].head or (-1, -1) for i in keys], np.int64).reshape(-1, 2)
    arrays: dict[str, np.ndarray] = {"heads": heads, "index": np.asarray(keys, np.int64)}
    for name, parts in (("text", texts), ("lexelt", lex), ("instance", ids)):
        arrays[name] = np.frombuffer(b"".join(parts), np.uint8)
        arrays[name + "_ptr"] = np.cumsum([0] + [len(p) for p in parts]).astype(np.int64)
    try:
        store.put_arrays(_CTX_CACHE, arrays, {"sha256": [r.sha256 for r in recs]})
    except Exception:  # noqa: BLE001 - the cache is an optimisation only
        pass


def _attach_contexts(corpus: Corpus, arrays: dict, meta: dict) -> None:
    from hieradjudicate.core.records import Context

    def strings(name: str) -> list[str]:
        buf, ptr = arrays[name].tobytes(), arrays[name + "_ptr"].tolist()
        return [buf[a:b].decode("utf-8") for a, b in zip(ptr[:-1], ptr[1:])]

    heads = arrays["heads"].tolist()
    index = arrays["index"].tolist()
    ids = strings("instance")
    # the same files build the same instance order: then the stored indices are used as they are
    same = bool(index) and max(index) < corpus.n and all(corpus.inst_id[i] == x for i, x in zip(index, ids))
    for j, (lex, inst, text, h) in enumerate(zip(strings("lexelt"), ids, strings("text"), heads)):
        i = index[j] if same else corpus.instance_index(lex, inst)
        if i >= 0:
            corpus.contexts[i] = Context(lex, inst, text, (h[0], h[1]) if h[0] >= 0 else None)


# --------------------------------------------------------------------------- fallback
def _load_fallback(inventories: list[str], annotations: list[AnnotationSpec],
                   contexts: list[str]) -> LoadResult:
    from hieradjudicate.app.loading import FileReport
    from hieradjudicate.io.contexts import read_contexts
    from hieradjudicate.io.inventories import read_inventory

    builder = CorpusBuilder()
    files: list[FileReport] = []
    for p in inventories:
        src = read_inventory(p)
        builder.add_inventory(src)
        files.append(FileReport(p, "inventory", src.format, list(src.problems)))
    for spec in annotations:
        a = read_senseval(spec.path, spec.name)
        builder.add_annotations(a, role=spec.role)
        files.append(FileReport(spec.path, "annotations", a.format, list(a.problems), sets=a.set_names))
    for p in contexts:
        c = read_contexts(p)
        builder.add_contexts(c)
        files.append(FileReport(p, "contexts", c.format, list(c.problems)))
    corpus = builder.build()
    return LoadResult(corpus, files, list(corpus.problems))


def read_senseval(path: str, name: str | None = None) -> AnnotationSource:
    """Minimal Senseval key/answer reader: ``lexelt instance tag[/weight] ...`` per line."""
    items: dict[tuple[str, str], int] = {}
    tags: dict[str, int] = {}
    it, tg, wt, ln = [], [], [], []
    problems: list[Problem] = []
    with open(path, encoding="utf-8") as fh:
        for no, line in enumerate(fh, 1):
            parts = line.split()
            if not parts or parts[0].startswith("#"):
                continue
            if len(parts) < 3:
                problems.append(Problem(path, no, "expected: lexelt instance tag ..."))
                continue
            key = (parts[0], parts[1])
            if key in items:
                continue
            items[key] = len(items)
            for t in parts[2:]:
                if t.startswith("!!"):
                    break
                tag, _, w = t.partition("/")
                it.append(items[key])
                tg.append(tags.setdefault(tag, len(tags)))
                try:
                    wt.append(float(w) if w else np.nan)
                except ValueError:
                    wt.append(np.nan)
                ln.append(no)
    if not items:
        raise FormatError([Problem(path, None, "no annotation line found")])
    keys = list(items)
    nm = name or Path(path).stem
    return AnnotationSource(path, "senseval", [nm], [k[0] for k in keys], [k[1] for k in keys], list(tags),
                            np.asarray(it, np.int64), np.zeros(len(it), np.int64), np.asarray(tg, np.int64),
                            np.asarray(wt, np.float64), np.asarray(ln, np.int64), problems)
