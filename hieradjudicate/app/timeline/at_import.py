"""What an import or re-import keeps for the timeline when it has been stored (issue 32): the
figures and the Fleiss side of the state now in effect, and each marker's Fleiss before/after
against it (see :mod:`hieradjudicate.app.timeline.states`).  No Qt."""

from __future__ import annotations

from typing import Any

from hieradjudicate.app.stats import Stats
from hieradjudicate.app.timeline.imports import ImportPoint, _to_json, corpus_figures, group_of, import_plan, \
    save_import_cache
from hieradjudicate.app.timeline import states
from hieradjudicate.app.timeline.marks import fleiss_before_after, markers
from hieradjudicate.app.timeline.states import RESAMPLES, SEED, is_kept, save_side, state_name
from hieradjudicate.core.errors import HieradjError


def keep_differences(store: Any, corpus: Any, plan: Any) -> None:
    """Each marker's Fleiss before/after against the state now, kept (the view's seed), where the
    state at the marker has its side kept (never rebuilt here)."""
    for m in markers(store):
        before = [e for e in plan.events if e.at < m.at]
        if before and before[-1].files != plan.events[-1].files and \
                is_kept(store, state_name(plan.files, before[-1].files)):
            fleiss_before_after(store, corpus, m.at, n_resamples=RESAMPLES, seed=0 if SEED is None else SEED)


def keep_state(store: Any, corpus: Any, *, stats: Any = None) -> None:
    """Keep the figures and the Fleiss side of the state now in effect (``corpus`` is it), unless
    they are kept already: called when an import or re-import has been stored."""
    if getattr(store, "read_only", True) or not hasattr(store, "put_arrays"):
        return
    try:
        plan = import_plan(store, n_resamples=RESAMPLES, seed=SEED, fetch=False)
        if not plan.events:
            return
        e = plan.events[-1]
        key = plan.key(e)
        stats = stats or Stats(corpus)  # one layout of the group for both
        if key not in plan.known:
            names, figs, per_set = corpus_figures(corpus, n_resamples=RESAMPLES, seed=SEED, stats=stats)
            save_import_cache(store, plan, {key: _to_json(ImportPoint(e, corpus.n, names, figs, per_set))})
        name = state_name(plan.files, e.files)
        if not is_kept(store, name):
            save_side(store, name, states.corpus_side(corpus, group_of(corpus), stats), corpus)
        keep_differences(store, corpus, plan)
        keep_majority(store, corpus)
    except (HieradjError, ValueError, ArithmeticError, IndexError, KeyError):
        pass  # a cache: refused, unreadable or not computable here; a view computes it (and says why)


def keep_majority(store: Any, corpus: Any) -> None:
    """Keep the annotators' majority of the inputs now in effect (the first view's overturn figures)."""
    from hieradjudicate.app.timeline.decisions import majority
    from hieradjudicate.app.timeline.resume import content_key, save_majority

    has, sig = majority(corpus, [k for k, s in enumerate(corpus.sets) if s.role == "annotator"])
    save_majority(store, content_key(store), has, sig)
