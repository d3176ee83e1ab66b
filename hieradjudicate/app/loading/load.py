"""Load inventories, annotation files and contexts into a corpus, and validate them."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from hieradjudicate.app.loading.notes import gold_weights_note, weights_given  # noqa: F401 (re-exported)
from hieradjudicate.app.loading.specs import AnnotationSpec
from hieradjudicate.core.errors import FormatError, HieradjError, Problem
from hieradjudicate.core.model import Corpus, CorpusBuilder
from hieradjudicate.core.records import ContextSource


@dataclass
class FileReport:
    path: str
    kind: str
    format: str = ""
    problems: list[Problem] = field(default_factory=list)
    skipped_lines: int = 0
    duplicates: int = 0
    failed: bool = False
    sets: list[str] = field(default_factory=list)
    weighted_labels: int = 0  # labels the file gives an explicit weight
    first_weight_line: int | None = None


@dataclass
class LoadResult:
    corpus: Corpus | None
    files: list[FileReport]
    problems: list[Problem]

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]


#: ``progress(done, total, what)``: called before each step; it may raise to stop the work.
Progress = Callable[[int, int, str], None]


def load_steps(inventories: list[str], annotations: list[AnnotationSpec], contexts: list[str]) -> int:
    """How many steps :func:`load` reports: one per file, one for building the corpus."""
    return len(inventories) + len(annotations) + len(contexts) + 1


def load(inventories: list[str], annotations: list[AnnotationSpec], contexts: list[str] = (),
         *, tree_columns: dict[str, str] | None = None, strict: bool = True,
         downward: str | None = None, progress: Progress | None = None) -> LoadResult:
    """Read every file and build the corpus.

    With ``strict`` a file that cannot be read raises its :class:`FormatError`;
    otherwise the problem is collected and the remaining files are still read
    (``validate`` shows everything in one run).  ``progress`` is called
    before each file and before building; an exception it raises (a
    cancellation) stops the loading there.  Reading one file is not
    interruptible midway.
    """
    total = load_steps(list(inventories), list(annotations), list(contexts))
    step = 0

    def tell(what: str) -> None:
        nonlocal step
        if progress is not None:
            progress(step, total, what)
        step += 1

    from hieradjudicate.io.inventories.read import read_inventory

    builder = CorpusBuilder()
    files: list[FileReport] = []
    problems: list[Problem] = []

    def attempt(kind: str, path: str, fn):
        tell(f"Reading {os.path.basename(path)}")
        rep = FileReport(path, kind)
        files.append(rep)
        try:
            src = fn()
        except FormatError as exc:
            if strict:
                raise
            rep.failed = True
            rep.problems = exc.problems
            problems.extend(exc.problems)
            return None
        rep.format = src.format
        rep.problems = list(src.problems)
        rep.skipped_lines = getattr(src, "skipped_lines", 0)
        rep.duplicates = getattr(src, "duplicates", 0)
        rep.weighted_labels, rep.first_weight_line = weights_given(src)
        return src

    from hieradjudicate.io.inventories.wordnet import read_wordnet, wordnet_folder

    wordnets = [path for path in inventories if wordnet_folder(path) is not None]
    for path in inventories:
        if path in wordnets:
            continue  # read once the annotations say which lemmas are needed
        src = attempt("inventory", path, lambda: read_inventory(path, columns=tree_columns))
        if src is not None:
            builder.add_inventory(src)
    names_seen: set[str] = set()
    annotation_lexelts: set[str] = set()
    for spec in annotations:
        src = attempt("annotations", spec.path, lambda: read_annotation_file(spec))
        if src is None:
            continue
        rename = {}
        for n in src.set_names:
            new = n
            k = 2
            while new in names_seen:
                new = f"{n}-{k}"
                k += 1
            names_seen.add(new)
            if new != n:
                rename[n] = new
        files[-1].sets = [rename.get(n, n) for n in src.set_names]
        annotation_lexelts.update(src.item_lexelt)
        builder.add_annotations(src, role=spec.role, roles=src.set_roles, rename=rename)
        if src.contexts:  # the file carries its text (XMI): its sentences are the contexts
            builder.add_contexts(ContextSource(src.path, src.format, src.contexts))
    if contexts:
        from hieradjudicate.io.contexts.read import read_contexts  # only when contexts are given
    for path in contexts:
        src = attempt("contexts", path, lambda: read_contexts(path))
        if src is not None:
            builder.add_contexts(src)
    for path in wordnets:
        src = attempt("inventory", path, lambda: read_wordnet(path, annotation_lexelts))
        if src is not None:
            builder.add_inventory(src)
    tell("Building the corpus")
    try:
        corpus = builder.build()
    except HieradjError as exc:
        if strict:
            raise
        problems.extend(getattr(exc, "problems", [Problem("", None, str(exc))]))
        return LoadResult(None, files, problems)
    if downward:
        apply_downward(corpus, downward)
    # every problem once: file problems first, then the model's
    seen = {id(p) for p in problems}
    for f in files:
        for p in f.problems:
            if id(p) not in seen:
                problems.append(p)
                seen.add(id(p))
    for p in corpus.problems:
        if id(p) not in seen:
            problems.append(p)
            seen.add(id(p))
    return LoadResult(corpus, files, problems)


def read_annotation_file(spec: AnnotationSpec):
    """Read one annotation file, first refusing one that is recognisably something else (a
    contexts XML, a sense map, a table of other columns: see
    :func:`~hieradjudicate.app.loading.sniff.annotation_misfit`); a format or column mapping
    the user chose is read as such.  Raises :class:`FormatError`."""
    from hieradjudicate.app.loading.sniff import annotation_misfit
    from hieradjudicate.io.annotations.read import read_annotations

    if spec.format is None and not spec.columns:
        why = annotation_misfit(spec.path)
        if why:
            raise FormatError(why, file=spec.path)
    return read_annotations(spec.path, format=spec.format, name=spec.name, columns=spec.columns)


def validation_report(result: LoadResult) -> dict:
    """The figures ``validate`` prints (JSON-ready)."""
    out: dict = {"files": [], "lexelts": 0, "senses": 0, "max_depth": 0, "max_branching": 0,
                 "instances": 0, "sets": {}, "unknown_lexelts": [], "outside_tags": [],
                 "errors": [], "warnings": []}
    for f in result.files:
        out["files"].append({"path": f.path, "kind": f.kind, "format": f.format or None,
                             "failed": f.failed, "skipped_lines": f.skipped_lines,
                             "duplicates": f.duplicates, "sets": f.sets})
    for p in result.problems:
        (out["errors"] if p.severity == "error" else out["warnings"]).append(
            {"file": p.file, "line": p.line, "column": p.column, "message": p.message})
    c = result.corpus
    if c is None:
        return out
    inv = c.inventory
    summ = inv.summary()
    out.update({"lexelts": summ["lexelts"], "senses": summ["senses"], "max_depth": summ["max_depth"],
                "max_branching": summ["max_branching"], "instances": c.n})
    out["unknown_lexelts"] = sorted(set(inv.lexelts) - inv.known_lexelts)
    outside = np.flatnonzero(inv.node_outside)
    for s in c.sets:
        on_outside = inv.node_outside[s.tag_node]
        row_outside = np.add.reduceat(on_outside.astype(np.int64), s.tag_ptr[:-1]) > 0 if s.n else np.zeros(0, bool)
        out["sets"][s.name] = {"role": s.role, "instances": s.n,
                               "multi_tag": int((s.n_tags() > 1).sum()),
                               "unknown_tags": int(row_outside.sum()),
                               "labels": int(s.tag_node.size)}
    if c.contexts or any(f.kind == "contexts" for f in result.files):  # the sentences the window shows
        out["instances_with_context"] = len(c.contexts)
    ann = [s.rows for s in c.sets if s.role == "annotator"]
    if ann:  # how many annotator sets answered each instance (a crowd: MASC 13-25)
        per = np.bincount(np.concatenate(ann), minlength=c.n)
        per = per[per > 0]
        out["annotators_per_instance"] = [int(per.min()), int(per.max())] if per.size else [0, 0]
    counts = {}
    for s in c.sets:
        for n, k in zip(*np.unique(s.tag_node[inv.node_outside[s.tag_node]], return_counts=True)):
            counts[int(n)] = counts.get(int(n), 0) + int(k)
    out["outside_tags"] = [{"lexelt": inv.lexelts[int(inv.node_lexelt[n])], "tag": inv.node_id[n],
                            "uses": counts.get(int(n), 0)} for n in outside.tolist()]
    return out


def apply_downward(corpus: Corpus, spec: str) -> None:
    """Downward probabilities: ``uniform`` (the default, or the file's weights and branching
    factors) or ``estimate:SET`` — from the counts of leaf tags in annotation set SET, add-one
    smoothed (metrics.md section 1).  Leaf vectors are recomputed."""
    if spec in ("", "uniform"):
        return
    kind, _, name = spec.partition(":")
    if kind != "estimate" or not name:
        raise HieradjError(f"--downward: expected 'uniform' or 'estimate:SET', got {spec!r}")
    try:
        s = corpus.get_set(name)
    except KeyError as exc:
        raise HieradjError(f"--downward: {exc.args[0]}") from None
    inv = corpus.inventory
    on_leaf = inv.node_is_leaf[s.tag_node]
    counts = np.bincount(s.tag_node[on_leaf], minlength=inv.n_nodes).astype(np.float64)
    inv.estimate_downward(counts)
    corpus.rebuild_leaves()


#: more sets than this are a crowd: counted and summarised, not named one by one
NAMED_SETS = 20


def sets_summary(report: dict, *, expand: bool = False) -> str:
    """The sets of a :func:`validation_report` in one line: each named with its role and instances,
    or for a crowd (more than :data:`NAMED_SETS` of one role) "228 annotator sets (13–25 per instance,
    17 to 4,812 instances each)" and the other sets named; ``expand`` names every set."""
    sets = report.get("sets", {})
    named = [f"{name} ({v['role']}, {v['instances']:,} instances)" for name, v in sets.items()]
    if expand or len(sets) <= NAMED_SETS:
        return "; ".join(named)
    by_role: dict[str, list[tuple[str, dict]]] = {}
    for name, v in sets.items():
        by_role.setdefault(v["role"], []).append((name, v))
    parts = []
    for role, members in by_role.items():
        if len(members) <= NAMED_SETS:
            parts += [f"{name} ({role}, {v['instances']:,} instances)" for name, v in members]
            continue
        n = [v["instances"] for _, v in members]
        per = report.get("annotators_per_instance") if role == "annotator" else None
        how = f"{per[0]}–{per[1]} per instance, " if per else ""
        parts.append(f"a crowd of {len(members)} {role} sets ({how}{min(n):,} to {max(n):,} instances each)")
    return "; ".join(parts)
