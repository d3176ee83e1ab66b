"""``hieradjudicate report``: the shareable HTML report and the dashboard tables (no Qt).

    hieradjudicate report PROJECT.hadj -o report.html [--tables-dir DIR --tables-format csv|json]
    hieradjudicate report --inventory inv.txt --annotations a.key --annotations b.key -o report.html

With a project, the gold is the decisions marked resolved so far and the
progress section follows the decision history; with files only, a set given
with the role ``gold`` (``--annotations gold.key:gold``) serves as the gold.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from hieradjudicate.cli.options import add_seed_option, non_negative, resample_warning
from hieradjudicate.core.errors import HieradjError, NotIdentifiable


def register(sub, add_inputs) -> None:
    """Add the ``report`` sub-command to ``sub`` (an argparse sub-parsers object)."""
    p = sub.add_parser("report", help="write the agreement report as one self-contained HTML file")
    p.add_argument("project", nargs="?", metavar="PROJECT.hadj", help="the project (or give input files)")
    add_inputs(p)
    p.add_argument("--contexts", action="append", default=[], metavar="PATH", help="context file; repeatable")
    p.add_argument("-o", "--output", metavar="FILE.html", help="where to write the report")
    p.add_argument("--measure", choices=("cohen", "scott", "alpha"), default="cohen",
                   help="pairwise coefficient (default: cohen)")
    p.add_argument("--resamples", type=non_negative, default=1000, metavar="N",
                   help="bootstrap resamples for the intervals (default 1000; 0 = none)")
    add_seed_option(p, "20240601")
    p.add_argument("--title", default=None, help="title of the report")
    p.add_argument("--tables-dir", metavar="DIR", help="also write every table into DIR")
    p.add_argument("--tables-format", choices=("csv", "json"), default="csv", help="format of the tables")
    p.add_argument("--competence", choices=("ds", "mace", "none"), default="ds",
                   help="annotator competence model of the report's competence section (default ds: Dawid & "
                   "Skene; mace: MACE; none leaves the section out; where no instance has three or more sets "
                   "the section says why it is not estimated)")
    p.set_defaults(func=cmd_report)


def _open_project(path: str):
    try:
        from hieradjudicate.app.session.session import Session

        return Session.open(path, read_only=True)
    except ImportError:  # pragma: no cover - older app layer
        from hieradjudicate.app.wb_session import WorkbenchSession

        return WorkbenchSession.open(path)


def _check_output(out: Path) -> None:
    """Refuse an output path that cannot take a file, before any work is done."""
    if out.is_dir():
        raise HieradjError(f"report: {out} is a folder; give a file name, e.g. {out / 'report.html'}")
    parent = out.parent
    if not parent.is_dir():
        raise HieradjError(f"report: the folder {parent} does not exist; create it first or choose another -o")


def _check_tables_dir(folder: Path) -> None:
    """Refuse a tables folder that is a file or cannot be made, before any work is done."""
    if folder.exists() and not folder.is_dir():
        raise HieradjError(f"report: --tables-dir {folder} is a file; give a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise HieradjError(f"report: cannot make the folder {folder} ({exc.strerror or exc})") from None


class _Stopped(Exception):
    """Raised by the competence estimate's progress callback once the command is interrupted."""


class _Background:
    """The competence estimate in a daemon thread (numpy releases the GIL: it overlaps the dashboard's
    figures).  Ctrl-C in the main thread does not wait for it: :meth:`stop` ends Dawid & Skene at its
    next iteration, and a daemon thread does not hold the process's exit (a pool's worker thread is
    joined at exit: Ctrl-C took 5-6 s on Senseval-3, issue #35)."""

    def __init__(self, fn, *args, **kwargs) -> None:
        import threading

        self._stop, self._done = threading.Event(), threading.Event()
        self._value, self._error = None, None

        def run() -> None:
            try:
                self._value = fn(*args, **kwargs, progress=self._check)
            except BaseException as exc:  # handed to the main thread by result()
                self._error = exc
            finally:
                self._done.set()
        threading.Thread(target=run, name="report-competence", daemon=True).start()

    def _check(self, *_: object) -> None:
        if self._stop.is_set():
            raise _Stopped

    def stop(self) -> None:
        self._stop.set()

    def result(self):
        while not self._done.wait(0.05):  # short waits: Ctrl-C is heard at once
            pass
        if self._error is not None:
            raise self._error
        return self._value


def _start_competence(corpus, model: str) -> _Background | None:
    """The competence estimate started in the background; ``None`` when not asked for or with fewer
    than two annotator sets (the section says so)."""
    from hieradjudicate.app.dashboard.competence import estimate
    from hieradjudicate.app.session.batch import annotator_sets

    if model == "none" or len(annotator_sets(corpus)) < 2:
        return None
    return _Background(estimate, corpus, model=model)


def _say(what: str) -> None:
    """One progress line on stderr (a step starts): the user sees where a long report is."""
    print(f"report: {what}", file=sys.stderr, flush=True)


def _step_lines():
    """A ``progress(done, total, what)`` callback printing each step's name once."""
    last = [None]

    def progress(done: int, total: int, what: str) -> None:
        head = what.split(": ", 1)[0]
        if head != last[0]:
            last[0] = head
            _say(head if total and done >= total else f"{head} ...")
    return progress


def cmd_report(args: argparse.Namespace) -> int:
    comp: list = []
    try:
        return _report(args, comp)
    finally:  # Ctrl-C or an error: the estimate stops at its next iteration, and is not waited for
        for c in comp:
            c.stop()


def _report(args: argparse.Namespace, started: list) -> int:
    from hieradjudicate.app.dashboard.dashboard import Dashboard
    from hieradjudicate.app.dashboard.gold import DecisionTracker
    from hieradjudicate.app.report import crowd
    from hieradjudicate.app.report.html import export_tables, write_report

    if not args.output and not args.tables_dir:
        raise HieradjError("report: give -o FILE.html and/or --tables-dir DIR")
    if args.output:
        _check_output(Path(args.output))
    if args.tables_dir:
        _check_tables_dir(Path(args.tables_dir))
    title = args.title
    gold = None
    tracker = None
    left_out: list[str] = []
    timeline = None  # a project's figures over time (issue 32)
    if args.project:
        if args.inventory or args.annotations:
            raise HieradjError("report: give a project or input files, not both")
        _say(f"reading {args.project} ...")
        session = _open_project(args.project)
        from hieradjudicate.cli.project import warn_left_out

        if args.output:  # not over the project or one of its inputs
            from hieradjudicate.app.session.project_ops import own_files, refuse_overwriting

            try:
                refuse_overwriting(args.output, own_files(session), "the report")
            except HieradjError:
                session.close()
                raise
        warn_left_out(session)
        left_out = list(session.store.left_out)
        try:
            corpus = session.corpus
            tracker = DecisionTracker(corpus, session.store.iter_history())
            tracker.apply(session.decisions.conflicts())  # a server project's: not the latest row
            from hieradjudicate.app.timeline.view import project_timeline

            try:  # the report stands without its timeline section (a stored copy that cannot be read)
                timeline = project_timeline(session.store, corpus, n_resamples=max(args.resamples, 0),
                                            seed=args.seed)
            except HieradjError as exc:
                print(f"report: no timeline section: {exc}", file=sys.stderr)
            name = session.path.name if hasattr(session.store, "location") else Path(args.project).stem
        finally:
            session.close()
        title = title or f"Agreement report: {name}"  # a server project: its project name
    else:
        from hieradjudicate.app.loading.load import load
        from hieradjudicate.cli.options import reading_policy, specs

        if not args.inventory or not args.annotations:
            raise HieradjError("report: give PROJECT.hadj, or --inventory and --annotations files")
        if args.output:
            from hieradjudicate.app.session.project_ops import refuse_overwriting

            given = list(args.inventory) + [s.path for s in specs(args)] + list(args.contexts or [])
            refuse_overwriting(args.output, [(p, "one of the input files") for p in given], "the report")
        _say("reading the input files ...")
        res = load(args.inventory, specs(args), args.contexts, tree_columns=args.tree_columns)
        reading_policy(args, res)
        corpus = res.corpus
        if corpus is None:
            raise HieradjError("report: the input files gave no corpus")
        from hieradjudicate.cli.coverage import corpus_absent, lexelt_policy

        lexelt_policy(args, corpus_absent(corpus), of="the annotations",
                      consequence="their tags would count as senses of their own, with no level above them")
        golds = [s for s in corpus.sets if s.role == "gold"]
        if len(golds) > 1:  # not the first one behind the user's back
            raise HieradjError(f"report: {len(golds)} sets have the role gold ("
                               + ", ".join(g.name for g in golds[:5]) + "); give one gold set")
        gold = golds[0] if golds else None
        title = title or "Agreement report"
    dash = Dashboard(corpus, title=title)
    comp = _start_competence(corpus, args.competence)  # in a thread, beside the other figures
    if comp is not None:
        started.append(comp)
        _say(f"annotator competence ({args.competence}) in the background ...")
    resample_warning(args.resamples, "--resamples")
    seed = {} if args.seed is None else {"seed": args.seed}
    data = dash.compute(gold, tracker=tracker, measure=args.measure, n_resamples=max(args.resamples, 0),
                        progress=_step_lines(), **seed)
    if comp is not None:
        _say("waiting for the annotator competence ...")
        try:
            data.competence = comp.result()
        except NotIdentifiable as exc:  # two sets per instance: the section says why, in place
            data.competence = None
            data.competence_refused = str(exc)
            print(f"report: no competence figures: {exc}", file=sys.stderr)
    else:
        data.competence = None
    if args.output:
        confs = []
        if len(dash.group) >= 2:  # one confusion matrix per lexelt, least reliable first
            a, b = dash.pairs_by_shared(dash.group, limit=1)[0]  # the pair with the most common instances
            for bar in data.lexelts.sorted("value")[:40]:
                confs.append(dash.confusion(a, b, bar.x))
        _say(f"writing {args.output} ...")
        try:
            path = write_report(data, args.output, title=title, confusions=confs, left_out=left_out,
                                timeline=timeline)
        except OSError as exc:  # disk full, permissions: the writer removes its temporary file
            raise HieradjError(f"report: cannot write {args.output}: {exc.strerror or exc}") from exc
        print(f"report written to {path}", file=sys.stderr)
        if crowd.is_crowd(data):
            print(f"long tables summarised in the report; full tables (CSV) written to {crowd.tables_dir(path)}",
                  file=sys.stderr)
    if args.tables_dir:
        try:
            written = export_tables(data, args.tables_dir, args.tables_format)
        except OSError as exc:
            raise HieradjError(f"report: cannot write the tables into {args.tables_dir}: "
                               f"{exc.strerror or exc}") from None
        print(f"{len(written)} table(s) written to {args.tables_dir}", file=sys.stderr)
    return 0
