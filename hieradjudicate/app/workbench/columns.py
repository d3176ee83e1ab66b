"""Column arrays of the workbench's instance table, computed once from a corpus.

Everything here is vectorised over instances (numpy); the only per-row Python
work is formatting strings (keyword-in-context snippets, tag strings of
multi-tag answers), done once when a project opens.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from hieradjudicate.app.session.batch import annotator_sets
from hieradjudicate.core.agreement.granularity import CATEGORY_NAMES, instance_disagreement, worst_category  # noqa: F401
from hieradjudicate.core.inventory.labels import node_short_labels
from hieradjudicate.core.model import AnnotationSet, Corpus

#: Category code of an instance fewer than two annotators answered.
NO_PAIR = -1
IDENTICAL, COMPATIBLE, OVERLAPPING, DISJOINT = 0, 1, 2, 3
CATEGORY_LABELS = {NO_PAIR: "single", 0: "identical", 1: "compatible", 2: "overlapping", 3: "disjoint"}
CATEGORY_ICONS = {NO_PAIR: "·", 0: "=", 1: "⊂", 2: "∩", 3: "≠"}
KWIC_WIDTH = 38
KWIC_LEFT = 22  # short left context: the head word stays visible in a narrow column


#: the columns :meth:`Columns.finish` computes (``late``: possibly after the table is shown)
LATE_KEYS = ("category", "agreement", "answers")


@dataclass
class Columns:
    """Per-instance arrays (length ``n``) and per-set answer strings.

    ``category``, ``agreement``, ``n_answers``, ``crowd`` and ``leaf_sums`` are the *late* columns: a
    crowd's take a pass over every annotator's leaf vectors (MASC: ~1 CPU-s), so the window computes
    them in the background after the table is shown (``compute_columns(late=True)``).  Reading one
    computes them first, or waits for the thread computing them (see :meth:`finish`); :attr:`ready`
    says, without waiting, whether they are there.
    """

    lexelt: np.ndarray  # int codes
    lexelt_names: list[str]
    inst_id: np.ndarray  # object (str)
    kwic: np.ndarray  # object (str): "... left [head] right ..."
    set_tags: list[np.ndarray]  # one object array per set, "" where unanswered
    set_pos: list[np.ndarray]  # row position of each instance in each set, -1 where unanswered
    annotators: list[int]  # indices of the annotator sets
    corpus: Corpus = field(repr=False)
    crowd_mode: bool = False  # the answers as one "tag ×n" column (``crowd``), not a column per set
    extra: dict[str, np.ndarray] = field(default_factory=dict)
    #: what ``category`` compares, in words (annotator pairs, or sets against the reference gold)
    category_basis: str = "worst pair of annotators"
    _late: dict = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def ready(self) -> bool:
        """Whether the late columns are computed (never waits)."""
        return bool(self._late)

    def finish(self, progress: Callable[[int, int, str], None] | None = None) -> bool:
        """Compute the late columns unless done; True when this call computed them.  Another thread
        computing them meanwhile is waited for; an exception (a cancelled background job) leaves them
        to the next caller.  ``progress(done, total, what)``: after each annotator set, then the answers."""
        if self._late:
            return False
        with self._lock:
            if self._late:
                return False
            tell = progress or (lambda _d, _t, _w: None)
            corpus, annotators, n = self.corpus, self.annotators, self.corpus.n
            R = max(len(annotators), 1)
            what = f"the disagreement category of {n:,} instances"
            sums: list[np.ndarray] = []
            category, agreement, n_ans = group_category(corpus, annotators, progress=lambda x: tell(
                x + 1, R + 1, what), sums=sums)
            if len(annotators) < 2:  # no annotator pair: where a system (or the annotator) differs from a gold
                category, self.category_basis = reference_category(corpus, annotators, category)
            late = {"category": category, "agreement": agreement, "n_answers": n_ans, "crowd": None,
                    "leaf_sums": (sums[0], n_ans) if sums else None}
            if self.crowd_mode:
                tell(R, R + 1, f"the answers of {len(annotators):,} annotators per instance")
                late["crowd"] = crowd_summaries(corpus, annotators)
            self._late = late  # at once, complete: ``ready`` never sees half of them
        return True

    def _get(self, key: str):
        self.finish()
        return self._late[key]

    @property
    def category(self) -> np.ndarray:
        """int8, worst pairwise category over the annotator pairs."""
        return self._get("category")

    @property
    def agreement(self) -> np.ndarray:
        """float, mean pairwise leaf agreement (NaN with < 2 annotators)."""
        return self._get("agreement")

    @property
    def n_answers(self) -> np.ndarray:
        """int, annotator answers per instance."""
        return self._get("n_answers")

    @property
    def crowd(self) -> np.ndarray | None:
        """object (str) "tag ×n, ..." in crowd mode, else None."""
        return self._get("crowd")

    @property
    def leaf_sums(self) -> tuple[np.ndarray, np.ndarray] | None:
        """The annotators' leaf vectors summed per instance and their count (``group_category``'s pass),
        kept until the suggestion's weighing of the annotators reads them (the same sums: not a second pass)."""
        return self._get("leaf_sums")

    @leaf_sums.setter
    def leaf_sums(self, value) -> None:
        self.finish()
        self._late["leaf_sums"] = value


def kwic_snippets(corpus: Corpus, width: int = KWIC_WIDTH, left_width: int = KWIC_LEFT) -> np.ndarray:
    """``left [head] right`` around each instance's head word ("" without a context)."""
    out = np.full(corpus.n, "", dtype=object)
    for i, c in corpus.contexts.items():
        text, head = c.text, c.head
        if head is None:
            out[i] = text[: 2 * width].replace("\n", " ")
            continue
        a, b = head
        left = text[max(0, a - left_width):a].replace("\n", " ")
        right = text[b:b + width].replace("\n", " ")
        if a > left_width:
            left = "…" + left.lstrip()
        if len(text) - b > width:
            right = right.rstrip() + "…"
        out[i] = f"{left}[{text[a:b]}]{right}"
    return out


def tag_strings(corpus: Corpus, s: AnnotationSet, n: int) -> np.ndarray:
    """Each instance's tags in set ``s`` as one string ("1.1 2"), heaviest first."""
    ids = np.asarray(node_short_labels(corpus.inventory), dtype=object)  # full keys: tooltip
    out = np.full(n, "", dtype=object)
    counts = s.n_tags()
    single = counts == 1
    out[s.rows[single]] = ids[s.tag_node[s.tag_ptr[:-1][single]]]
    for r in np.flatnonzero(~single).tolist():
        a, b = s.tag_ptr[r], s.tag_ptr[r + 1]
        w = s.tag_weight[a:b]
        tags = ids[s.tag_node[a:b]]
        # heaviest first; the weights themselves are in the detail panel
        out[s.rows[r]] = " ".join(tags[np.argsort(-w, kind="stable")])
    return out


def pair_category(corpus: Corpus, a: int, b: int) -> tuple[np.ndarray, np.ndarray]:
    """Category and leaf agreement of sets ``a`` and ``b`` per instance (-1 / NaN where not both)."""
    sa, sb = corpus.sets[a], corpus.sets[b]
    shared, ia, ib = np.intersect1d(sa.rows, sb.rows, assume_unique=True, return_indices=True)
    cat = np.full(corpus.n, NO_PAIR, dtype=np.int8)
    agr = np.full(corpus.n, np.nan)
    if shared.size:
        same = sa.signature[ia] == sb.signature[ib]
        ag, c = instance_disagreement(sa.leaves[ia], sb.leaves[ib], same)
        cat[shared] = c
        agr[shared] = ag
    return cat, agr


def compute_columns(corpus: Corpus, *, crowd_threshold: int = 8,
                    progress: Callable[[int, int, str], None] | None = None, late: bool = False) -> Columns:
    """All columns of the instance table (see :class:`Columns`); ``progress(done, total, what)``
    hears each part (the bar of one step: see :mod:`hieradjudicate.app.progress`).  ``late``: a crowd's
    late columns are left to :meth:`Columns.finish` (the window's background job)."""
    tell = progress or (lambda _done, _total, _what: None)
    n = corpus.n
    # the annotator sets only: a system is never counted as an annotator (#13), so with fewer
    # than two of them every instance is "fewer than two annotators"
    annotators = annotator_sets(corpus)
    crowd = len(annotators) > crowd_threshold
    tell(0, 4, "each set's answers")
    set_tags = [] if crowd else [tag_strings(corpus, s, n) for s in corpus.sets]
    set_pos = [s.position(np.arange(n)) for s in corpus.sets] if not crowd else []
    tell(1, 4, "context snippets")
    cols = Columns(lexelt=corpus.inst_lexelt.astype(np.int64), lexelt_names=list(corpus.inventory.lexelts),
                   inst_id=np.asarray(corpus.inst_id, dtype=object), kwic=kwic_snippets(corpus),
                   set_tags=set_tags, set_pos=set_pos, annotators=annotators, corpus=corpus, crowd_mode=crowd)
    if not (late and crowd and len(annotators) >= 2):  # (with fewer, the basis may be a reference gold)
        # told after each set (MASC: 228 sets, 1.4 s in one block at 50 % before), over slots 2 to 4
        cols.finish(lambda done, total, what: tell(total + 2 * done, 4 * total, what))
    return cols


def reference_category(corpus: Corpus, annotators: list[int], category: np.ndarray) -> tuple[np.ndarray, str]:
    """The worst category of each set against each reference gold (a set with role gold given as
    input): a system's answer that differs from the reference colours its row.  ``category`` (no
    annotator pair) is returned as it is when the project has no reference gold or nothing to compare."""
    golds = [k for k, s in enumerate(corpus.sets) if s.role == "gold"]
    others = [k for k, s in enumerate(corpus.sets) if s.role == "system"] + annotators
    if not golds or not others:
        return category, "worst pair of annotators"
    worst = category.copy()
    for g in golds:
        for k in others:
            cat, _ = pair_category(corpus, g, k)
            np.maximum(worst, cat, out=worst)
    names = ", ".join(corpus.sets[k].name for k in others[:4]) + (" …" if len(others) > 4 else "")
    gold_names = ", ".join(corpus.sets[g].name for g in golds)
    return worst, f"worst of {names} against the reference gold {gold_names}"


def group_category(corpus: Corpus, raters: list[int], progress: Callable[[int], None] | None = None,
                   sums: list[np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Worst pairwise category and mean pairwise leaf agreement over the raters of each instance.

    The mean pairwise agreement is Fleiss' ``P_i``:
    ``(|sum_r p_r|^2 - sum_r |p_r|^2) / (m (m - 1))``.  The worst category over
    pairs is computed from the supports: with ``U`` the union and ``I`` the
    intersection of all supports, some pair is disjoint iff two supports do not
    meet; for few raters the pairs are enumerated, for a crowd a leaf count is used.
    ``sums``: a list that receives the raters' leaf vectors summed per instance (``(n, K)``).
    """
    n = corpus.n
    if not raters:
        return np.full(n, NO_PAIR, np.int8), np.full(n, np.nan), np.zeros(n, np.int64)
    crowd = len(raters) > 12
    s = sq = None
    m = np.zeros(n, np.int64)
    regions = []
    for x, k in enumerate(raters):  # one set's leaf vectors at a time (the sets keep none: see leaves_once)
        st = corpus.sets[k]
        L = st.leaves_once()
        if s is None:
            s, sq = np.zeros((n, L.shape[1])), np.zeros(n)
        s[st.rows] += L
        sq[st.rows] += np.einsum("ik,ik->i", L, L)
        m[st.rows] += 1
        if crowd:  # each answer's support as 8 leaves a byte (MASC: 3 bytes an answer, not 17 booleans)
            regions.append(np.packbits(L > 0, axis=1, bitorder="little"))
        del L
        if progress is not None:  # ``progress(x)``: set x of ``raters`` is added
            progress(x)
    if sums is not None and s is not None:
        sums.append(s)
    pairs = m * (m - 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        agreement = np.where(pairs > 0, (np.einsum("ik,ik->i", s, s) - sq) / np.maximum(pairs, 1), np.nan)
    worst = np.full(n, NO_PAIR, np.int8)
    if len(raters) <= 12:
        for x, a in enumerate(raters):
            for b in raters[x + 1:]:
                cat, _ = pair_category(corpus, a, b)
                np.maximum(worst, cat, out=worst)
    else:  # crowd: the pairs of each instance's distinct answers (exact, no loop over rater pairs)
        worst = _crowd_worst(corpus, raters, regions, s.shape[1] if s is not None else 0, n)
    return worst, agreement, m


def _crowd_worst(corpus: Corpus, raters: list[int], packed: list[np.ndarray], K: int, n: int) -> np.ndarray:
    """:func:`worst_category` of a crowd's answers, given each set's supports packed 8 leaves a byte.

    Only each instance's distinct answers (instance, signature) are unpacked and compared: the same
    rows ``worst_category`` keeps (the first of each in the same stable sort), so the same result, but
    without the crowd's ``(R, K)`` supports (MASC: 1.08 M answers, 174,000 distinct).  An instance
    whose two or more answers are all identical keeps the category ``worst_category`` gives it
    (identical), which the distinct answers alone would not show.
    """
    sets = [corpus.sets[k] for k in raters]
    inst = np.concatenate([st.rows for st in sets])
    sig = np.concatenate([st.signature for st in sets])
    m = np.bincount(inst, minlength=n)
    order = np.lexsort((sig, inst))
    i_s = inst[order]
    del inst
    g_s = sig[order]
    del sig
    first = np.ones(len(order), bool)
    first[1:] = (i_s[1:] != i_s[:-1]) | (g_s[1:] != g_s[:-1])
    rows = order[first]
    d_inst, d_sig = i_s[first], g_s[first]
    del order, i_s, g_s, first
    support = np.unpackbits(np.concatenate(packed)[rows], axis=1, count=K, bitorder="little").view(bool)
    packed.clear()
    worst = worst_category(d_inst, d_sig, support, n)
    worst[(m >= 2) & (worst < IDENTICAL)] = IDENTICAL
    return worst


def crowd_summaries(corpus: Corpus, raters: list[int]) -> np.ndarray:
    """Each instance's answers as ``"tag ×n, tag ×m"`` sorted by support (crowd mode)."""
    ids = node_short_labels(corpus.inventory)
    # each tag's (instance, node) as one key, in 32 bits where they fit (MASC: 44,682 x 612), and
    # nothing of the tags' long form held while the strings are made (MASC: 33 MiB less at the peak)
    dtype = np.int32 if corpus.n * (len(ids) + 1) < 2**31 else np.int64
    keys = [np.repeat(corpus.sets[k].rows.astype(dtype), corpus.sets[k].n_tags()) * dtype(len(ids) + 1)
            + corpus.sets[k].tag_node.astype(dtype) for k in raters]
    out = np.full(corpus.n, "", dtype=object)
    if not keys:
        return out
    key = np.concatenate(keys)
    del keys
    uk, cnt = np.unique(key, return_counts=True)
    del key
    uk = uk.astype(np.int64)
    ui, un = uk // (len(ids) + 1), uk % (len(ids) + 1)
    order = np.lexsort((-cnt, ui))
    ui, un, cnt = ui[order], un[order], cnt[order]
    starts = np.r_[0, np.flatnonzero(np.diff(ui)) + 1]
    parts = [f"{ids[t]} ×{c}" for t, c in zip(un.tolist(), cnt.tolist())]
    # one join and one split in C instead of a join per instance (MASC: 0.8 s -> a fifth): the
    # instances' parts are joined by ", " and the instances by a character no label holds
    cut = next((c for c in "\x1e\x1f\x1d\x1c" if not any(c in t for t in ids)), None)
    if cut is None:  # (a label holding all four separators: one join per instance)
        for a, b in zip(starts.tolist(), np.r_[starts[1:], len(parts)].tolist()):
            out[ui[a]] = ", ".join(parts[a:b])
        return out
    woven = np.full(2 * len(parts), ", ", dtype=object)
    woven[0::2] = parts
    woven[2 * starts[1:] - 1] = cut  # after an instance's last part
    woven[-1] = ""
    out[ui[starts]] = "".join(woven.tolist()).split(cut)
    return out
