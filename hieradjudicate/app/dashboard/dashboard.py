"""The agreement dashboard's data layer (no Qt): every table and plot as plain data.

:class:`Dashboard` holds a corpus and caches everything that does not depend
on decisions (pairwise heatmap, per-lexelt bars with bootstrap intervals,
agreement against depth, confusion matrices, disagreement categories), keyed
by the instance selection and options.  :meth:`Dashboard.compute` returns a
:class:`DashboardData` snapshot; after a decision only the gold-dependent
parts (agreement with the gold, system scores and comparison, progress) are
recomputed.

Typical use (the GUI)::

    tracker = DecisionTracker(corpus, session.store.iter_history())
    dash = Dashboard(corpus)
    data = dash.compute(tracker=tracker)                 # first time: everything
    session.decisions.subscribe(lambda rows: tracker.apply(rows))
    data = dash.compute(tracker=tracker, intervals=False)  # after a decision: fast
    data.heatmap.cell_instances(0, 1)                    # click on a cell -> instances

Figures follow ``metrics.md``; each carries an :class:`~.dashboard_types.Explain`.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

import numpy as np

from hieradjudicate.app.dashboard.agree import (
    confusion,
    depth_curve,
    heatmap,
    lexelt_bars,
    lexelt_mean_pair,
    pair_categories,
    pair_sharing_most,
    shared_counts,
)
from hieradjudicate.app.dashboard.gold import STATUS_NAMES, UNRESOLVED, DecisionTracker
from hieradjudicate.app.progress import Progress, Steps
from hieradjudicate.app.dashboard.records import (
    MEASURES,
    Confusion,
    DashboardData,
    DashboardOptions,
    Explain,
    GoldAgreementRow,
    LexeltBars,
    Progress as AdjudicationProgress,
    ScoreRow,
)
from hieradjudicate.app.dashboard.scores import (
    NearestGold,
    TreeCredit,
    comparison,
    gold_agreement,
    restrict_gold,
    scorable_policies,
    system_scores,
)
from hieradjudicate.app.dashboard.reference import reference_view
from hieradjudicate.app.dashboard.significance import open_ranges, significance_view
from hieradjudicate.core.agreement.multirater import CONGER_MARGINAL_RULE
from hieradjudicate.core.agreement.fleiss_missing import FLEISS_MISSING_RULE, GWET_FLEISS_RULE
from hieradjudicate.core.dashboard import all_figures
from hieradjudicate.core.agreement.granularity import CATEGORY_NAMES, worst_category
from hieradjudicate.core.model import AnnotationSet, Corpus


def method_text(corpus: Corpus, measure: str) -> list[tuple[str, str]]:
    """The method section (what the report prints and the GUI shows under "About these figures")."""
    inv = corpus.inventory
    weighted = bool(np.any(~np.isnan(inv._raw_weight))) if hasattr(inv, "_raw_weight") else False
    self_leaves = int((inv.node_self_of >= 0).sum())
    return [
        ("Leaf distributions", "Every annotation is spread over the leaves of its lexelt's sense tree before "
         "anything is compared. A tag puts its mass on the leaves under it by downward probabilities: "
         + ("explicit weights from the inventory, normalised per parent; " if weighted else "")
         + "by default P(child | parent) = 1 / number of children (maximum entropy), so a top-level tag with "
         "two sub-senses gives each 1/2. "
         + (f"{self_leaves} sense(s) with a branching factor larger than their listed children keep the "
            "unlisted share as a leaf of their own ('itself'). " if self_leaves else "")
         + "Several tags on one instance share its mass equally unless weighted. Tags outside the inventory "
         "(U, P, typos) are leaves of their own."),
        ("Observed agreement", "Pr(A) = mean over shared instances of sum_l pa(l) pb(l): two annotators who both "
         "write an underspecified tag agree only partly on that instance. That is the method (Melamed & "
         "Resnik 2000), and why each instance is also classified as identical, compatible (one region "
         "contains the other: granularity only), overlapping or disjoint."),
        ("Chance model", "Chance agreement is computed within each lexelt from its own marginals and combined "
         "over lexelts as the instance-weighted mean, so that a sense of one word never counts as a chance "
         "match for another. Per-lexelt figures and their macro mean are shown too."),
        ("Scott versus Cohen", "Scott's pi / Siegel & Castellan's kappa uses the pooled marginal of both "
         "annotators, Pr(E) = sum_l ((Pa(l) + Pb(l)) / 2)^2; Cohen's kappa each annotator's own marginal, "
         "Pr(E) = sum_l Pa(l) Pb(l). Cohen rewards annotators for differing in their sense preferences; "
         f"they coincide when the marginals do. This report shows {measure} for pairs; the group figure is "
         "Fleiss' kappa (soft labels), the multi-rater form of Scott's, or Krippendorff's alpha."),
        ("Fleiss' kappa with missing ratings", FLEISS_MISSING_RULE + ". " + GWET_FLEISS_RULE + "."),
        ("Davies & Fleiss kappa", CONGER_MARGINAL_RULE + "."),
        ("Krippendorff's alpha", "Nominal alpha over soft coincidences, missing data allowed; expected "
         "disagreement within each lexelt, weighted by pairable values."),
        ("Confidence intervals", "BCa bootstrap (bias-corrected and accelerated, Efron 1987; the "
         "acceleration from the jackknife within each stratum), 95 %, instances resampled within each "
         "lexelt, the lexelts of fewer than 10 instances resampled whole, as one stratum (all-words data: "
         "a lexelt of one instance resampled alone has no variance), fixed seed: the same data give the "
         "same intervals. With few instances per lexelt the "
         "resampled chance agreement is biased upward; BCa corrects the interval for it, so the interval "
         "may lie above the estimate's middle (the percentile interval, agree --ci-method percentile, "
         "does not correct)."),
        ("Scores", "Leaf policy (Melamed & Resnik): an answer scores the mass it puts inside the gold "
         "region; cross-entropy and the tree-distance cost follow Resnik & Yarowsky (1997); the "
         "distance is divided by the largest distance between the lexelt's inventory senses (tags outside "
         "the inventory count 1, so no other set changes a system's cost). Fine, coarse and "
         "mixed follow Senseval's scorer2 with the sense tree of the inventory as its sense map. The gold "
         "is the set of decisions marked resolved so far."),
    ]


#: the named steps of :meth:`Dashboard.compute` (a progress dialog's lines; ``{sets}``: "228 sets",
#: ``{n}``: resolved instances)
COMPUTE_STEPS = ("Pairwise agreement of {sets}", "The heat map", "Agreement per lexelt", "Agreement by depth",
                 "The confusion matrix", "Agreement with the {n:,} resolved instances", "The systems' scores",
                 "The adjudication's progress")


class Dashboard:
    """Cached dashboard computations over one corpus (annotations never change while it is open)."""

    def __init__(self, corpus: Corpus, options: DashboardOptions | None = None, *, title: str = "") -> None:
        self.corpus = corpus
        self.options = options or DashboardOptions()
        self.title = title
        self._cache: dict[Any, Any] = {}
        self._shared: list[Any] = []  # the corpus' layouts the figures read (their P dropped after)
        self._groups: dict[int | None, Any] = {}
        self._credit: TreeCredit | None = None
        self._leaf_dist: np.ndarray | None = None
        self._nearest: NearestGold | None = None
        #: where the scores against a reference gold are kept once computed (the window's workbench: its
        #: reference panel computes the same ones); None: this dashboard computes its own
        self.reference_holder: object | None = None
        sets = corpus.sets
        self.sets = [k for k, s in enumerate(sets) if s.role != "gold"]
        ann = [k for k, s in enumerate(sets) if s.role == "annotator"]
        self.group = ann if len(ann) >= 2 else self.sets
        self.systems = [k for k, s in enumerate(sets) if s.role == "system"]
        # the pairs' categories are computed on first use (in the worker that computes the figures),
        # not here: opening a 228-set project would wait seconds for them in the GUI thread.  They
        # live in ``_cache`` under plain string keys, so copies of this object (the GUI's interval
        # worker) share them and selection changes keep them.

    def pair_categories(self, a: int, b: int) -> tuple[np.ndarray, np.ndarray]:
        """Shared instances of sets ``a`` and ``b`` (corpus indices) and their category, on first use.

        A crowd has tens of thousands of pairs (MASC: 25,878, 8,214 sharing
        instances); the heat map draws their coefficients, and a pair's
        categories are wanted only when its cell is hovered or clicked, or for
        the report's tables.  Cached under a plain key, so copies of this
        object (the GUI's interval worker) share them.
        """
        cache = self._cache.setdefault("pair_categories", {})
        key = (a, b) if a < b else (b, a)
        if key not in cache:
            cache[key] = pair_categories(self.corpus, *key)
        return cache[key]

    def pairs_by_shared(self, sets: list[int] | None = None, limit: int | None = None) -> list[tuple[int, int]]:
        """Pairs of ``sets`` (default: every non-gold set) that share instances, most shared first.

        A crowd's first two sets often share nothing (MASC: workers 1 and 3 in
        most lexelts); the pair a confusion matrix shows by default is the one
        with the most common instances.  With no pair sharing anything, the
        first pair is returned so that the caller still has one.
        """
        sets = list(self.sets if sets is None else sets)
        key = ("shared", tuple(sets))
        if key not in self._cache:
            self._cache[key] = shared_counts(self.corpus, sets)
        sc = self._cache[key]
        iu = np.triu_indices(len(sets), 1)
        n = sc[iu]
        order = np.argsort(-n, kind="stable")
        order = order[n[order] > 0][:limit] if (n > 0).any() else order[:1]
        return [(sets[int(iu[0][j])], sets[int(iu[1][j])]) for j in order]

    @property
    def worst_category(self) -> np.ndarray:
        """Each instance's worst category over the pairs of the agreement group (-1: fewer than two)."""
        if "worst_category" not in self._cache:
            sets = [self.corpus.sets[k] for k in self.group]
            if sets:
                self._cache["worst_category"] = worst_category(
                    np.concatenate([s.rows for s in sets]), np.concatenate([s.signature for s in sets]),
                    np.concatenate([s.leaves_once() > 0 for s in sets]), self.corpus.n)  # none kept
            else:
                self._cache["worst_category"] = np.full(self.corpus.n, -1, np.int8)
        return self._cache["worst_category"]

    def share_worst_category(self, sets: list[int], category: np.ndarray) -> bool:
        """Take ``category`` as :attr:`worst_category` when it is that figure: the worst category over
        the pairs of ``sets``' answers, ``sets`` being this dashboard's group (the workbench's
        column over the annotator sets).  On MASC it is the same pass over 1.08 M answers, and its
        ~90 MiB of temporaries were the warm-up's peak.  ``True`` when taken."""
        if len(sets) < 2 or list(sets) != list(self.group) or len(category) != self.corpus.n:
            return False
        self._cache["worst_category"] = category
        return True

    # -- cached helpers -----------------------------------------------------------------------------
    def groups_at(self, depth: int | None):
        if depth not in self._groups:
            self._groups[depth] = self.corpus.inventory.leaf_groups(depth)
        return self._groups[depth]

    def _rollup_groups(self, depth: int):
        g = self.groups_at(depth)
        return g[0], g[1]

    def layout(self, sets: list[int], keep: np.ndarray | None, skey: Any):
        """The :class:`~hieradjudicate.core.agreement.layout.Layout` of ``sets`` restricted to ``keep``
        (cached): the rows sorted by (lexelt, instance), a crowd's one leaf per row -- the figures
        never make its dense ``P`` (MASC: 1.08 M rows x 17 leaves, 147 MB)."""
        key = ("lf", tuple(sets), skey)
        if key not in self._cache:
            lay = self.corpus.layout(sets)  # one sorted copy, shared with the workbench's live figures
            if keep is not None:  # a subset of sorted rows is sorted: the layout copies nothing more
                lay = lay.take(np.flatnonzero(keep[lay.inst]))
            else:  # the corpus' shared layout: a P some reader made is dropped after the figures
                self._shared.append(lay)
            self._cache[key] = lay
        return self._cache[key]

    def _cached(self, key: Any, fn):
        if key not in self._cache:
            self._cache[key] = fn()
        return self._cache[key]

    @property
    def credit(self) -> TreeCredit:
        if self._credit is None:
            self._credit = TreeCredit(self.corpus.inventory)
        return self._credit

    @property
    def leaf_dist(self) -> np.ndarray:
        if self._leaf_dist is None:
            self._leaf_dist = self.corpus.inventory.leaf_distance()
        return self._leaf_dist

    # -- the whole dashboard ------------------------------------------------------------------------
    def compute(self, gold: AnnotationSet | None = None, selection: np.ndarray | None = None, *,
                tracker: DecisionTracker | None = None, progress: Progress | None = None,
                **changes: Any) -> DashboardData:
        """All figures.  ``gold`` defaults to ``tracker.gold_set()``; ``selection`` = instance indices
        (default: every instance); keyword arguments override :class:`DashboardOptions` fields.
        ``progress(done, total, what)`` hears each figure's step (:data:`COMPUTE_STEPS` of them)."""
        steps = Steps(progress, len(COMPUTE_STEPS) + 2)  # the group's figures take three slots
        opt = replace(self.options, **changes) if changes else self.options
        if opt.measure not in MEASURES:
            raise ValueError(f"measure {opt.measure!r}; expected one of {MEASURES}")
        c = self.corpus
        keep = None
        skey: Any = None
        if selection is not None:
            keep = np.zeros(c.n, bool)
            keep[np.asarray(selection, np.int64)] = True
            skey = hash(np.flatnonzero(keep).tobytes())
        if gold is None and tracker is not None:
            gold = tracker.gold_set()
        t: dict[str, float] = {}
        t0 = time.perf_counter()
        steps.step(COMPUTE_STEPS[0].format(sets=f"{len(self.group)} set" + ("s" * (len(self.group) != 1))), 3)
        lay_all = self.layout(self.sets, keep, skey)
        # one layout and one pass of the group's figures serve the heat map (when every set is in
        # the group), the per-lexelt bars and the depth curve's leaves
        lay = self.layout(self.group, keep, skey)
        figs, mean_pair = self._cached(("figs", skey), lambda: self._group_figures(lay))
        t["group figures"] = _ms(t0)
        t0 = time.perf_counter()
        steps.step(COMPUTE_STEPS[1])
        hm = self._cached(("hm", opt.measure, skey),
                          lambda: heatmap(c, self.sets, lay_all, opt.measure, self.pair_categories, keep,
                                          pm=figs.pairwise if self.group == self.sets else None))
        t["heatmap"] = _ms(t0)
        t0 = time.perf_counter()
        steps.step(COMPUTE_STEPS[2])
        bars = self._cached(("lex", opt.measure == "alpha", opt.n_resamples, opt.seed, skey),
                            lambda: lexelt_bars(c, self.group, lay, opt.measure, opt.n_resamples, opt.seed,
                                                figs=figs, mean_pair=mean_pair))
        t["lexelts"] = _ms(t0)
        t0 = time.perf_counter()
        steps.step(COMPUTE_STEPS[3])
        depth = self._cached(("depth", opt.measure, skey),
                             lambda: depth_curve(c, self.group, lay, opt.measure, self._rollup_groups,
                                                 figs=figs))
        t["depth"] = _ms(t0)
        t0 = time.perf_counter()
        steps.step(COMPUTE_STEPS[4])
        conf = self._confusion(opt, bars, keep, skey)
        t["confusion"] = _ms(t0)
        t0 = time.perf_counter()
        g = restrict_gold(gold, keep) if gold is not None else None
        gold_rows: list[GoldAgreementRow] = []
        scores: list[ScoreRow] = []
        cmp = None
        sig = None
        policy_note = ""
        if g is not None and g.n:
            steps.step(COMPUTE_STEPS[5].format(n=g.n))
            gold_rows, leaf_scores = gold_agreement(c, self.sets, g)
            t["gold_agreement"] = _ms(t0)
            t0 = time.perf_counter()
            if self.systems:
                steps.step(COMPUTE_STEPS[6])
                if self._nearest is None:
                    self._nearest = NearestGold(c.n, c.inventory.K, self.leaf_dist)
                dmin = self._nearest.rows(g, c.inst_lexelt)
                policies, policy_note = scorable_policies(c.inventory)
                per_policy: dict = {}
                scores, leaf_matrix = system_scores(c, self.systems, g, self.credit, dmin, leaf_scores,
                                                    n_resamples=opt.n_resamples if opt.intervals else 0,
                                                    seed=0, policies=policies, per_policy=per_policy)
                cmp = comparison(c, self.systems, g, leaf_matrix, opt.threshold)
                names = [c.sets[k].name for k in self.systems]
                t["systems"] = _ms(t0)
                t0 = time.perf_counter()
                # 10,000 shuffles per pair and policy: with the intervals (the background pass)
                # the same settings (seed 0) as compare and the stored runs: app/paired.py
                sig = significance_view(names, per_policy, g.rows, threshold=opt.threshold,
                                        corpus=c) if opt.intervals else None
                if sig is not None:
                    sig.open_ranges = open_ranges(c, self.systems, names, g.rows, per_policy,
                                                  None if keep is None else np.flatnonzero(keep), self.credit.top)
                t["significance"] = _ms(t0)
            else:
                t["systems"] = _ms(t0)
            t0 = time.perf_counter()
        reference, ref_sig = (self._cached(("reference",), lambda: reference_view(c, holder=self.reference_holder)) if opt.intervals
                              else (None, {}))  # inputs: once per project, with the intervals
        t["reference"] = _ms(t0)
        t0 = time.perf_counter()
        method = method_text(c, opt.measure)
        method.append(("Sets compared", self.group_note()))
        if policy_note:
            method.append(("Coarse and mixed scores", policy_note))
        steps.skip_to(len(COMPUTE_STEPS) + 1)
        steps.step(COMPUTE_STEPS[7])
        prog = self._progress(tracker, gold, keep)
        t["progress"] = _ms(t0)
        steps.finish("Figures computed")
        for shared in self._shared:  # MASC: 147 MB less while the competence estimate runs (#23)
            shared.release_P()
        return DashboardData(self.summary(gold), opt, int(c.n if keep is None else keep.sum()), hm, bars,
                             depth, conf, 0 if g is None else g.n, gold_rows, scores, cmp, prog,
                             method, t, c.instance_key, policy_note, significance=sig, reference=reference,
                             reference_significance=ref_sig,
                             no_agreement=no_agreement_text(c, self.sets, "in the section \u201cSystem scores "
                                                            "against the reference gold\u201d"))

    def _group_figures(self, lay):
        """The group's figures, and each lexelt's mean pairwise kappa, computed lexelt by lexelt:
        no ``(X, m, m)`` per-lexelt pair table is kept for it (a crowd: 4 x 46 x 228 x 228 floats,
        76 MB, and as much again for their mean)."""
        c = self.corpus
        figs = all_figures(None, None, None, c.inst_lexelt, n_raters=len(self.group),
                           n_lexelts=len(c.inventory.lexelts), per_lexelt="mean", coincidences=False, layout=lay)
        return figs, lexelt_mean_pair(figs.pairwise, len(self.group))

    def group_note(self) -> str:
        """Which sets the group figures (per-lexelt bars, depth curve) compare, in words; says so
        when systems stand in for missing annotators (fewer than two annotator sets)."""
        names = ", ".join(self.corpus.sets[k].name for k in self.group) or "none"
        systems = [self.corpus.sets[k].name for k in self.group if self.corpus.sets[k].role == "system"]
        if systems:
            return (f"The group figures compare {names}. This project has fewer than two annotator sets, "
                    f"so the system set(s) {', '.join(systems)} are compared with them: these are not "
                    "figures of agreement among annotators.")
        left = [s.name for s in self.corpus.sets if s.role == "system"]
        return (f"The group figures compare the annotator sets {names}"
                + (f"; the system set(s) {', '.join(left)} are not counted as annotators." if left else "."))

    def _confusion(self, opt: DashboardOptions, bars: LexeltBars, keep, skey) -> Confusion | None:
        if opt.confusion_pair is None and len(self.group) < 2:
            return None
        x = opt.confusion_lexelt
        if x is None:
            x = self.default_lexelt(bars)
            if x is None:
                return None
        why = ""
        if opt.confusion_pair is not None:
            a, b = opt.confusion_pair
        else:
            (a, b), shared = self.best_pair(x)
            lex = self.corpus.inventory.lexelts[x]
            how = ("the lexelt with the lowest group agreement" if opt.confusion_lexelt is None
                   else "the lexelt chosen")
            why = "" if len(self.group) < 3 else (  # one pair: nothing was chosen
                f"Opened on {self.corpus.sets[a].name} × {self.corpus.sets[b].name}: of the sets compared, "
                f"the pair that answered the most instances of {lex} together ({shared}), on {how} "
                "(where a look helps most); choose another pair above.")
        cf = self._cached(("conf", a, b, x, opt.confusion_depth, skey),
                          lambda: confusion(self.corpus, a, b, x, opt.confusion_depth, self.groups_at, keep))
        return replace(cf, pair=(a, b), why=why,
                       explain=replace(cf.explain, note=" ".join(t for t in (cf.explain.note, why) if t)))

    def best_pair(self, x: int) -> tuple[tuple[int, int], int]:
        """The pair of the agreement group that answered the most instances of lexelt ``x`` together
        (ties: the first in project order), and how many: the confusion matrix with the most behind it
        (a crowd's first two workers often share none of a lexelt)."""
        key = ("best_pair", x)
        if key not in self._cache:
            self._cache[key] = pair_sharing_most(self.corpus, list(self.group), x)
        return self._cache[key]

    @staticmethod
    def default_lexelt(bars: LexeltBars) -> int | None:
        """The lexelt with the lowest defined group figure (where a look at the confusion helps most)."""
        ok = [b for b in bars.bars if b.value is not None] or bars.bars
        if not ok:
            return None
        return min(ok, key=lambda b: (b.value if b.value is not None else 0.0)).x

    def confusion(self, a: int, b: int, x: int, depth: int | None = None,
                  selection: np.ndarray | None = None) -> Confusion:
        """One confusion matrix on demand (the GUI's pair, lexelt and level selectors)."""
        keep = None
        if selection is not None:
            keep = np.zeros(self.corpus.n, bool)
            keep[np.asarray(selection, np.int64)] = True
        return confusion(self.corpus, a, b, x, depth, self.groups_at, keep)

    def _progress(self, tracker: DecisionTracker | None, gold: AnnotationSet | None,
                  keep: np.ndarray | None) -> AdjudicationProgress:
        c = self.corpus
        if tracker is not None:
            status = tracker.status
        else:
            status = np.zeros(c.n, np.int8)
            if gold is not None:
                status[gold.rows] = 1
        sel = slice(None) if keep is None else keep
        counts = np.bincount(status[sel], minlength=len(STATUS_NAMES))
        open_ = (status == UNRESOLVED) if keep is None else (status == UNRESOLVED) & keep
        worst = self.worst_category
        remaining: dict[str, int] = {}
        rem_inst: dict[str, np.ndarray] = {}
        for code, name in [*enumerate(CATEGORY_NAMES), (-1, "single")]:
            idx = np.flatnonzero(open_ & (worst == code))
            remaining[name] = int(idx.size)
            rem_inst[name] = idx
        days = tracker.days() if tracker is not None else []

        def row(i: int, r) -> dict[str, Any]:
            lexelt, inst = c.instance_key(i)
            return {"index": i, "lexelt": lexelt, "instance": inst, "status": r.status, "tags": " ".join(r.tags),
                    "note": r.note, "decided_by": r.decided_by, "decided_at": r.decided_at,
                    "category": CATEGORY_NAMES[worst[i]] if worst[i] >= 0 else "single"}

        flagged = [row(i, r) for i, r in tracker.flagged()] if tracker is not None else []
        noted = [row(i, r) for i, r in tracker.noted()] if tracker is not None else []
        total = int(c.n if keep is None else keep.sum())
        resolved = int(counts[1])
        e = Explain("Adjudication progress", "Decisions per day (from the decision history), the share of "
                    "instances resolved at the end of each day, and the agreement category of the instances "
                    "still open (the worst annotator pair: a disjoint pair makes the instance disjoint).",
                    "resolved share = resolved instances / all instances", n=total,
                    aggregation="whole project (days) and the current selection (counts)",
                    value=resolved / total if total else None)
        return AdjudicationProgress([d.day for d in days], [d.decisions for d in days],
                                    [d.withdrawals for d in days], [d.resolved_at_end for d in days], total,
                                    {name: int(counts[k]) for k, name in enumerate(STATUS_NAMES)
                                     if name != "conflict" or counts[k]},
                                    remaining, rem_inst, flagged, noted, e)

    def summary(self, gold: AnnotationSet | None) -> dict[str, Any]:
        c = self.corpus
        inv = c.inventory
        return {
            "title": self.title,
            "instances": c.n,
            "lexelts": len(inv.lexelts),
            "inventory": inv.summary(),
            "sets": [{"name": s.name, "role": s.role, "instances": s.n,
                      "multi_tag": int((np.diff(s.tag_ptr) > 1).sum())} for s in c.sets],
            "annotator_group": [c.sets[k].name for k in self.group],
            "systems": [c.sets[k].name for k in self.systems],
            "gold_instances": 0 if gold is None else gold.n,
            "problems": len(c.problems),
        }


def no_agreement_text(corpus: Corpus, sets: list[int], where: str) -> str:
    """Why the agreement figures (pairwise, per lexelt, by depth, confusions) cannot be computed, in a
    sentence; "" when there are two sets or more to compare.  ``where``: where the systems' scores
    against a reference gold are shown ("in the panel above", "in the section ...")."""
    names = [corpus.sets[k].name for k in sets]
    if len(names) >= 2:
        return ""
    golds = [s.name for s in corpus.sets if s.role == "gold"]
    has = f"one ({names[0]})" if names else "none"
    return (f"Not computed: agreement needs at least two sets to compare (annotators or systems); this project "
            f"has {has}." + (f" The reference gold ({', '.join(golds)}) is not compared: the systems are "
                             f"scored against it {where}." if golds else ""))


def dashboard_data(corpus: Corpus, *, tracker: DecisionTracker | None = None, gold: AnnotationSet | None = None,
                   selection: np.ndarray | None = None, title: str = "", **options: Any) -> DashboardData:
    """One-shot: all dashboard figures (the report and scripts)."""
    return Dashboard(corpus, title=title).compute(gold, selection, tracker=tracker, **options)


def _ms(t0: float) -> float:
    return round((time.perf_counter() - t0) * 1000.0, 2)


__all__ = ["MEASURES", "Dashboard", "DashboardData", "DashboardOptions", "DecisionTracker", "dashboard_data",
           "method_text", "no_agreement_text"]
