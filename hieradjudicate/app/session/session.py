"""A project session: the project file, the compiled corpus, the decisions and undo/redo.

:meth:`Session.create` reads the inventory, annotation and context files,
keeps a copy of each in the new ``.hadj`` file together with a cache of the
compiled corpus arrays, and :meth:`Session.open` brings it all back without
the original files: from the cache when it matches the stored copies and this
program's cache format, else by reading the stored copies again (and
refreshing the cache when the project is writable).

Both the GUI and the CLI drive a session; it never imports Qt.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

from hieradjudicate.app.progress import Steps
from hieradjudicate.app.session.cache import CACHE_NAME, CACHE_STAMP
from hieradjudicate.app.session.stored_inputs import (
    cached_corpus,
    corpus_from_copies,
    safe_name,
    store_copies,
    write_cache,
)
from hieradjudicate.core.errors import ProjectError
from hieradjudicate.core.model import Corpus
from hieradjudicate.io.store.inputs import effective_files, read_copies, read_stored_inputs
from hieradjudicate.io.store.locations import open_store
from hieradjudicate.io.store.project_store import DecisionRow, Store
from hieradjudicate.io.store.sidecars import remove_build, sweep_stale_builds

if TYPE_CHECKING:  # imported where used: a reader of the history alone (`project timeline`) needs none
    from hieradjudicate.app.loading.load import AnnotationSpec, LoadResult, Progress
    from hieradjudicate.app.session.batch import BatchDecide
    from hieradjudicate.app.session.commands import Command, CommandStack
    from hieradjudicate.app.session.decisions import DecisionState
    from hieradjudicate.app.session.reimport import ReimportResult
    from hieradjudicate.app.workbench.suggest import Suggestions
    from hieradjudicate.io.exports.gold import ExportSummary

#: Exports into the tool's own file: format -> (the input format it needs, the tool's name).
SOURCE_EXPORTS = {"xmi": ("uima-xmi", "INCEpTION/WebAnno XMI"),
                  "labelstudio": ("labelstudio", "Label Studio JSON"),
                  "prodigy": ("prodigy", "Prodigy JSONL")}


def left_out_text(left: Sequence[str], limit: int = 20) -> str:
    """"3 decision row(s) are left out: #4 (bank.n 3): does not match its checksum; ..."."""
    shown = "; ".join(left[:limit]) + (f"; ... ({len(left) - limit} more)" if len(left) > limit else "")
    return f"{len(left)} decision row(s) are left out: {shown}"


class Session:
    """An open project.  Create with :meth:`create` or :meth:`open`; close when done.

    Attributes
    ----------
    store : the project file.
    corpus : the compiled inventory, instances and annotation sets.
    decisions : the current decision per instance (:class:`DecisionState`).
    commands : the undo/redo stacks; run every edit through :meth:`execute`.
    from_cache : whether the corpus came from the cached arrays (else it was re-read).
    """

    def __init__(self, store: Store, corpus: Corpus, *, from_cache: bool, decisions: bool = True) -> None:
        self.store = store
        self.corpus = corpus
        self.from_cache = from_cache
        # decisions=False: a reader of the stored history alone (`project timeline`), no edits
        self.decisions: DecisionState = None  # type: ignore[assignment]
        self.commands: CommandStack = None  # type: ignore[assignment]
        if decisions:
            from hieradjudicate.app.session.commands import CommandStack
            from hieradjudicate.app.session.decisions import DecisionState

            self.decisions = DecisionState(store)
            self.commands = CommandStack(self.decisions)
        self._corpus_listeners: list[Callable[[Corpus], None]] = []

    # ------------------------------------------------------------- creating
    @classmethod
    def create(cls, path: str | os.PathLike[str], inventory_paths: Sequence[str],
               annotation_specs: Sequence[AnnotationSpec], context_paths: Sequence[str] = (),
               *, tree_columns: dict[str, str] | None = None, overwrite: bool = False,
               user: str | None = None, progress: Progress | None = None,
               check: Callable[[LoadResult], None] | None = None) -> Session:
        """Read the files, then write a new project holding copies of them and the corpus cache.

        A file that cannot be read raises its
        :class:`~hieradjudicate.core.errors.FormatError` before anything is
        written.  The project is built under a temporary name and renamed into
        place, so a failure never leaves half a project.  ``progress(done,
        total, what)`` is called before each file and each writing step; an
        exception it raises (a cancellation) stops the work and nothing is
        left behind.  ``check(result)`` sees what was read before anything is
        written; it raises to stop (the reading policy: lines with problems,
        see :mod:`hieradjudicate.app.loading.policy`).
        """
        target = Path(path)
        # where the project cannot go is said before any file is read, naming the user's path
        if target.is_dir():
            raise ProjectError(f"{target}: is a folder; give a project file name, e.g. "
                               f"{target / 'project.hadj'}")
        if not target.parent.is_dir():
            raise ProjectError(f"{target}: the folder {target.parent} does not exist; create it first "
                               "or choose another place")
        if target.exists() and not overwrite:
            raise ProjectError(f"{target}: already exists (choose another name or allow "
                               "overwriting)")
        from hieradjudicate.app.loading.load import load, load_steps
        from hieradjudicate.app.timeline.at_import import keep_state

        total = load_steps(list(inventory_paths), list(annotation_specs), list(context_paths)) + 2

        def tell(step: int, _total: int, what: str) -> None:
            if progress is not None:
                progress(step, total, what)

        result = load(list(inventory_paths), list(annotation_specs), list(context_paths),
                      tree_columns=tree_columns, strict=True, progress=tell)
        if result.corpus is None:  # strict loading raises instead; kept for type narrowing
            raise ProjectError(f"{target}: the files gave no corpus")
        if check is not None:
            check(result)
        # a build killed earlier (its process gone) is removed here, so leftovers never pile up
        sweep_stale_builds(target.parent)
        tmp = target.with_name(f".{target.name}.new-{os.getpid()}")
        remove_build(tmp)
        try:
            with Store.create(tmp) as store:
                if user:
                    store.set_setting("user", user)
                store.set_setting("tree_columns", tree_columns)
                tell(total - 2, total, "Writing the project file")
                store_copies(store, result, list(annotation_specs), tree_columns)
                write_cache(store, result.corpus)
                keep_state(store, result.corpus)  # the timeline's first view rebuilds nothing
            tell(total - 1, total, "Finishing")
            # the old project (if any) stays whole until this rename; its side files go first
            Store.replace_into(tmp, target)
        except ProjectError as exc:
            remove_build(tmp)
            # the store names its temporary file; the user knows the target
            raise ProjectError(str(exc).replace(str(tmp), str(target))) from None
        except OSError as exc:  # the folder refuses the rename or the copy (read-only, full)
            remove_build(tmp)
            raise ProjectError(f"{target}: could not create the project ({exc.strerror or exc})") from None
        except BaseException:
            remove_build(tmp)
            raise
        return cls(Store.open(target), result.corpus, from_cache=False)

    # -------------------------------------------------------------- opening
    #: the slots of :meth:`open`'s steps on a progress bar (rough shares of the time on MASC)
    OPEN_SLOTS = 8

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, read_only: bool = False,
             progress: Progress | None = None, decisions: bool = True) -> Session:
        """Open a project: corpus from the cache when valid, else re-read from the stored copies.

        ``progress(done, total, what)`` hears each named step (see :mod:`hieradjudicate.app.progress`).
        ``decisions=False``: the current decisions are not read (no :attr:`decisions`, no edits: a
        command that reads the stored history itself saves their reading)."""
        steps = Steps(progress, cls.OPEN_SLOTS)
        steps.step("Opening the project file")
        store = open_store(path, read_only=read_only)  # a .hadj file or a server URL
        try:
            steps.step("Reading the stored corpus")
            # one pass over the store: the copies in effect, a fitting cache, the bytes needed
            inputs = read_stored_inputs(store, cache=CACHE_NAME, stamp=CACHE_STAMP)
            corpus = None
            if inputs.cache is not None:
                steps.step("Reading the sense inventory", 2)  # WordNet: about a second
                corpus = cached_corpus(inputs, steps)
            from_cache = corpus is not None
            if corpus is None:
                # a cache that fitted its stamp but not its inventory (or a damaged blob): the one
                # case that reads the other copies after assembling began
                copies = inputs.copies if inputs.cache is None else read_copies(store, inputs.files)
                again = steps.part(cls.OPEN_SLOTS - 1 - steps.at)
                corpus = corpus_from_copies(inputs.location, inputs.files, copies,
                                            progress=lambda d, t, what: again(
                                                d, t, f"Reading the stored files again: {what}"))
                if getattr(store, "may_cache", not store.read_only):  # on a server: the lead's
                    write_cache(store, corpus, inputs.files)
            steps.skip_to(cls.OPEN_SLOTS - 1)
            steps.step("Reading the decisions")
            return cls(store, corpus, from_cache=from_cache, decisions=decisions)
        except BaseException:
            store.close()
            raise

    # ------------------------------------------------------------ lifetime
    @property
    def path(self) -> Path:
        return self.store.path

    @property
    def read_only(self) -> bool:
        return self.store.read_only

    @property
    def read_only_reason(self) -> str | None:
        return self.store.read_only_reason

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---------------------------------------------------------------- edits
    def execute(self, command: Command) -> list[DecisionRow]:
        """Run an undoable edit (saved before returning)."""
        return self.commands.execute(command)

    def undo(self) -> list[DecisionRow]:
        return self.commands.undo()

    def redo(self) -> list[DecisionRow]:
        return self.commands.redo()

    def accept_agreed(self, *, compatible: bool = False, specific: str = "most",
                      min_annotators: int = 2, include_systems: bool = False) -> BatchDecide:
        """Resolve every unresolved instance all annotators agree on, as one undoable step
        (see :func:`hieradjudicate.app.session.batch.accept_agreed`); returns the command run."""
        from hieradjudicate.app.session.batch import accept_agreed

        command = accept_agreed(self.corpus, self.decisions, compatible=compatible,
                                specific=specific, min_annotators=min_annotators,
                                include_systems=include_systems)
        self.execute(command)
        return command

    def accept_set(self, set_name: str, selection: Any = None, *,
                   overwrite: bool = False) -> BatchDecide:
        """Take one set's answers for a selection (mask or indices), as one undoable step."""
        from hieradjudicate.app.session.batch import accept_set

        command = accept_set(self.corpus, self.decisions, set_name, selection, overwrite=overwrite)
        self.execute(command)
        return command

    def reimport(self, set_name_or_file_id: str | int,
                 new_path: str | os.PathLike[str]) -> ReimportResult:
        """Replace a changed annotation file and flag the decisions whose basis changed
        (see :mod:`hieradjudicate.app.session.reimport`); undoable as one step."""
        from hieradjudicate.app.session.reimport import reimport

        return reimport(self, set_name_or_file_id, new_path)

    def suggestions(self, instances: Any = None) -> Suggestions:
        """Suggestions for the unresolved instances (shown only; see :mod:`.suggest`)."""
        from hieradjudicate.app.workbench.suggest import suggest

        return suggest(self.corpus, self.decisions, instances)

    def replace_corpus(self, corpus: Corpus) -> None:
        """Put a rebuilt corpus in place (re-import) and tell the subscribers."""
        add_senses = getattr(self.store, "add_senses", None)  # a server accepts only known tags
        if add_senses is not None and not self.store.read_only:
            from hieradjudicate.io.store.pg.transfer import inventory_senses

            add_senses(inventory_senses(corpus.inventory))
        self.corpus = corpus
        for listener in list(self._corpus_listeners):
            listener(corpus)

    def subscribe_corpus(self, listener: Callable[[Corpus], None]) -> Callable[[], None]:
        """Call ``listener(corpus)`` when the corpus is replaced; returns the unsubscribe."""
        self._corpus_listeners.append(listener)
        return lambda: self._corpus_listeners.remove(listener)

    # -------------------------------------------------------------- queries
    def instances(self) -> list[tuple[str, str]]:
        """Every ``(lexelt, instance)`` of the corpus, in corpus order."""
        lex = self.corpus.inventory.lexelts
        return [(lex[x], i) for x, i in zip(self.corpus.inst_lexelt.tolist(),
                                            self.corpus.inst_id, strict=True)]

    def export(self, path: str | os.PathLike[str], *, format: str,
               include_unresolved: bool = False, without_left_out: bool = False) -> ExportSummary:
        """Write the adjudicated gold standard (see :func:`~hieradjudicate.io.exports.gold.export_gold`).

        ``xmi``, ``labelstudio`` and ``prodigy`` write it back into the tool's own file that the
        project was built from (see :mod:`hieradjudicate.io.exports.uima` and
        :mod:`hieradjudicate.io.exports.labelstudio`).  A gold without the decisions that failed
        their checksum is written only with ``without_left_out`` (it would silently differ)."""
        return self.export_job(path, format=format, include_unresolved=include_unresolved,
                               without_left_out=without_left_out)()

    def export_job(self, path: str | os.PathLike[str], *, format: str,
                   include_unresolved: bool = False,
                   without_left_out: bool = False) -> Callable[[], ExportSummary]:
        """:meth:`export` in two steps: what it needs of the project is taken now (in the thread that
        owns the project file); the returned function writes the file and may run in any thread.
        Refuses at once (before any writing) when decisions were left out for failing their
        checksum, unless ``without_left_out``."""
        left = self.store.left_out
        if left and not without_left_out:
            raise ProjectError(f"{self.path}: not exported: {left_out_text(left)}; the gold would "
                               "differ from what was decided (`project repair` keeps what is intact; "
                               "--without-damaged exports without them)")
        decisions = list(self.decisions)
        if format in SOURCE_EXPORTS:
            rec, data = self._export_source(format)
            return lambda: self._export_into_source(path, format, decisions, rec, data)
        from hieradjudicate.io.exports.gold import export_gold

        instances = self.instances()
        decisions = self.decisions.rows()  # with the notes of instances without a decision
        return lambda: export_gold(decisions, instances, path, format=format,
                                   include_unresolved=include_unresolved)

    def _export_source(self, format: str) -> tuple[Any, bytes]:
        """The stored input file a ``format`` export writes into, with its bytes."""
        input_format, tool = SOURCE_EXPORTS[format]
        files = [f for f in effective_files(self.store.files("annotations")) if f.format == input_format]
        if not files:
            raise ProjectError(f"a {format} export writes the gold back into the {tool} file the project "
                               f"was built from, and this project has none; export senseval, wsdeval, csv or jsonl")
        return files[0], self.store.file_bytes(files[0].id)

    @staticmethod
    def _export_into_source(path: str | os.PathLike[str], format: str, decisions: list[Any], rec: Any,
                            data: bytes) -> ExportSummary:
        columns = rec.options.get("columns") or {}
        with tempfile.TemporaryDirectory(prefix="hadj-") as tmp:
            src = Path(tmp) / safe_name(rec.source_path, rec.id)
            src.write_bytes(data)
            if format == "xmi":
                from hieradjudicate.io.exports.uima import export_gold_xmi

                return export_gold_xmi(decisions, str(src), path, layer=columns.get("layer") or "WordSense",
                                       feature=columns.get("feature") or "value")
            from hieradjudicate.io.exports.labelstudio import (
                export_gold_labelstudio,
                export_gold_prodigy,
            )

            writer = export_gold_labelstudio if format == "labelstudio" else export_gold_prodigy
            return writer(decisions, str(src), path, columns=columns)

    def export_history(self, path: str | os.PathLike[str]) -> int:
        """Write every decision row ever recorded as CSV; returns the row count."""
        labels = {b.id: b.label for b in self.store.batches()}
        from hieradjudicate.io.exports.gold import export_history

        return export_history(self.store.iter_history(), path, batch_labels=labels)
