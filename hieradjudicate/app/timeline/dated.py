"""Agreement by week of annotation, from the dates inside the inputs (issue 32), no Qt.

Label Studio, Prodigy and long tables with a date column give each answer its time (see
:mod:`hieradjudicate.io.annotations.times`).  The project keeps its inputs as stored copies; this
module reads them again (:func:`input_sources`), places each dated answer on its row of the corpus
(:func:`dated_answers`) and computes, per week (Monday 00:00 UTC to the next):

* the annotators' agreement over the answers made that week: mean pairwise Cohen's kappa and Fleiss'
  kappa, by the dashboard's own functions (:func:`~hieradjudicate.core.agreement.pairwise.pairwise_matrix`,
  :func:`~hieradjudicate.core.agreement.multirater.fleiss_agreement`) on the week's rows: a pair counts an
  instance when both answered it that week;
* drift: each annotator's agreement with the others over the instances *they* answered that week
  (mean Cohen's kappa with each other annotator on those instances, whenever the other answered);
* time spent per item: the median of Label Studio's ``lead_time`` over the week's answers; without
  it, the median gap between an annotator's consecutive answers, gaps over :data:`GAP_CAP` seconds
  being breaks, left out (said in the note).
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np

from hieradjudicate.app.timeline.decisions import Figure
from hieradjudicate.io.store.inputs import effective_files
from hieradjudicate.core.agreement.multirater import fleiss_agreement
from hieradjudicate.core.agreement.layout import make_layout
from hieradjudicate.core.agreement.pairwise import pairwise_matrix
from hieradjudicate.core.errors import ProjectError

WEEK = 7 * 86400.0
MONDAY = 4 * 86400.0  # 1970-01-05, the first Monday after the epoch
DATED_CACHE = "timeline-dated-answers"  # the project's copy of the dated answers (a cache)
DATED_FORMATS = ("labelstudio", "prodigy", "long-table")  # the formats that can say when an answer was made
GAP_CAP = 600.0  # seconds: a longer gap between two answers of one annotator is a break
DATED_NOTE = ("Agreement by week of annotation rests on the dates inside the inputs ({what}); a week's "
              "figures count the answers made in it (weeks start Monday 00:00 UTC).")


@dataclass
class DatedAnswers:
    """One entry per dated answer: the corpus set, the row in that set, its time and lead time."""

    set_index: np.ndarray  # int64
    row: np.ndarray  # int64, position in corpus.sets[k].rows
    time: np.ndarray  # float64 UTC seconds
    lead: np.ndarray  # float64 seconds, NaN where absent

    @property
    def n(self) -> int:
        return int(self.time.size)


@dataclass
class WeekPoint:
    week: str  # the Monday, YYYY-MM-DD
    answers: int
    figures: dict[str, Figure]  # mean_kappa_cohen, fleiss
    drift: dict[str, Figure]  # annotator -> agreement with the others on their week's instances
    seconds_per_item: float | None  # median over the week's answers
    seconds_per_item_by: dict[str, float | None] = field(default_factory=dict)


@dataclass
class DatedTimeline:
    weeks: list[WeekPoint]
    note: str
    time_source: str  # "lead_time", "gaps" or ""


def input_sources(store: Any) -> list[Any]:
    """The annotation sources read again from the project's stored copies (as the project reads them:
    same format and columns), in load order."""
    from hieradjudicate.app.loading.load import AnnotationSpec, read_annotation_file
    from hieradjudicate.app.session.stored_inputs import _extract, _set_name

    files = [f for f in effective_files(store.files("annotations")) if (f.format or "") in DATED_FORMATS]
    data = {f.id: store.file_bytes(f.id) for f in files}
    files = [f for f in files if f.format != "long-table" or _has_time_column(data[f.id], f.options.get("columns"))]
    if not files:
        return []
    with tempfile.TemporaryDirectory(prefix="hadj-") as tmp:
        paths = _extract(files, Path(tmp), data)
        return [read_annotation_file(AnnotationSpec(p, _set_name(f), f.role or "annotator",
                                                    f.options.get("format"), f.options.get("columns")))
                for p, f in zip(paths, files, strict=True)]


def _has_time_column(data: bytes, columns: Any) -> bool:
    """Whether a stored long table's header names a date column (else it is not read again)."""
    import gzip

    from hieradjudicate.io.annotations.tables import first_line, guess_separator, resolve_columns, split_header
    from hieradjudicate.io.textfile import decode_text

    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    try:
        line = first_line(decode_text(data[:65536], "the stored copy"))
        return "time" in resolve_columns(split_header(line, guess_separator(line) or ","), columns)
    except Exception:  # anything odd: read it again as the project does, which names the problem
        return True


def dated_answers(corpus: Any, sources: list[Any]) -> DatedAnswers | None:
    """The dated answers of ``sources`` placed on the corpus's rows; ``None`` when no source has dates.
    Answers of sets or instances the corpus lacks are left out."""
    parts: list[tuple[np.ndarray, ...]] = []
    names = {s.name: k for k, s in enumerate(corpus.sets)}
    for src in sources:
        if getattr(src, "time", None) is None or src.n_labels == 0:
            continue
        first = np.ones(src.n_labels, dtype=bool)  # the first label row of each (set, item) answer
        first[1:] = (src.item[1:] != src.item[:-1]) | (src.set[1:] != src.set[:-1])
        item, sset, t = src.item[first], src.set[first], src.time[first]
        lead = src.lead_time[first] if src.lead_time is not None else np.full(t.size, np.nan)
        item_to_inst = np.array([corpus.instance_index(lx, i) for lx, i in zip(src.item_lexelt, src.item_instance)],
                                dtype=np.int64)  # one look-up per distinct instance
        set_to_k = np.array([names.get(n, -1) for n in src.set_names], dtype=np.int64)
        inst, k = item_to_inst[item], set_to_k[sset]
        ok = (inst >= 0) & (k >= 0) & np.isfinite(t)
        inst, k, t, lead = inst[ok], k[ok], t[ok], lead[ok]
        row = np.full(inst.size, -1, dtype=np.int64)
        for kk in np.unique(k).tolist():  # one search per set
            sel = k == kk
            row[sel] = corpus.sets[kk].position(inst[sel])
        ok = row >= 0
        parts.append((k[ok], row[ok], t[ok], lead[ok]))
    if not parts:
        return None
    k, row, t, lead = (np.concatenate(c) for c in zip(*parts))
    if t.size == 0:
        return None
    return DatedAnswers(k.astype(np.int64), row.astype(np.int64), t.astype(np.float64), lead.astype(np.float64))


def week_of(t: np.ndarray) -> np.ndarray:
    """Week number of UTC seconds (weeks start on Monday 00:00 UTC)."""
    return np.floor((np.asarray(t, dtype=np.float64) - MONDAY) / WEEK).astype(np.int64)


def week_label(w: int) -> str:
    return datetime.fromtimestamp(MONDAY + w * WEEK, tz=timezone.utc).strftime("%Y-%m-%d")


class _Leaves:
    """Each set's leaf vectors, computed once per timeline (not once per week and annotator)."""

    def __init__(self, corpus: Any) -> None:
        self.corpus = corpus
        self.held: dict[int, np.ndarray] = {}

    def rows(self, k: int, r: np.ndarray) -> np.ndarray:
        if k not in self.held:
            self.held[k] = self.corpus.sets[k].leaves_once()
        return self.held[k][r]


def _long_form(corpus: Any, group: list[int], k: np.ndarray, row: np.ndarray,
               leaves: _Leaves | None = None) -> tuple[np.ndarray, ...]:
    """(inst, rater, P) of the given answers (set ``k``, row ``row``), raters numbered by ``group``."""
    inst_parts, rater_parts, P_parts = [], [], []
    for j, kk in enumerate(group):
        r = row[k == kk]
        if r.size:
            s = corpus.sets[kk]
            inst_parts.append(s.rows[r])
            rater_parts.append(np.full(r.size, j, np.int64))
            P_parts.append(s.leaves_rows(r) if leaves is None else leaves.rows(kk, r))
    if not inst_parts:
        K = max(corpus.inventory.K, 1)
        return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros((0, K))
    return np.concatenate(inst_parts), np.concatenate(rater_parts), np.concatenate(P_parts)


def _figures(corpus: Any, group: list[int], k: np.ndarray, row: np.ndarray,
             leaves: _Leaves | None = None, n_resamples: int = 0, seed: int = 0) -> tuple[Figure, Figure]:
    """The week's mean pairwise Cohen's kappa (a mean of pairs: no interval, as at each import) and
    Fleiss' kappa with its BCa interval (the import points' machinery)."""
    from hieradjudicate.core.agreement.bootstrap import bootstrap_fleiss

    inst, rater, P = _long_form(corpus, group, k, row, leaves)
    X = len(corpus.inventory.lexelts)
    if inst.size == 0:
        none = Figure(None, why="no answers")
        return none, none
    lay = make_layout(inst, rater, P, corpus.inst_lexelt, n_lexelts=X)
    pm = pairwise_matrix(inst, rater, P, corpus.inst_lexelt, n_raters=len(group), n_lexelts=X, layout=lay)
    mc = pm.mean_kappa("cohen")
    fl = fleiss_agreement(lay)
    fig_fl = Figure(fl.kappa.value, n=int(fl.n), why="undefined" if fl.kappa.value is None else "no resamples")
    if fl.kappa.value is not None and n_resamples > 0:
        ci = bootstrap_fleiss(inst, rater, P, corpus.inst_lexelt, n_lexelts=X, n_resamples=n_resamples, seed=seed,
                              layout=lay)
        fig_fl = Figure(fl.kappa.value, ci.low, ci.high, int(fl.n), ci.reason)
    why = "mean of the pairs (no interval)" if mc.value is not None else "no pair with a defined kappa"
    return Figure(mc.value, n=int(mc.n or 0), why=why), fig_fl


def _drift(corpus: Any, group: list[int], ans: DatedAnswers, in_week: np.ndarray,
           leaves: _Leaves | None = None, n_resamples: int = 0, seed: int = 0) -> dict[str, Figure]:
    """Each annotator's mean Cohen's kappa with the others on the instances they answered that week
    (whenever the other answered them), with its BCa interval
    (:func:`~hieradjudicate.core.stats.timeline_stats.mean_kappa_with_others`)."""
    from hieradjudicate.core.stats.timeline_stats import mean_kappa_with_others

    leaves = leaves or _Leaves(corpus)
    out: dict[str, Figure] = {}
    for kk in group:
        mine = in_week & (ans.set_index == kk)
        if not mine.any():
            continue
        s = corpus.sets[kk]
        insts = s.rows[ans.row[mine]]
        pa = leaves.rows(kk, ans.row[mine])
        others = []
        for other in group:
            if other == kk:
                continue
            pos = corpus.sets[other].position(insts)
            if (pos >= 0).any():
                pb = np.zeros_like(pa)
                pb[pos >= 0] = leaves.rows(other, pos[pos >= 0])
                others.append((pos >= 0, pb))
        value, low, high, why = mean_kappa_with_others(pa, others, corpus.inst_lexelt[insts],
                                                       n_resamples=n_resamples, seed=seed)
        out[s.name] = Figure(value, low, high, int(insts.size), why)
    return out


def item_seconds(ans: DatedAnswers) -> tuple[np.ndarray, str]:
    """Seconds spent per answer: ``lead_time`` where the inputs give it for every dated answer, else
    the gap since the same annotator's previous answer (NaN for the first and for gaps over
    :data:`GAP_CAP`: breaks)."""
    if ans.n and np.isfinite(ans.lead).all():
        return ans.lead, "lead_time"
    order = np.lexsort((ans.time, ans.set_index))
    gaps = np.full(ans.n, np.nan)
    t, k = ans.time[order], ans.set_index[order]
    d = np.full(ans.n, np.nan)
    if ans.n > 1:
        same = k[1:] == k[:-1]
        g = t[1:] - t[:-1]
        d[1:] = np.where(same & (g <= GAP_CAP), g, np.nan)
    gaps[order] = d
    return gaps, "gaps"


def _median(x: np.ndarray) -> float | None:
    x = x[np.isfinite(x)]
    return float(np.median(x)) if x.size else None


def dated_timeline(corpus: Any, ans: DatedAnswers | None, *, n_resamples: int = 1000,
                   seed: int = 0) -> DatedTimeline | None:
    """The week points; ``None`` when no answer is dated.  ``n_resamples``: of each week's Fleiss
    kappa and each drift point's BCa interval (0: none)."""
    if ans is None or ans.n == 0:
        return None
    from hieradjudicate.app.timeline.imports import group_of

    group = group_of(corpus)
    wk = week_of(ans.time)
    secs, how = item_seconds(ans)
    weeks: list[WeekPoint] = []
    leaves = _Leaves(corpus)
    for w in np.unique(wk).tolist():  # a loop over weeks
        in_week = wk == w
        sel = in_week & np.isin(ans.set_index, group)
        mc, fl = _figures(corpus, group, ans.set_index[sel], ans.row[sel], leaves, n_resamples, seed)
        by = {corpus.sets[kk].name: _median(secs[in_week & (ans.set_index == kk)])
              for kk in np.unique(ans.set_index[in_week]).tolist()}
        weeks.append(WeekPoint(week_label(w), int(in_week.sum()), {"mean_kappa_cohen": mc, "fleiss": fl},
                               _drift(corpus, group, ans, in_week, leaves, n_resamples, seed),
                               _median(secs[in_week]), by))
    what = ("time per item from Label Studio's lead_time" if how == "lead_time" else
            f"time per item from the gaps between an annotator's consecutive answers; gaps over "
            f"{GAP_CAP / 60:g} minutes are taken as breaks and left out")
    return DatedTimeline(weeks, DATED_NOTE.format(what=what), how)


def cache_key(store: Any) -> list[Any]:
    """What the dated answers depend on: every stored copy in effect (the corpus's rows too)."""
    return [[f.id, f.kind, f.sha256, f.role] for f in effective_files(store.files())]


def cached_answers(store: Any) -> tuple[bool, DatedAnswers | None]:
    """``(True, answers)`` when the project keeps the dated answers of its present copies (``None``:
    the inputs carry no dates), ``(False, None)`` otherwise."""
    got = store.get_arrays(DATED_CACHE) if hasattr(store, "get_arrays") else None
    if got is None or got[1].get("key") != json.loads(json.dumps(cache_key(store))):
        return False, None
    a, meta = got
    if meta.get("none"):
        return True, None
    return True, DatedAnswers(a["set_index"], a["row"], a["time"], a["lead"])


def save_answers(store: Any, ans: DatedAnswers | None) -> None:
    """Keep the dated answers in the project when it can be written (a cache: refused, nothing lost)."""
    if not hasattr(store, "put_arrays") or getattr(store, "read_only", True):
        return
    arrays = {} if ans is None else {"set_index": ans.set_index, "row": ans.row, "time": ans.time,
                                     "lead": ans.lead}
    try:
        store.put_arrays(DATED_CACHE, arrays, {"key": cache_key(store), "none": ans is None})
    except ProjectError:
        pass


def files_without_kept_dates(store: Any) -> set[int]:
    """The stored copies that can carry dates, when the project keeps none of their dates (to read)."""
    if cached_answers(store)[0]:
        return set()
    return {f.id for f in effective_files(store.files("annotations")) if (f.format or "") in DATED_FORMATS}


def project_answers(store: Any, corpus: Any) -> DatedAnswers | None:
    """The dated answers of an open project, from its stored copies (read again the first time, then
    kept in the project when it can be written); ``None``: the inputs carry no dates."""
    hit, ans = cached_answers(store)
    if not hit:
        ans = dated_answers(corpus, input_sources(store))
        save_answers(store, ans)
    return ans


def project_dated(store: Any, corpus: Any, *, n_resamples: int = 1000, seed: int = 0) -> DatedTimeline | None:
    """:func:`dated_timeline` of an open project (:func:`project_answers`)."""
    return dated_timeline(corpus, project_answers(store, corpus), n_resamples=n_resamples, seed=seed)


def made_before_after(corpus: Any, ans: DatedAnswers | None, at: str, *, n_resamples: int = 1000,
                      seed: int = 0) -> Any:
    """Fleiss' kappa of the answers made after the marker at ``at`` minus that of the answers made
    before it (the dates inside the inputs), with its bootstrap interval
    (:func:`~hieradjudicate.core.stats.timeline_stats.fleiss_difference`: paired by instance when the
    same instances are pairable on both sides, unpaired otherwise).  ``None`` without dated answers."""
    from hieradjudicate.app.timeline.imports import group_of
    from hieradjudicate.core.stats.timeline_stats import fleiss_difference

    if ans is None or ans.n == 0:
        return None
    cut = datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp()
    group = group_of(corpus)
    X = len(corpus.inventory.lexelts)
    lays = []
    for side in (ans.time < cut, ans.time >= cut):
        sel = side & np.isin(ans.set_index, group)
        inst, rater, P = _long_form(corpus, group, ans.set_index[sel], ans.row[sel])
        lays.append(make_layout(inst, rater, P, corpus.inst_lexelt, n_lexelts=X))
    return fleiss_difference(lays[0], lays[1], n_resamples=n_resamples, seed=seed)


def as_json(d: DatedTimeline | None) -> dict[str, Any] | None:
    if d is None:
        return None
    return {"note": d.note, "time_source": d.time_source,
            "weeks": [{"week": p.week, "answers": p.answers,
                       "figures": {k: f.as_dict() for k, f in p.figures.items()},
                       "drift": {k: f.as_dict() for k, f in p.drift.items()},
                       "seconds_per_item": p.seconds_per_item,
                       "seconds_per_item_by": p.seconds_per_item_by} for p in d.weeks]}



def with_dates(note: str, d: DatedTimeline | None) -> str:
    """The timeline's note: ``note`` (import and decision times only) where the inputs carry no dates."""
    if d is None:
        return note
    return "The timeline rests on import and decision times; " + d.note[0].lower() + d.note[1:]
