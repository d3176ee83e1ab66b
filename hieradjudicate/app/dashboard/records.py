"""Value types of the dashboard: one dataclass per figure, each with its "explain" record.

Everything is plain data (numpy arrays, strings, floats; ``None`` for an
undefined figure, with the reason next to it), so that the Qt dashboard draws
it with pyqtgraph, the report renders it as SVG, and the tests compare it
with the metrics API.  Instance lists are arrays of corpus instance indices
(``Corpus.instance_key(i)`` gives lexelt and id): what a click on a cell or
bar filters the instance table to.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from hieradjudicate.core.agreement.bootstrap import DEFAULT_SEED


def fnum(v: Any) -> float | None:
    """A float, or ``None`` for masked / NaN / missing values."""
    if v is None or v is np.ma.masked:
        return None
    f = float(v)
    return None if np.isnan(f) else f


@dataclass(frozen=True)
class Explain:
    """What a figure is, for tooltips, the side panel and the report.

    ``observed`` and ``expected`` are the observed and chance agreement
    (``Pr(A)``, ``Pr(E)``) of a kappa, or ``1 - D_o`` and ``1 - D_e`` of an
    alpha (``observed_label``/``expected_label`` say which); ``n`` the
    instances the figure rests on; ``aggregation`` whether it is pooled over
    lexelts, a macro mean of per-lexelt figures, or per lexelt.
    """

    title: str
    what: str
    formula: str
    observed: float | None = None
    expected: float | None = None
    n: int | None = None
    aggregation: str = ""
    value: float | None = None
    reason: str | None = None
    observed_label: str = "observed agreement Pr(A)"
    expected_label: str = "chance agreement Pr(E)"
    note: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}

    def text(self) -> str:
        """Plain-text tooltip (several lines)."""
        lines = [self.title, self.what, f"Formula: {self.formula}"]
        if self.value is not None:
            lines.append(f"Value: {self.value:.4f}")
        elif self.reason:
            lines.append(f"Undefined: {self.reason}")
        if self.observed is not None:
            lines.append(f"{self.observed_label}: {self.observed:.4f}")
        if self.expected is not None:
            lines.append(f"{self.expected_label}: {self.expected:.4f}")
        if self.n is not None:
            lines.append(f"Rests on {self.n} instance(s)")
        if self.aggregation:
            lines.append(self.aggregation)
        if self.note:
            lines.append(self.note)
        return "\n".join(lines)


class LazyCells(Mapping):
    """A symmetric ``(a, b) -> value`` mapping over the off-diagonal cells of an ``m x m`` matrix,
    each value made by ``make(a, b)`` (``a < b``) the first time it is asked for.

    With 228 sets a heat map has 51,756 cells; building every cell's explain
    record up front cost seconds before the first draw, and the user hovers
    over a few of them.
    """

    def __init__(self, m: int, make: Callable[[int, int], Any]) -> None:
        self.m, self._make, self._done = m, make, {}

    def __getitem__(self, key: tuple[int, int]) -> Any:
        a, b = key
        if a == b or not (0 <= a < self.m and 0 <= b < self.m):
            raise KeyError(key)
        k = (a, b) if a < b else (b, a)
        if k not in self._done:
            self._done[k] = self._make(*k)
        return self._done[k]

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return ((a, b) for a in range(self.m) for b in range(self.m) if a != b)

    def __len__(self) -> int:
        return self.m * (self.m - 1)


class LazyPoints(Mapping):
    """``(pair or -1, level) -> Explain`` of a depth curve, each made by ``make`` when first asked for."""

    def __init__(self, n_pairs: int, n_levels: int, make: Callable[[int, int], Any]) -> None:
        self.n_pairs, self.n_levels, self._make, self._done = n_pairs, n_levels, make, {}

    def __getitem__(self, key: tuple[int, int]) -> Any:
        p, j = key
        if not (-1 <= p < self.n_pairs and 0 <= j < self.n_levels):
            raise KeyError(key)
        if key not in self._done:
            self._done[key] = self._make(p, j)
        return self._done[key]

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return ((p, j) for p in range(-1, self.n_pairs) for j in range(self.n_levels))

    def __len__(self) -> int:
        return (self.n_pairs + 1) * self.n_levels


@dataclass
class Heatmap:
    """Pairwise agreement of all sets (1).  Arrays are (m, m); the diagonal is undefined.

    ``pair_data(a, b)`` (positions, ``a < b``) gives the instances the pair
    shares and each one's category (identical ... disjoint), computed when
    first asked for: by a hover, a click or the report's tables.
    """

    set_indices: list[int]
    names: list[str]
    roles: list[str]
    measure: str  # "cohen", "scott" or "alpha"
    value: np.ma.MaskedArray
    n: np.ndarray
    observed: np.ma.MaskedArray
    expected: np.ma.MaskedArray
    reasons: dict[tuple[int, int], str]
    pair_data: Callable[[int, int], tuple[np.ndarray, np.ndarray]]
    explain: Explain
    cell_explain: Mapping[tuple[int, int], Explain] = field(default_factory=dict)
    #: every pair's category counts at once (one sweep), for the tables; else pair by pair
    all_counts: Callable[[], np.ndarray] | None = field(default=None, repr=False)
    _counts: np.ndarray | None = field(default=None, repr=False)
    #: "" or why the figures mean little: most instances lie in lexelts too small for chance correction
    thin_note: str = ""
    #: the same for one pair (positions), over the instances it shares; computed on hover
    pair_thin: Callable[[int, int], str] | None = field(default=None, repr=False)

    def pair_counts(self, a: int, b: int) -> np.ndarray:
        """Shared instances of the pair at positions ``a``, ``b`` per category, ``(4,)``."""
        if a == b or not self.n[a, b]:
            return np.zeros(4, np.int64)
        _, cat = self.pair_data(min(a, b), max(a, b))
        return np.bincount(cat, minlength=4)[:4]

    @property
    def category_counts(self) -> np.ndarray:
        """``(m, m, 4)`` shared instances per category of every pair (computed on first use)."""
        if self._counts is None and self.all_counts is not None:
            self._counts = self.all_counts()
        if self._counts is None:
            m = len(self.names)
            out = np.zeros((m, m, 4), np.int64)
            for a, b in zip(*np.nonzero(np.triu(self.n > 0, 1))):
                out[a, b] = out[b, a] = self.pair_counts(int(a), int(b))
            self._counts = out
        return self._counts

    def cell_instances(self, a: int, b: int) -> np.ndarray:
        """Instances where sets ``a`` and ``b`` (positions in ``names``) disagree (category != identical)."""
        if a == b or not self.n[a, b]:
            return np.zeros(0, np.int64)
        shared, cat = self.pair_data(min(a, b), max(a, b))
        return shared[cat != 0]  # 0: identical


@dataclass(frozen=True)
class LexeltBar:
    lexelt: str
    x: int  # lexelt index: the filter a click applies
    n: int
    value: float | None
    low: float | None
    high: float | None
    observed: float | None
    expected: float | None
    reason: str | None
    fleiss: float | None
    conger: float | None
    alpha: float | None
    mean_pair: float | None  # mean pairwise kappa (chosen variant) over pairs defined in the lexelt
    explain: Explain


@dataclass
class LexeltBars:
    """Per-lexelt agreement of the annotator group with bootstrap intervals (2)."""

    measure: str  # "fleiss" or "alpha"
    sets: list[str]
    bars: list[LexeltBar]
    overall: LexeltBar  # pooled over lexelts (instance-weighted chance)
    macro: float | None  # mean of the defined per-lexelt figures
    n_resamples: int
    explain: Explain

    def sorted(self, key: str = "value", descending: bool = False) -> list[LexeltBar]:
        """Bars ordered by ``value``, ``lexelt``, ``n``, ``low`` or ``high`` (undefined values last)."""
        def k(b: LexeltBar) -> tuple[bool, Any]:
            v = getattr(b, key)
            return (v is None, (-v if descending and isinstance(v, (int, float)) else v) if v is not None else 0)
        out = sorted(self.bars, key=k)
        if descending and key == "lexelt":
            out.reverse()
        return out


@dataclass
class DepthCurve:
    """Agreement at each cut of the sense tree (3): ``levels`` from depth 1 to the leaves."""

    levels: list[str]
    depths: list[int | None]  # None = leaves
    measure: str
    pairs: list[tuple[str, str]]
    pair_values: np.ma.MaskedArray  # (pairs, levels)
    pair_n: np.ndarray  # (pairs, levels)
    group_name: str
    group_values: list[float | None]
    group_n: list[int]
    explain: Explain
    point_explain: Mapping[tuple[int, int], Explain] = field(default_factory=dict)  # (pair or -1, level)


@dataclass
class Confusion:
    """Expected confusion of a pair within a lexelt, at a cut of the tree (4).

    ``matrix[r, c] = sum_i pa_i(r) pb_i(c)`` over the shared instances of the
    lexelt: rows are set ``a``'s senses, columns set ``b``'s.
    """

    a: str
    b: str
    lexelt: str
    x: int
    depth: int | None
    labels: list[str]
    glosses: list[str]
    matrix: np.ndarray
    n: int
    cells: dict[tuple[int, int], np.ndarray]  # instances with pa(r) * pb(c) > 0
    explain: Explain
    #: the two set indices; with ``why`` when the dashboard chose them (none chosen by the user)
    pair: tuple[int, int] | None = None
    why: str = ""

    def cell_instances(self, r: int, c: int) -> np.ndarray:
        return self.cells.get((r, c), np.zeros(0, np.int64))

    def summed(self, n_max: int) -> Confusion:
        """The matrix with at most ``n_max`` senses (``make.v``: 49 leaves, a grid whose labels cannot
        be read): the ``n_max - 1`` carrying the most mass in either set, in inventory order, and one
        "N others" sense summing the rest (its cells' instances united).  Itself when small enough."""
        G = len(self.labels)
        if G <= n_max:
            return self
        mass = self.matrix.sum(axis=0) + self.matrix.sum(axis=1)
        keep = np.sort(np.argsort(-mass, kind="stable")[:n_max - 1])
        rest = np.setdiff1d(np.arange(G), keep)
        groups = [[int(j)] for j in keep] + [rest.tolist()]
        M = np.array([[self.matrix[np.ix_(gr, gc)].sum() for gc in groups] for gr in groups], float)
        cells = {}
        for r, gr in enumerate(groups):
            for c, gc in enumerate(groups):
                got = [self.cells[(a, b)] for a in gr for b in gc if (a, b) in self.cells]
                if got:
                    cells[(r, c)] = np.unique(np.concatenate(got))
        others = f"{rest.size} others"
        gloss = f"the sum of the other {rest.size} senses: " + ", ".join(self.labels[j] for j in rest)
        return Confusion(self.a, self.b, self.lexelt, self.x, self.depth, [self.labels[j] for j in keep] + [others],
                         [self.glosses[j] for j in keep] + [gloss], M, self.n, cells, self.explain, self.pair,
                         self.why)


@dataclass(frozen=True)
class GoldAgreementRow:
    name: str
    role: str
    n: int  # instances both the set and the gold cover
    score: float | None  # leaf score = precision against the gold (Melamed & Resnik)
    recall: float | None
    kappa_cohen: float | None
    kappa_scott: float | None
    observed: float | None
    expected_cohen: float | None
    reason: str | None
    explain: Explain


@dataclass(frozen=True)
class ScoreRow:
    system: str
    policy: str  # leaf, fine, coarse, mixed
    precision: float | None
    recall: float | None
    coverage: float | None
    f1: float | None
    precision_ci: tuple[float | None, float | None]
    recall_ci: tuple[float | None, float | None]
    cross_entropy: float | None
    zero_scores: int | None
    cost: float | None
    attempted: float
    total: int
    explain: Explain


@dataclass
class SystemComparisonView:
    """Pedersen (2002) comparison of the systems against the gold (6)."""

    names: list[str]
    threshold: float
    accuracy: list[float | None]
    kappa: np.ma.MaskedArray
    both: np.ndarray
    one: np.ndarray
    neither: np.ndarray
    optimal_all: float | None
    best_subsets: list[tuple[tuple[str, ...], float]]
    histogram: list[int]
    bar_instances: list[np.ndarray]  # instances exactly k systems get right
    n: int
    explain: Explain


@dataclass
class Progress:
    """Adjudication progress (7)."""

    days: list[str]
    decisions: list[int]
    withdrawals: list[int]
    resolved_at_end: list[int]
    total: int
    status_counts: dict[str, int]  # within the selection
    remaining: dict[str, int]  # unresolved instances of the selection by worst annotator category
    remaining_instances: dict[str, np.ndarray]
    flagged: list[dict[str, Any]]
    noted: list[dict[str, Any]]
    explain: Explain

    @property
    def resolved_share(self) -> list[float]:
        return [r / self.total if self.total else 0.0 for r in self.resolved_at_end]


MEASURES = ("cohen", "scott", "alpha")


@dataclass(frozen=True)
class DashboardOptions:
    """What the dashboard shows.

    ``measure``: pairwise coefficient (``cohen``, ``scott`` or ``alpha``); the
    group figure is Fleiss' kappa for the kappas and alpha for alpha.
    ``confusion_pair`` (two set indices), ``confusion_lexelt`` (lexelt index)
    and ``confusion_depth`` (``None`` = leaves) choose the confusion matrix;
    by default the first two annotators in the lexelt where they agree least.
    ``intervals``: bootstrap intervals of the gold-dependent figures (slow on
    a large gold; the GUI recomputes them off the GUI thread).
    """

    measure: str = "cohen"
    n_resamples: int = 1000
    seed: int = DEFAULT_SEED
    confusion_pair: tuple[int, int] | None = None
    confusion_lexelt: int | None = None
    confusion_depth: int | None = None
    threshold: float = 1.0
    intervals: bool = True


@dataclass
class DashboardData:
    """All dashboard figures for one corpus, gold, selection and options."""

    summary: dict[str, Any]
    options: DashboardOptions
    selection_n: int
    heatmap: Heatmap
    lexelts: LexeltBars
    depth: DepthCurve
    confusion: Confusion | None
    gold_n: int
    gold_agreement: list[GoldAgreementRow]
    scores: list[ScoreRow]
    comparison: SystemComparisonView | None
    progress: Progress
    method: list[tuple[str, str]]
    timings_ms: dict[str, float] = field(default_factory=dict)
    instance_keys: Any = None  # callable i -> (lexelt, instance id)
    #: why some scoring policies are left out (coarse/mixed without a hierarchy), else ""
    policy_note: str = ""
    #: annotator competence and instance difficulty (:mod:`hieradjudicate.app.dashboard.competence`), when
    #: estimated: the report's competence section and tables
    competence: Any = None
    #: why the competence model was refused on these data (its message), else "": the section says it
    competence_refused: str = ""
    #: paired significance tests between the systems (:mod:`hieradjudicate.app.dashboard.significance`)
    significance: Any = None
    #: the systems' scores against a reference gold given as input (a set of role gold), and the paired
    #: tests against it by reference name (:mod:`hieradjudicate.app.dashboard.reference`): with the intervals
    reference: Any = None
    reference_significance: dict = field(default_factory=dict)
    #: why the agreement figures (pairwise, per lexelt, by depth, confusions) are not computed ("" when
    #: they are: two sets or more to compare), as the window says it
    no_agreement: str = ""

    def explains(self) -> dict[str, Explain]:
        out = {"heatmap": self.heatmap.explain, "lexelts": self.lexelts.explain, "depth": self.depth.explain,
               "progress": self.progress.explain}
        if self.confusion is not None:
            out["confusion"] = self.confusion.explain
        if self.comparison is not None:
            out["comparison"] = self.comparison.explain
        if self.competence is not None:
            out["competence"] = self.competence.explain
        if self.significance is not None:
            out["significance"] = self.significance.explain
        return out
