"""What ``project export``, ``resolve-agreed``, ``import-decisions`` and ``reimport`` do, for the
command line and the window alike (no Qt).

Each function returns the sentence the command line prints, so that the window shows the very
same counts and warnings (how many instances were left out of an export and why, which sets
were compared, which decisions a re-import flagged).  Anything a user can get wrong raises a
:class:`~hieradjudicate.core.errors.HieradjError` whose text names the file and line.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hieradjudicate.app.session.decisions_csv import check_tags, read_decisions_csv
from hieradjudicate.core.errors import HieradjError

#: every format ``project export`` writes, in the order the command line lists them
EXPORT_FORMATS = ("senseval", "wsdeval", "csv", "jsonl", "xmi", "labelstudio", "prodigy")
#: the formats that can also hold the instances not resolved (with their status)
UNRESOLVED_FORMATS = ("csv", "jsonl")
#: file name suffix of each format
EXPORT_SUFFIX = {"senseval": ".key", "wsdeval": ".gold.key.txt", "csv": ".csv", "jsonl": ".jsonl",
                 "xmi": ".zip", "labelstudio": ".json", "prodigy": ".jsonl"}
WRITE_HINT = "nothing was changed"
#: up to this many sets compared are named one by one; more are counted
NAMED_SETS = 20


# ---------------------------------------------------------------------------------------- export
def export_unavailable(session: Any, fmt: str) -> str | None:
    """Why ``fmt`` cannot be exported from this project (a tool's own format it was not built
    from), else ``None``."""
    from hieradjudicate.app.session.session import SOURCE_EXPORTS
    from hieradjudicate.io.store.inputs import effective_files

    if fmt not in SOURCE_EXPORTS:
        return None
    input_format, tool = SOURCE_EXPORTS[fmt]
    if any(f.format == input_format for f in effective_files(session.store.files("annotations"))):
        return None
    return f"writes the gold back into the {tool} file the project was built from; this project has none"


def own_files(session: Any) -> list[tuple[str, str]]:
    """``(path, what it is)`` of the project's file and of every input file it was made from."""
    out = [(str(session.path), "the project itself")]
    try:
        files = session.store.files(active_only=False)
    except TypeError:  # a store that keeps only the active copies
        files = session.store.files()
    return out + [(f.source_path, f"an {f.kind} file of the project" if f.kind == "inventory"
                   else f"a file of the project's {f.kind}") for f in files]


def refuse_overwriting(out: str | os.PathLike[str], own: list[tuple[str, str]], what: str) -> None:
    """Refuse an output path that is one of ``own`` (the project, its input files): writing there
    would destroy the decisions or an input the project was made from."""
    if not os.path.exists(out):
        return
    for path, label in own:
        try:
            same = os.path.samefile(out, path)
        except (OSError, ValueError):
            continue
        if same:
            raise HieradjError(f"{out}: this is {label}; {what} would overwrite it. Choose another output file")


def export_job(session: Any, path: str | os.PathLike[str], fmt: str, *,
               include_unresolved: bool = False, without_left_out: bool = False) -> Callable[[], Any]:
    """The export of ``project export``: what it needs is taken now, the returned function writes
    the file (any thread) and returns the :class:`~hieradjudicate.io.exports.gold.ExportSummary`
    whose ``str`` is the line the command line prints."""
    if fmt not in EXPORT_FORMATS:
        raise HieradjError(f"unknown export format {fmt!r}; expected one of {', '.join(EXPORT_FORMATS)}")
    refuse_overwriting(path, own_files(session), "the export")
    try:
        job = session.export_job(path, format=fmt, include_unresolved=include_unresolved,
                                 without_left_out=without_left_out)
    except ValueError as exc:
        raise HieradjError(str(exc)) from None

    def run() -> Any:
        try:
            return job()
        except ValueError as exc:
            raise HieradjError(str(exc)) from None
        except OSError as exc:  # disk full, permissions: the writers leave no half file
            raise HieradjError(f"{path}: cannot write the gold ({exc.strerror or exc})") from None
    return run


def export(session: Any, path: str | os.PathLike[str], fmt: str, *, include_unresolved: bool = False,
           without_left_out: bool = False) -> Any:
    """Write the gold now (see :func:`export_job`)."""
    return export_job(session, path, fmt, include_unresolved=include_unresolved,
                      without_left_out=without_left_out)()


# ---------------------------------------------------------------------------------- resolve agreed
@dataclass
class AgreedPlan:
    """What ``resolve-agreed`` will do: the undoable command (not run yet) and the sets compared."""

    command: Any  # a BatchDecide
    note: str

    @property
    def count(self) -> int:
        return len(self.command.decisions)

    def already_decided(self) -> int:
        return int(self.command.skipped.get("already decided", 0))

    def preview(self) -> str:
        text = (f"{self.count} unresolved instance(s) on which every annotator set that answered agrees "
                f"will be resolved, as one step that Undo takes back ({self.note})")
        if self.already_decided():
            text += f"; {self.already_decided()} already decided are left as they are"
        return text

    def message(self) -> str:
        """The line ``project resolve-agreed`` prints once the command has run."""
        return (f"{self.command.label}: resolved {self.count} instance(s) on which every "
                f"annotator set that answered agrees ({self.note})"
                + (f"; left out {self.already_decided()} already decided" if self.already_decided() else ""))


def plan_resolve_agreed(session: Any, *, compatible: str | None = None, min_annotators: int = 2,
                        include_systems: bool = False) -> AgreedPlan:
    """The command ``resolve-agreed`` runs (``compatible``: ``None``, ``"most"`` or ``"least"``);
    refuses, in words, a project with fewer annotator sets than ``min_annotators``."""
    from hieradjudicate.app.session.batch import accept_agreed, annotator_sets, rater_note

    corpus = session.corpus
    raters = annotator_sets(corpus, include_systems=include_systems)
    note = rater_note(corpus, raters, include_systems=include_systems)
    if len(raters) > NAMED_SETS:  # a crowd: a count, not 228 names in one line (as agree and competence say it)
        systems = [s.name for s in corpus.sets if s.role == "system"]
        note = (f"{len(raters)} {'sets compared as annotators' if include_systems else 'annotator sets compared'}"
                "; project status lists them")
        if systems:
            note += (f" (systems included: {len(systems)})" if include_systems
                     else f"; {len(systems)} system set(s) not counted as annotators")
    if len(raters) < min_annotators:
        # one annotator and one system do not "all agree": say so instead of resolving nothing
        hint = ("; --include-systems counts the systems as annotators"
                if not include_systems and any(x.role == "system" for x in corpus.sets) else "")
        raise HieradjError(f"resolve-agreed needs at least {min_annotators} annotator set(s) and "
                           f"this project has {len(raters)} ({note}){hint}; {WRITE_HINT}")
    command = accept_agreed(corpus, session.decisions, compatible=compatible is not None,
                            specific=compatible or "most", min_annotators=min_annotators,
                            include_systems=include_systems)
    return AgreedPlan(command, note)


def resolve_agreed(session: Any, plan: AgreedPlan) -> str:
    """Run the planned command (one undoable step); returns the command line's line."""
    if session.read_only:
        raise HieradjError(f"cannot change the project: {session.read_only_reason}; {WRITE_HINT}")
    session.execute(plan.command)
    return plan.message()


# ---------------------------------------------------------------------------------- import decisions
_check_tags = check_tags  # the name the command line used


def import_decisions(session: Any, path: str) -> str:
    """Record every decision of a CSV file as one undoable step; returns the command line's line."""
    return record_decisions(session, read_decisions_csv(path, session), path)


def import_preview(session: Any, decisions: list[Any], path: str) -> str:
    """What importing ``decisions`` (read from ``path``) would do, before anything is recorded: how
    many instances get a first decision, how many current decisions it replaces, how many it leaves
    as they are (the window shows this and asks, as Resolve agreed does)."""
    last = {(d.lexelt, d.instance): d for d in decisions}
    new = replaced = same = 0
    for key, d in last.items():
        cur = session.decisions.current(*key)
        if cur is None:
            new += 1
        elif (tuple(cur.tags), cur.status) == (tuple(d.tags), d.status):
            same += 1
        else:
            replaced += 1
    text = (f"{len(last)} decision(s) in {Path(path).name}: {new} for instances without a decision, "
            f"{replaced} replace the current decision, {same} equal to it")
    return text + ". Notes and flags already on the instances stay. Undo takes the whole import back."


def record_decisions(session: Any, decisions: list[Any], path: str) -> str:
    """Record the decisions read from ``path`` (:func:`read_decisions_csv`) as one undoable step."""
    from hieradjudicate.app.session.commands import Decide

    if session.read_only:
        raise HieradjError(f"cannot change the project: {session.read_only_reason}; {WRITE_HINT}")
    rows = session.execute(Decide(decisions, f"import {Path(path).name}"))
    return f"imported {len(rows)} decision(s) from {path}"


# ------------------------------------------------------------------------------------- re-import
def reimport_choices(session: Any) -> list[tuple[str, int]]:
    """``(label, file id)`` of every annotation file a re-import can replace: a file of one set is
    labelled with the set's name, a file of several with its name and how many sets it holds."""
    from hieradjudicate.io.store.inputs import effective_files

    out = []
    for f in effective_files(session.store.files("annotations")):
        names = list(f.set_names)
        label = names[0] if len(names) == 1 else f"{Path(f.source_path).name} ({len(names)} sets)"
        out.append((label, f.id))
    return out


def reimport(session: Any, name: str | int, path: str, *, skip_bad_lines: bool = False) -> tuple[str | None, Any]:
    """Replace the annotation file of set ``name`` (or file id) by ``path`` (one undoable step).

    The new file is first read as the project reads it: lines with problems stop here (the
    reading policy) unless ``skip_bad_lines``.  Returns the warning about left-out lines (or
    ``None``) and the :class:`~hieradjudicate.app.session.reimport.ReimportResult`."""
    from hieradjudicate.app.loading.policy import bad_lines, enforce
    from hieradjudicate.app.session.reimport import find_file
    from hieradjudicate.io.annotations.read import read_annotations

    if session.read_only:
        raise HieradjError(f"cannot change the project: {session.read_only_reason}; {WRITE_HINT}")
    old = find_file(session.store, name)
    src = read_annotations(path, format=old.options.get("format"), columns=old.options.get("columns"))
    notice = enforce(bad_lines([src]), skip=skip_bad_lines)
    fits = _reimport_fits(session, src, path, skip_bad_lines)
    notice = "; ".join(x for x in (notice, fits) if x) or None
    del src
    return notice, session.reimport(name, path)


def _reimport_fits(session: Any, src: Any, path: str, skip_bad_lines: bool) -> str | None:
    """Refuse a file that is not a new version of the project's: one sharing no instance with it
    (another task's file would replace the set's answers by instances of its own), or one bringing
    lexelts the project's inventory lacks (refused as ``project new`` refuses them, unless
    ``skip_bad_lines``: then the returned warning says so)."""
    corpus = session.corpus
    pairs = zip(src.item_lexelt, src.item_instance)
    if src.item_instance and not any(corpus.instance_index(x, i) >= 0 for x, i in pairs):
        raise HieradjError(f"{path}: none of its {len(src.item_instance)} answered instance(s) is an instance of "
                           f"the project (first: {src.item_lexelt[0]} {src.item_instance[0]}); is it the right "
                           "file? Nothing was changed")
    inv = corpus.inventory
    absent = sorted(set(src.item_lexelt) - set(inv.lexelts)) if inv.known_lexelts else []
    if not absent:
        return None
    text = (f"{path}: {len(absent)} lexelt(s) are absent from the project's inventory: {', '.join(absent[:20])}"
            + (" ..." if len(absent) > 20 else ""))
    if not skip_bad_lines:
        raise HieradjError(f"{text}; their tags would become senses of their own. Nothing was changed; "
                           "--skip-bad-lines re-imports it anyway")
    return f"{text}; their tags become senses of their own (--skip-bad-lines)"


def reimport_lines(result: Any) -> list[str]:
    """What ``project reimport`` prints: the summary, then every flagged decision."""
    return [str(result)] + [f"flagged {row.lexelt} {row.instance}: {row.note}" for row in result.flagged]
