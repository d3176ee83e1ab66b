"""Cached statistics over a corpus, shared by the command line, the workbench and the report.

Everything here is a thin layer over the pure metrics in ``core``: it picks
the sets, applies a granularity and an instance selection, and memoises the
results per (sets, granularity, selection) so that the GUI can ask again
cheaply.  No Qt.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from hieradjudicate.app.dashboard.thin import FEW_INSTANCES, thin_counts, thin_sentence
from hieradjudicate.core.agreement.multirater import CONGER_MARGINAL_RULE
from hieradjudicate.core.agreement.fleiss_missing import FLEISS_MISSING_RULE, GWET_FLEISS_RULE
from hieradjudicate.core.agreement.layout import make_layout
from hieradjudicate.core.dashboard import all_figures
from hieradjudicate.core.model import AnnotationSet, Corpus
from hieradjudicate.core.stats.undefined import Estimate
from hieradjudicate.core.gc_policy import gc_paused

# core.granularity and core.scoring are imported where used: ``agree`` at the leaves needs neither


def parse_granularity(text: str | None) -> int | None:
    """``leaf`` -> None, ``top`` -> 1, ``depth=N`` -> N."""
    if text in (None, "", "leaf", "leaves"):
        return None
    if text == "top":
        return 1
    if text.startswith("depth="):
        try:
            n = int(text[6:])
        except ValueError:
            n = 0
        if n >= 1:
            return n
    from hieradjudicate.core.errors import HieradjError

    raise HieradjError(f"--granularity: expected leaf, top or depth=N (N >= 1), got {text!r}")


def est(e: Estimate) -> float | None:
    return e.value


@dataclass
class Stats:
    """Memoised agreement and score figures of one corpus."""

    corpus: Corpus
    _cache: dict = field(default_factory=dict, repr=False)
    _groups: dict = field(default_factory=dict, repr=False)
    _layouts: dict = field(default_factory=dict, repr=False)

    def forget_figures(self) -> None:
        """Forget the memoised figures and the whole-layout sums only the point figures read (their
        layouts stay): ``agree --ci`` once its point figures are written, before the intervals
        (all-words data at 100,000 instances: 39,000 lexelts' figures and an (instances x leaves)
        array, ~33 MiB of the peak)."""
        self._cache.clear()
        for lay in self._layouts.values():
            if lay.pairable() is not lay:  # the intervals read the pairable layout's sums, not these
                lay.__dict__.pop("seg_sum", None)

    def invalidate(self) -> None:
        """Forget everything (the annotations changed, e.g. a re-import)."""
        self._cache.clear()
        self._layouts.clear()

    def annotator_indices(self) -> list[int]:
        return [k for k, s in enumerate(self.corpus.sets) if s.role == "annotator"]

    def long_form(self, sets: list[int], depth: int | None = None, instances: np.ndarray | None = None):
        """``inst, rater, P`` of ``sets`` rolled up to ``depth`` and restricted to ``instances``."""
        c = self.corpus
        inst, rater, P, _ = c.long_form(sets=sets)
        if instances is not None:
            keep = np.zeros(c.n, dtype=bool)
            keep[instances] = True
            sel = keep[inst]
            inst, rater, P = inst[sel], rater[sel], P[sel]
        if depth is not None:
            from hieradjudicate.core.agreement.granularity import rollup

            group, n_groups = self.groups(depth)
            P = rollup(P, c.inst_lexelt[inst], group, n_groups)
        return inst, rater, P

    def layout(self, sets: list[int], depth: int | None = None, instances: np.ndarray | None = None):
        """The long form sorted by (lexelt, instance), the metrics' input.  It depends on the
        annotations only, not on decisions, so it is kept until :meth:`invalidate` (re-import)."""
        key = ("layout", tuple(sets), depth, None if instances is None else instances.tobytes())
        if key not in self._layouts and depth is None and instances is None:
            # the corpus's copy (the workbench's live figures share it), made without the long form
            self._layouts[key] = self.corpus.layout(sets)
        if key not in self._layouts and depth is None:
            # a selection of the corpus's layout: its rows stay sorted, a crowd's stay one leaf per
            # row (take equals make_layout of the selected long form, with no dense P made)
            full = self.layout(sets)
            self._layouts[key] = full.take(np.flatnonzero(np.isin(full.inst, instances)))
        if key not in self._layouts:
            inst, rater, P = self.long_form(sets, depth, instances)
            self._layouts[key] = make_layout(inst, rater, P, self.corpus.inst_lexelt,
                                             n_lexelts=len(self.corpus.inventory.lexelts))
        return self._layouts[key]

    def groups(self, depth: int):
        if depth not in self._groups:
            group, n_groups, nodes = self.corpus.inventory.leaf_groups(depth)
            self._groups[depth] = (group, n_groups)
        return self._groups[depth]

    def agreement(self, sets: list[int] | None = None, *, depth: int | None = None,
                  instances: np.ndarray | None = None, by_lexelt: bool = False):
        """Pairwise matrix, Fleiss/Conger and alpha (cached)."""
        sets = self.annotator_indices() if sets is None else list(sets)
        key = ("agree", tuple(sets), depth, None if instances is None else instances.tobytes(), by_lexelt)
        if key in self._cache:
            return self._cache[key]
        c = self.corpus
        X = len(c.inventory.lexelts)
        lay = self.layout(sets, depth, instances)
        # per-lexelt Fleiss/Conger/alpha come with every call; per_lexelt would add (X, m, m) pair tables
        # the coincidence matrices are not asked for here (no caller reads them)
        figs = all_figures(lay.inst, lay.rater, None, c.inst_lexelt, n_raters=len(sets), n_lexelts=X, layout=lay,
                           coincidences=False)  # P is the layout's (made only if a figure needs it)
        out = (figs.pairwise, figs.multi, figs.alpha)
        self._cache[key] = out
        return out

    def agreement_dict(self, sets: list[int] | None = None, *, depth: int | None = None,
                       instances: np.ndarray | None = None, by_lexelt: bool = False, pairs: bool = True) -> dict:
        """The ``agree`` JSON: pairs, fleiss, conger, alpha (+ per lexelt).

        ``pairs=False`` leaves the list of pairs out (``"pairs": None``, their number in
        ``"n_pairs"``): the text output of a crowd prints only how many there are."""
        sets = self.annotator_indices() if sets is None else list(sets)
        pm, multi, alpha = self.agreement(sets, depth=depth, instances=instances, by_lexelt=by_lexelt)
        names = [self.corpus.sets[k].name for k in sets]
        # every pair at once (a crowd has 25,878): masked cells -> None, no masked indexing per cell
        ia, ib = np.triu_indices(len(sets), 1)
        pair_list = self._pair_list(pm, names, ia, ib) if pairs else None
        f, g, fg = multi.fleiss, multi.conger, multi.fleiss_gwet
        out = {
            "sets": names,
            "granularity": "leaf" if depth is None else ("top" if depth == 1 else f"depth={depth}"),
            "chance": "within each lexelt, combined by instance weight",
            "pairs": pair_list,
            "mean_kappa_cohen": est(pm.mean_kappa("cohen")),
            "mean_kappa_scott": est(pm.mean_kappa("scott")),
            "fleiss": {"n": f.n, "observed": f.observed, "expected": f.expected, "kappa": f.kappa.value,
                       "undefined": f.kappa.reason, "method": FLEISS_MISSING_RULE},
            "fleiss_gwet": {"n": fg.n, "observed": fg.observed, "expected": fg.expected, "kappa": fg.kappa.value,
                            "undefined": fg.kappa.reason, "method": GWET_FLEISS_RULE},
            "conger": {"n": g.n, "observed": g.observed, "expected": g.expected, "kappa": g.kappa.value,
                       "undefined": g.kappa.reason, "method": CONGER_MARGINAL_RULE},
            "alpha": {"n_pairable": float(alpha.n_pairable), "value": alpha.alpha.value,
                      "observed_disagreement": alpha.observed_disagreement,
                      "expected_disagreement": alpha.expected_disagreement, "undefined": alpha.alpha.reason},
            "macro": {"fleiss": est(multi.macro_fleiss), "alpha": est(alpha.macro_alpha)},
        }
        n_x = np.array([fx.n for fx in multi.lexelt_fleiss], np.int64)  # instances with >= 2 sets, per lexelt
        counts = thin_counts(np.repeat(np.arange(n_x.size), n_x), n_x.size)
        out["thin_lexelts"] = dict(zip(("lexelts", "of_lexelts", "instances", "of_instances"), counts),
                                   below=FEW_INSTANCES,
                                   note=thin_sentence(*counts, whose=" answered by two sets or more") or None)
        if not pairs:
            out["n_pairs"] = int(ia.size)
        if by_lexelt:
            lex = self.corpus.inventory.lexelts
            out["by_lexelt"] = {
                lex[x]: {"n": multi.lexelt_fleiss[x].n, "fleiss": multi.lexelt_fleiss[x].kappa.value,
                         "fleiss_gwet": multi.lexelt_fleiss_gwet[x].kappa.value,
                         "conger": multi.lexelt_conger[x].kappa.value, "alpha": alpha.lexelt_alpha[x].value}
                for x in range(len(lex)) if multi.lexelt_fleiss[x].n > 0
            }
        return out

    @staticmethod
    def _pair_list(pm, names: list[str], ia: np.ndarray, ib: np.ndarray) -> list[dict]:
        """One dict per pair ``(ia[j], ib[j])`` of the agree JSON."""

        def column(arr) -> list[float | None]:
            v = np.ma.getdata(arr)[ia, ib].astype(np.float64).astype(object)  # Python floats
            v[np.ma.getmaskarray(arr)[ia, ib]] = None
            return v.tolist()

        cols = [column(getattr(pm, k)) for k in
                ("observed", "expected_scott", "kappa_scott", "expected_cohen", "kappa_cohen")]
        n = pm.n[ia, ib].astype(int).tolist()
        # one dict literal per pair over zipped columns (the fastest way CPython builds 25,878 dicts),
        # with the cyclic collector paused: dicts of floats and strings make no cycles, and its passes
        # over the growing heap were a third of the time
        with gc_paused():
            pairs = [{"a": a, "b": b, "n": k, "observed": o, "expected_scott": es, "kappa_scott": ks,
                      "expected_cohen": ec, "kappa_cohen": kc, "undefined": u}
                     for a, b, k, o, es, ks, ec, kc, u in zip(
                         map(names.__getitem__, ia.tolist()), map(names.__getitem__, ib.tolist()), n, *cols,
                         _reasons(pm, ia, ib))]
        return pairs

    # -- scores against a gold set --------------------------------------------
    def gold_region(self, gold: AnnotationSet) -> np.ndarray:
        key = ("region", id(gold))
        hit = self._cache.get(key)
        if hit is None or hit[0] is not gold:  # the set itself is kept, so its id cannot be reused
            hit = self._cache[key] = (gold, gold.leaves > 0)
        return hit[1]

    def gold_region_float(self, gold: AnnotationSet) -> np.ndarray:
        """:meth:`gold_region` as 0/1 floats (what the scoring products take; cached likewise)."""
        key = ("region_float", id(gold))
        hit = self._cache.get(key)
        if hit is None or hit[0] is not gold:
            hit = self._cache[key] = (gold, self.gold_region(gold).astype(np.float64))
        return hit[1]

    def score(self, system: int, gold: int, *, instances: np.ndarray | None = None):
        """Leaf-policy score (Melamed & Resnik) of one set against another (cached).

        The other sets of role ``system`` not yet scored against this gold are scored in the same
        pass (a dashboard or a report asks for all of them; one pass over the gold serves them all)."""
        key = ("score", system, gold, None if instances is None else instances.tobytes())
        if key in self._cache:
            return self._cache[key]
        others = [k for k, s in enumerate(self.corpus.sets)
                  if s.role == "system" and k not in (system, gold) and ("score", k, gold, key[3]) not in self._cache]
        return self.scores([system] + others, gold, instances=instances)[0]

    def scores(self, systems: list[int], gold: int, *, instances: np.ndarray | None = None) -> list:
        """Leaf-policy scores of several sets against one gold set (cached per set), computed together
        with :func:`~hieradjudicate.core.scoring.scoring.score_leaf_many` (the same figures as one by one)."""
        sel = None if instances is None else instances.tobytes()
        keys = [("score", k, gold, sel) for k in systems]
        todo = [k for k, key in zip(systems, keys) if key not in self._cache]
        if todo:
            from hieradjudicate.core.scoring.scoring import nearest_gold_distance, score_leaf_many

            c = self.corpus
            g = c.sets[gold]
            g_rows, region = g.rows, self.gold_region_float(g)  # cached: invalidate() when the gold changes
            if instances is not None:
                keep = np.isin(g_rows, instances)
                g_rows, region = g_rows[keep], region[keep]
            if "leaf_dist" not in self._cache:
                self._cache["leaf_dist"] = c.inventory.leaf_distance()
            dkey = ("gold_distance", gold, sel)
            if dkey not in self._cache:  # depends on the gold only: once for every system scored against it
                self._cache[dkey] = nearest_gold_distance(region > 0, c.inst_lexelt[g_rows], self._cache["leaf_dist"])
            todo = list(dict.fromkeys(todo))
            res = score_leaf_many([c.sets[k].leaves for k in todo], [c.sets[k].rows for k in todo], region,
                                  c.inst_lexelt, gold_rows=g_rows, lexelts=c.inventory.lexelts,
                                  gold_distance=self._cache[dkey])
            for k, r in zip(todo, res):
                self._cache[("score", k, gold, sel)] = r
        return [self._cache[key] for key in keys]


def _reasons(pm, ia: np.ndarray, ib: np.ndarray) -> list[str | None]:
    """Why each pair's kappa is undefined (Cohen's reason, else Scott's; ``None`` when defined)."""
    from hieradjudicate.core.stats.undefined import REASONS

    cohen = pm.reason_cohen[ia, ib].astype(np.int64)
    code = np.where(cohen != 0, cohen, pm.reason_scott[ia, ib].astype(np.int64))
    text = [None] + [REASONS.get(c) for c in range(1, int(code.max(initial=0)) + 1)]
    return list(map(text.__getitem__, code.tolist()))
