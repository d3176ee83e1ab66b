"""The project's stored input copies: writing them at creation, and assembling the corpus from
what :mod:`hieradjudicate.io.store.inputs` read of them (from the cache and the inventory copies,
or from every copy when the cache is stale, and on a re-import), plus the corpus cache they feed.

Loading is one pass in one direction: the store is read first, all at once, and the corpus is
assembled here from the bytes read; nothing here goes back to the store half-way."""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from hieradjudicate import __version__
from hieradjudicate.app.loading.load import AnnotationSpec, LoadResult, Progress, load
from hieradjudicate.app.progress import Steps
from hieradjudicate.app.session.cache import CACHE_NAME, corpus_from_cache, corpus_to_cache
from hieradjudicate.core.errors import ProjectError
from hieradjudicate.core.model import Corpus
from hieradjudicate.io.store.inputs import CACHE_READ_ERRORS, StoredInputs, effective_files, read_copies
from hieradjudicate.io.store.project_store import FileRecord, Store
from hieradjudicate.io.textfile import display_path


def store_copies(store: Store, result: LoadResult, specs: list[AnnotationSpec],
                  tree_columns: dict[str, str] | None) -> None:
    """Copy every file that was read into the project, with how it was read."""
    spec_iter = iter(specs)
    for report in result.files:
        options: dict[str, Any] = {}
        role = None
        if report.kind == "inventory":
            options = {"columns": tree_columns}
        elif report.kind == "annotations":
            spec = next(spec_iter)
            role = spec.role
            options = {"name": spec.name, "format": spec.format, "columns": spec.columns}
        data = None
        if report.format == "wordnet":  # a database folder: the lemmas used, as a tree table
            from hieradjudicate.io.inventories.wordnet import as_tree_table, read_wordnet

            lexelts = list(dict.fromkeys(result.corpus.inventory.lexelts)) if result.corpus else []
            store.add_file("inventory", "wordnet-senses.tsv", data=as_tree_table(read_wordnet(report.path, lexelts)),
                           format="tree-table", options={"columns": None, "from": str(report.path)})
            continue
        check_storable(report.path)
        if report.format == "uima-xmi":  # one .xmi file: its type system is kept with it
            from hieradjudicate.io.annotations.tools.uima import bundle_single_xmi

            data = bundle_single_xmi(report.path)
        source = report.path
        if display_path(source) != source:  # a non-UTF-8 name: SQLite text must be UTF-8
            if data is None:
                data = Path(source).read_bytes()
            source = display_path(source)
        store.add_file(report.kind, source, data=data, role=role, set_names=report.sets,
                       format=report.format or None, options=options)


#: The largest input a project keeps a copy of.  SQLite refuses values over 1,000,000,000 bytes
#: (SQLITE_MAX_LENGTH) and Python's driver over INT_MAX; the copy is at most about this size.
MAX_STORED_BYTES = 900 * 1024 * 1024


def check_storable(path: str) -> None:
    """Refuse, with a message, an input that is not a regular file (reading a FIFO would block)
    or too large to keep a copy of in the project file."""
    try:
        st = os.stat(path)
    except OSError:
        return  # reading it names the problem
    size = st.st_size
    if not stat.S_ISREG(st.st_mode):
        raise ProjectError(f"{display_path(path)}: not a regular file (a folder, pipe or device); "
                           "expected a file to keep a copy of")
    if size > MAX_STORED_BYTES:
        raise ProjectError(f"{display_path(path)}: {size:,} bytes is too large to keep a copy in "
                           f"the project (at most {MAX_STORED_BYTES:,} bytes); compress it with "
                           "gzip or split it into several files")


def write_cache(store: Store, corpus: Corpus, files: Sequence[FileRecord] | None = None) -> None:
    """Keep the corpus's cache, keyed to ``files`` (the copies in effect, read again when not given)."""
    arrays, meta = corpus_to_cache(corpus, effective_files(store.files()) if files is None else files)
    meta["app_version"] = __version__
    store.put_arrays(CACHE_NAME, arrays, meta)


def safe_name(source_path: str, k: int) -> str:
    """The stored file's own name, made safe to write: a crafted or damaged name (empty, ``..``,
    control characters, undecodable bytes, 255+ bytes) never escapes the folder or fails; the
    suffix, by which formats are detected, is kept."""
    raw = str(source_path).replace("\\", "/").rsplit("/", 1)[-1]
    name = "".join(ch for ch in raw if ch.isprintable() and not 0xD800 <= ord(ch) <= 0xDFFF)
    if name.strip(". ") == "":
        return f"input-{k}"
    stem, dot, suffix = name.rpartition(".") if "." in name[1:] else (name, "", "")
    if len(suffix) > 16:
        stem, dot, suffix = name, "", ""
    while len(f"{stem}{dot}{suffix}".encode()) > 200:
        stem = stem[:-1] or f"input-{k}"
    return f"{stem}{dot}{suffix}"


def _extract(files: list[FileRecord], folder: Path, copies: Mapping[int, bytes]) -> list[str]:
    """Write the copies' bytes (``copies[id]``) under their original names (formats are
    detected by them)."""
    paths = []
    for k, rec in enumerate(files):
        sub = folder / str(k)
        sub.mkdir()
        target = sub / safe_name(rec.source_path, k)
        target.write_bytes(copies[rec.id])
        paths.append(str(target))
    return paths


def inventories_of(files: Sequence[FileRecord], copies: Mapping[int, bytes]) -> list[Any]:
    """The inventory sources read from the bytes of the inventory copies among ``files`` (small;
    the tree is rebuilt from them on every open)."""
    from hieradjudicate.io.inventories.read import read_inventory

    inv_files = [f for f in files if f.kind == "inventory"]
    with tempfile.TemporaryDirectory(prefix="hadj-") as tmp:
        paths = _extract(inv_files, Path(tmp), copies)
        return [read_inventory(p, columns=f.options.get("columns"))
                for p, f in zip(paths, inv_files, strict=True)]


def inventory_sources(store: Store, files: list[FileRecord]) -> list[Any]:
    """The inventory sources of the stored inventory copies among ``files``."""
    inv_files = [f for f in files if f.kind == "inventory"]
    return inventories_of(inv_files, read_copies(store, inv_files))


def cached_corpus(inputs: StoredInputs, steps: Steps | None = None) -> Corpus | None:
    """The corpus from the cache read with ``inputs`` and its inventory copies, or ``None`` when
    there is none or it does not fit after all (a damaged blob, another inventory)."""
    if inputs.cache is None:
        return None
    try:
        return corpus_from_cache(*inputs.cache, inventories=inventories_of(inputs.files, inputs.copies),
                                 steps=steps)
    except CACHE_READ_ERRORS:  # the arrays are only a cache of the stored inputs: rebuilt instead
        return None


def _set_name(f: FileRecord) -> str | None:
    """The name given on import; projects written before options were stored keep it in
    ``set_names`` only (one set per file), so the sets keep their names on reopening."""
    name = f.options.get("name")
    if name is None and "name" not in f.options and len(f.set_names) == 1:
        return f.set_names[0]
    return name


def reload_corpus(store: Any, files: list[FileRecord],
                  data: Mapping[int, bytes] | None = None, *, progress: Progress | None = None) -> Corpus:
    """Build the corpus again from the stored copies, as :meth:`Session.create` did
    (``data``: bytes to use instead of the copy of a file id, for a re-import; ``progress``
    hears each file read, as :func:`load` tells it): every copy is read first, then assembled."""
    return corpus_from_copies(getattr(store, "path", "the project"), files, read_copies(store, files, data),
                              progress=progress)


def corpus_from_copies(location: Any, files: list[FileRecord], copies: Mapping[int, bytes], *,
                       progress: Progress | None = None) -> Corpus:
    """The corpus read from the bytes of ``files`` (``copies[id]``), as :meth:`Session.create`
    read the originals; messages and sources name the files the user imported."""
    by_kind = {kind: [f for f in files if f.kind == kind]
               for kind in ("inventory", "annotations", "contexts")}
    with tempfile.TemporaryDirectory(prefix="hadj-") as tmp:
        folder = Path(tmp)
        extracted: dict[str, list[str]] = {}
        for kind, records in by_kind.items():
            (folder / kind).mkdir()
            extracted[kind] = _extract(records, folder / kind, copies)
        specs = [AnnotationSpec(p, _set_name(f), f.role or "annotator",
                                f.options.get("format"), f.options.get("columns"))
                 for p, f in zip(extracted["annotations"], by_kind["annotations"], strict=True)]
        columns = by_kind["inventory"][0].options.get("columns") if by_kind["inventory"] else None
        result = load(extracted["inventory"], specs, extracted["contexts"],
                      tree_columns=columns, strict=True, progress=progress)
    corpus = result.corpus
    if corpus is None:
        raise ProjectError(f"{location}: the stored files gave no corpus")
    # Messages and sources name the files the user imported, not the temporary copies.
    originals = {p: f.source_path for kind, records in by_kind.items()
                 for p, f in zip(extracted[kind], records, strict=True)}
    for s in corpus.sets:
        s.source = originals.get(s.source, s.source)
    corpus.problems = [replace(p, file=originals.get(p.file, p.file)) for p in corpus.problems]
    return corpus
