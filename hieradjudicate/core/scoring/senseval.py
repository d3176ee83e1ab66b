"""The Senseval ``scorer2`` policies ``fine``, ``coarse`` and ``mixed``.

Reproduces the official Senseval-2/3 scorer (``scorer2``, S. Cotton) as
described in ``scorer2.md``, with the sense map read as a byte-sorted map
would be (its binary-search defect on unsorted maps is not copied) and with
float64 sums.

Per instance, with answer tags ``a`` of weight ``w_a`` and key tags ``K``:

* weights: an unweighted line gives every tag 1; weights are divided by
  their sum only when it exceeds 1; ``attempted = min(1, sum w)``;
* ``fine``: ``credit(a) = 1 if a in K``;
* ``coarse``: as fine after replacing every tag by its top ancestor;
* ``mixed``: ``credit(a) = min(1, sum over k in K of c(a, k))`` with
  ``c = 1`` if ``a == k`` or ``k`` is an ancestor of ``a``,
  ``c = 1 / (b1 * b2 * ...)`` (branching factors along the path) if ``a``
  is an ancestor of ``k``, else 0;
* ``score = min(1, sum over a of w_a * credit(a))``.

Merging duplicate tags (coarse mode) changes no sum, so the code does not
merge: ``sum w * credit`` is the same either way.

All work is on factorised codes: credits are computed once per distinct
(answer tag, key tag) pair and gathered with numpy, so the cost per
instance is a few array operations.

References
----------
Senseval ``scorer2`` documentation; Melamed & Resnik, "Proposal for
Senseval scoring scheme"; ``scorer2.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from hieradjudicate.core.arrays import sorted_unique
from hieradjudicate.core.errors import InventoryError, Problem
from hieradjudicate.core.records import AnnotationSource, SenseRecord
from hieradjudicate.core.scoring.figures import Figures, GroupedFigures, corpus_figures  # not scoring.py: the leaf policy is not needed here

POLICIES = ("fine", "coarse", "mixed")
MAX_EXAMPLES = 20
#: How an unweighted answer of several tags scores (printed under ``score``'s table and the dashboard's)
SPLIT_CREDIT = ("An answer with several tags and no weights splits its one point among them (each tag "
                "weighs 1/n, and only the matching ones score): two tags, one of them right, earn 0.5 -- the "
                "rule of scorer2 and of the WSD evaluation framework's scorer (Raganato et al. 2017)")


class SenseMap:
    """A Senseval sense map as a tree: ``parent`` and ``branching`` by sense id.

    ``branching[p]`` is the branching factor of ``p`` as a parent (``b1`` on
    the line of a child of ``p``).  Lookups are by dict, so the order of the
    file's lines does not matter.  (A plain class, not a dataclass: ``score`` imports it at every
    start, and a dataclass costs about a millisecond to make.)
    """

    def __init__(self, parent: dict[str, str] | None = None, branching: dict[str, int] | None = None,
                 lexelt_children: dict[tuple[str, str], int] | None = None) -> None:
        self.parent: dict[str, str] = {} if parent is None else parent
        self.branching: dict[str, int] = {} if branching is None else branching
        #: children listed under a parent within one lexelt, ``{(lexelt, parent): n}``, where the records say
        #: their lexelt and the count differs from the map-wide one: an outline or tree inventory reuses
        #: local ids ("1", "1.1") in every lexelt, and bank.n's "1" must not count run.v's "1.3"
        self.lexelt_children: dict[tuple[str, str], int] = {} if lexelt_children is None else lexelt_children
        self._anc: dict[tuple[str, str | None], tuple[tuple[str, int], ...]] = {}
        self._n_children: dict[str, int] = {}
        for p in self.parent.values():
            self._n_children[p] = self._n_children.get(p, 0) + 1

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.parent, self.branching, self.lexelt_children) == (other.parent, other.branching,
                                                                       other.lexelt_children)

    __hash__ = None  # type: ignore[assignment]  # mutable, compared by value

    def __repr__(self) -> str:
        return (f"SenseMap(parent={self.parent!r}, branching={self.branching!r}, "
                f"lexelt_children={self.lexelt_children!r})")

    @classmethod
    def from_records(cls, records: Iterable[SenseRecord]) -> SenseMap:
        """Merge sense-map records (the same sense may appear in many).

        A record with ``parent=None`` says nothing about the parent (the last
        id of a sense-map line).  Two different parents, or two different
        branching factors, for one sense raise :class:`InventoryError`.
        """
        parent: dict[str, str] = {}
        branching: dict[str, int] = {}
        where: dict[tuple[str, str], SenseRecord] = {}
        problems: list[Problem] = []
        local: dict[tuple[str, str], set[str]] = {}  # (lexelt, parent) -> its children in that lexelt
        for r in records:
            if r.lexelt is not None and r.parent is not None:
                local.setdefault((r.lexelt, r.parent), set()).add(r.sense)
            for kind, value, table in (("parent", r.parent, parent), ("branching", r.branching, branching)):
                if value is None:
                    continue
                prev = table.get(r.sense)
                if prev is None:
                    table[r.sense] = value  # type: ignore[assignment]
                    where[(kind, r.sense)] = r
                elif prev != value:
                    first = where[(kind, r.sense)]
                    problems.append(Problem(r.file, r.line, f"sense {r.sense!r} has {kind} {value!r} "
                                            f"here but {prev!r} at line {first.line}; expected one"))
        if problems:
            raise InventoryError(problems)
        smap = cls(parent, branching)
        smap.lexelt_children = {k: len(v) for k, v in local.items() if len(v) != smap._n_children.get(k[1], 0)}
        for s in parent:
            smap.ancestors(s)  # detects cycles now rather than while scoring
        return smap

    def ancestors(self, sense: str, lexelt: str | None = None) -> tuple[tuple[str, int], ...]:
        """``((ancestor, b1*...*bj), ...)`` from the parent up to the top.

        A parent without a stated branching factor counts its listed children (those of
        ``lexelt`` when the map knows them per lexelt, see ``lexelt_children``).
        """
        if lexelt is not None and not self.lexelt_children:
            lexelt = None
        got = self._anc.get((sense, lexelt))
        if got is not None:
            return got
        out: list[tuple[str, int]] = []
        prod = 1
        node = sense
        seen = {sense}
        while node in self.parent:
            node = self.parent[node]
            if node in seen:
                raise InventoryError(f"cycle in the sense map through {node!r}; expected a tree")
            seen.add(node)
            prod *= (self.branching.get(node) or self.lexelt_children.get((lexelt, node))  # type: ignore[arg-type]
                     or self._n_children.get(node, 1))
            out.append((node, prod))
        res = tuple(out)
        self._anc[(sense, lexelt)] = res
        return res

    def top(self, sense: str) -> str:
        """Top ancestor of ``sense`` (itself when it has no parent or no line)."""
        anc = self.ancestors(sense)
        return anc[-1][0] if anc else sense

    def mixed_credit(self, answer: str, key: str, lexelt: str | None = None) -> float:
        """``c(answer, key)`` of the mixed policy (see the module docstring).

        Examples
        --------
        >>> m = SenseMap({"2.1": "2", "1.1": "1"}, {"2": 5, "1": 2})
        >>> m.mixed_credit("2", "2.1"), m.mixed_credit("1.1", "1"), m.mixed_credit("1", "2.1")
        (0.2, 1.0, 0.0)
        """
        if answer == key:
            return 1.0
        for anc, prod in self.ancestors(key, lexelt):
            if anc == answer:
                return 1.0 / prod
        for anc, _ in self.ancestors(answer):
            if anc == key:
                return 1.0
        return 0.0


class _Frozen:
    """A read-only record of named fields, set once by ``__init__`` (a dataclass costs 1-3 ms to
    make when its module is imported, at every start of ``score``)."""

    __slots__ = ()

    def _set(self, **values) -> None:
        for k, v in values.items():
            object.__setattr__(self, k, v)

    def __setattr__(self, name, value):
        raise AttributeError(f"cannot assign to field {name!r}: {type(self).__name__} is read-only")

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={getattr(self, k)!r}' for k in self.__slots__)})"


class SensevalScore(_Frozen):
    """Result of :func:`score_senseval`.

    Per-instance arrays cover the key instances in the evaluation (after
    minimal filtering), in key order: ``instance_item`` indexes the key's
    ``item_lexelt``/``item_instance``; ``instance_score`` is NaN where no
    answer was given; ``instance_lexelt`` indexes ``lexelts``.
    """

    __slots__ = ("policy", "minimal", "figures", "instance_item", "instance_score", "instance_attempted",
                 "instance_lexelt", "lexelts", "excluded_multi_tag", "unknown_answers", "unknown_examples")
    policy: str
    minimal: bool
    figures: GroupedFigures
    instance_item: np.ndarray
    instance_score: np.ndarray
    instance_attempted: np.ndarray
    instance_lexelt: np.ndarray
    lexelts: list[str]
    excluded_multi_tag: int
    unknown_answers: int
    unknown_examples: list[tuple[str, str]]

    def __init__(self, policy: str, minimal: bool, figures: GroupedFigures, instance_item: np.ndarray,
                 instance_score: np.ndarray, instance_attempted: np.ndarray, instance_lexelt: np.ndarray,
                 lexelts: list[str], excluded_multi_tag: int, unknown_answers: int,
                 unknown_examples: list[tuple[str, str]]) -> None:
        self._set(policy=policy, minimal=minimal, figures=figures, instance_item=instance_item,
                  instance_score=instance_score, instance_attempted=instance_attempted,
                  instance_lexelt=instance_lexelt, lexelts=lexelts, excluded_multi_tag=excluded_multi_tag,
                  unknown_answers=unknown_answers, unknown_examples=unknown_examples)

    @property
    def overall(self) -> Figures:
        return self.figures.overall

    precision = property(lambda self: self.figures.overall.precision)
    recall = property(lambda self: self.figures.overall.recall)
    coverage = property(lambda self: self.figures.overall.coverage)
    f1 = property(lambda self: self.figures.overall.f1)
    score_sum = property(lambda self: self.figures.overall.score_sum)
    attempted = property(lambda self: self.figures.overall.attempted)
    total = property(lambda self: self.figures.overall.total)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready figures (undefined figures are ``None`` with a reason)."""
        return {
            "policy": self.policy,
            "minimal": self.minimal,
            **self.figures.overall.as_dict(),
            "excluded_multi_tag": self.excluded_multi_tag,
            "unknown_answers": self.unknown_answers,
            "unknown_examples": [list(x) for x in self.unknown_examples],
            "by_lexelt": {k: v.as_dict() for k, v in self.figures.by_lexelt.items()},
            "by_pos": {k: v.as_dict() for k, v in self.figures.by_pos.items()},
        }


def _select(src: AnnotationSource, which: str | int | None, role: str) -> np.ndarray | slice:
    if which is None:
        if len(src.set_names) > 1:
            raise ValueError(f"{role} file {src.path} holds {len(src.set_names)} annotation sets "
                             f"({', '.join(src.set_names[:5])}...); choose one")
        return slice(None)
    idx = which if isinstance(which, int) else src.set_names.index(which) if which in src.set_names else -1
    if not 0 <= idx < len(src.set_names):
        raise ValueError(f"{role} set {which!r} not in {src.path} (sets: {', '.join(src.set_names)})")
    return np.flatnonzero(src.set == idx)


def _factorize(strings: Sequence[str], table: dict[str, int]) -> np.ndarray:
    """Codes of ``strings`` in ``table`` (extended in place with new strings)."""
    for s in sorted(set(strings) - table.keys()):
        table[s] = len(table)
    return np.fromiter(map(table.__getitem__, strings), dtype=np.int64, count=len(strings))


def _factorize_runs(strings: Sequence[str], table: dict[str, int]) -> np.ndarray:
    """Like :func:`_factorize` but fast when equal strings come in runs (items by lexelt).

    Run boundaries are found by one vectorised comparison of neighbours
    (object arrays compare identical strings by identity), and only the run
    heads are looked up in ``table``.
    """
    n = len(strings)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    arr = np.fromiter(strings, dtype=object, count=n)
    starts = np.flatnonzero(np.concatenate(([True], arr[1:] != arr[:-1])))
    heads = arr[starts].tolist()
    codes = _factorize(heads, table)
    return np.repeat(codes, np.diff(np.append(starts, n)))


def _align(key: AnnotationSource, ans: AnnotationSource, lex_table: dict[str, int]
           ) -> tuple[np.ndarray, np.ndarray]:
    """Key lexelt code per key item, and key item per answer item (-1 = not in key).

    Answers listing the key's items in the key's order (the usual case) are
    aligned by one list comparison; otherwise by a dict on instance ids.
    """
    klex = _factorize_runs(key.item_lexelt, lex_table)
    n_a = len(ans.item_instance)
    if ans.item_instance == key.item_instance and ans.item_lexelt == key.item_lexelt:
        return klex, np.arange(n_a, dtype=np.int64)
    lookup: dict[Any, int] = dict(zip(key.item_instance, range(len(key.item_instance))))
    if len(lookup) == len(key.item_instance):
        get = lookup.get
        kidx = np.fromiter((get(s, -1) for s in ans.item_instance), np.int64, count=n_a)
        alex = _factorize_runs(ans.item_lexelt, dict(lex_table))
        alex[alex >= len(lex_table)] = -1
        kidx[(kidx >= 0) & (klex[kidx] != alex)] = -1
    else:  # instance ids repeat across lexelts: match on both
        lookup = dict(zip(zip(key.item_lexelt, key.item_instance), range(len(key.item_instance))))
        get = lookup.get
        kidx = np.fromiter((get(p, -1) for p in zip(ans.item_lexelt, ans.item_instance)),
                           np.int64, count=n_a)
    return klex, kidx


def score_senseval(
    key: AnnotationSource,
    answers: AnnotationSource,
    *,
    policy: str = "fine",
    sense_map: SenseMap | None = None,
    minimal: bool = False,
    key_set: str | int | None = None,
    answer_set: str | int | None = None,
) -> SensevalScore:
    """Score an answer set against a key exactly as ``scorer2`` does.

    Parameters
    ----------
    key, answers : AnnotationSource
        The gold key and the system's answers (Senseval format or any other).
    policy : {"fine", "coarse", "mixed"}
    sense_map : SenseMap, optional
        Required for ``coarse`` and ``mixed``.
    minimal : bool
        ``scorer2 -m``: leave out instances whose key has more than one
        distinct tag (in coarse mode, after mapping to top ancestors).
    key_set, answer_set : str or int, optional
        Which annotation set of a multi-set source to use.

    Returns
    -------
    SensevalScore
        ``precision = score_sum / attempted``, ``recall = score_sum / total``,
        ``coverage = attempted / total``; per lexelt and per POS as well.

    Examples
    --------
    >>> from hieradjudicate.core.records import AnnotationSource
    >>> def src(rows):
    ...     tags = sorted({t for _, t, _ in rows})
    ...     return AnnotationSource("-", "senseval", ["s"], ["a.n"] * 2, ["1", "2"], tags,
    ...         np.array([i for i, _, _ in rows]), np.zeros(len(rows), int),
    ...         np.array([tags.index(t) for _, t, _ in rows]),
    ...         np.array([w for *_, w in rows], float), np.arange(len(rows)))
    >>> r = score_senseval(src([(0, "x", np.nan), (1, "y", np.nan)]),
    ...                    src([(0, "x", 0.6), (0, "y", 0.4)]))
    >>> round(r.precision, 3), round(r.recall, 3)
    (0.6, 0.3)
    """
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; expected one of {', '.join(POLICIES)}")
    if policy != "fine" and sense_map is None:
        raise ValueError(f"the {policy} policy needs a sense map")
    ksel = _select(key, key_set, "key")
    asel = _select(answers, answer_set, "answer")
    lex_table: dict[str, int] = {}
    klex, kidx = _align(key, answers, lex_table)
    return score_columns(
        Labels(key.item[ksel], key.tag[ksel], None, key.tags, len(key.item_instance)),
        Labels(answers.item[asel], answers.tag[asel], answers.weight[asel], answers.tags,
               len(answers.item_instance)),
        klex, kidx, sorted(lex_table, key=lex_table.__getitem__),
        policy=policy, sense_map=sense_map, minimal=minimal, answers_path=answers.path,
        example=lambda i: (answers.item_lexelt[i], answers.item_instance[i]))


class Labels(_Frozen):
    """One set's labels for :func:`score_columns`: ``item``, ``tag`` (codes into ``tags``) and
    ``weight`` (NaN = none; unused for a key) per label, and the number of items."""

    __slots__ = ("item", "tag", "weight", "tags", "n_items")
    item: np.ndarray
    tag: np.ndarray
    weight: np.ndarray | None
    tags: Sequence[str]
    n_items: int

    def __init__(self, item: np.ndarray, tag: np.ndarray, weight: np.ndarray | None, tags: Sequence[str],
                 n_items: int) -> None:
        self._set(item=item, tag=tag, weight=weight, tags=tags, n_items=n_items)


def score_columns(
    key: Labels,
    answers: Labels,
    klex: np.ndarray,
    kidx: np.ndarray,
    lexelts: list[str],
    *,
    policy: str,
    sense_map: SenseMap | None,
    minimal: bool,
    answers_path: str,
    example: Callable[[int], tuple[str, str]],
) -> SensevalScore:
    """:func:`score_senseval` once the answers are aligned to the key: ``klex`` is the
    lexelt code (into ``lexelts``) of each key item, ``kidx`` the key item of each answer
    item (-1: not in the key); ``example(i)`` names answer item ``i`` (lexelt, instance)."""
    k_item, k_tag = key.item, key.tag
    a_item, a_tag, a_w = answers.item, answers.tag, answers.weight
    n_k, n_a = key.n_items, answers.n_items
    if np.any(a_w < 0):
        raise ValueError(f"negative weight in {answers_path}; expected weights >= 0")

    # Tags to codes in one universe (fine) or to top-ancestor codes (coarse).
    universe: dict[str, int] = {}
    if policy == "coarse":
        assert sense_map is not None
        ktc = _factorize([sense_map.top(t) for t in key.tags], universe)
        atc = _factorize([sense_map.top(t) for t in answers.tags], universe)
    else:
        ktc = _factorize(key.tags, universe)
        atc = _factorize(answers.tags, universe)

    k_cnt = np.bincount(k_item, minlength=n_k)
    in_key = k_cnt > 0
    evaluated = in_key.copy()
    excluded = 0
    if minimal:
        multi_rows = np.flatnonzero(k_cnt[k_item] > 1)
        if multi_rows.size:
            pair = sorted_unique(k_item[multi_rows].astype(np.int64) * len(universe) + ktc[k_tag[multi_rows]])
            distinct = np.bincount(pair // len(universe), minlength=n_k)
            evaluated &= distinct <= 1
            excluded = int(np.count_nonzero(distinct > 1))

    # Weights: unweighted line -> 1 each; divide by the sum only when it exceeds 1.
    nan_w = np.isnan(a_w)
    if a_item.size == n_a and (n_a == 0 or int(a_item[0]) == 0 and bool((a_item[1:] > a_item[:-1]).all())):
        # one label a line, in order (the usual answer file): a line's weight is its label's, and
        # w / max(w, 1) is min(w, 1) exactly (w / w is 1); the attempted weight is the same
        has_rows = None
        w = np.ones(n_a) if nan_w.all() else np.where(nan_w, 1.0, a_w)
        np.minimum(w, 1.0, out=w)
        att_item = w
    else:
        has_rows = np.bincount(a_item, minlength=n_a) > 0
        if nan_w.all():  # no weights at all: one each, no temporaries
            w = np.ones(a_w.size)
        else:
            unweighted = np.bincount(a_item, weights=nan_w, minlength=n_a) > 0
            w = np.where(unweighted[a_item], 1.0, a_w)
            del unweighted
        wsum = np.bincount(a_item, weights=w, minlength=n_a)
        norm = np.where(wsum > 1.0, wsum, 1.0)
        w /= norm[a_item]
        att_item = wsum / norm
        del wsum, norm
    del nan_w

    valid_item = kidx >= 0
    if has_rows is not None:
        valid_item &= has_rows
    every_key_item = bool(in_key.all())  # (every key line has a tag: the usual key)
    if not every_key_item:
        valid_item[valid_item] = in_key[kidx[valid_item]]
    unknown = np.flatnonzero(~valid_item if has_rows is None else has_rows & ~valid_item)
    if not (every_key_item and bool(evaluated.all())):
        valid_item[valid_item] = evaluated[kidx[valid_item]]
    one_each = has_rows is None  # label r is answer item r
    del has_rows

    # Cross every valid answer row with its key item's tag rows (key rows of an item are
    # contiguous once ordered by item: a file read line by line needs no reordering), a block
    # of answer rows at a time: each row's credit is its own, so only the key item and the
    # weighted credit of each row are kept, and summed per key item in the rows' order.
    sorted_key = bool((k_item[1:] >= k_item[:-1]).all())
    korder = None if sorted_key else np.argsort(k_item, kind="stable")
    kstart = np.cumsum(k_cnt)
    kstart -= k_cnt
    ki_all, credit = np.empty(a_item.size, dtype=np.int64), np.empty(a_item.size)
    filled = 0
    for lo in range(0, a_item.size, _ROWS):
        r_ok = np.flatnonzero(valid_item[lo: lo + _ROWS] if one_each else valid_item[a_item[lo: lo + _ROWS]])
        r_ok += lo
        ki = kidx[r_ok if one_each else a_item[r_ok]]
        row_credit = _row_credit(r_ok, ki, a_tag, k_tag, k_cnt, kstart, korder, atc, ktc, klex, policy,
                                 sense_map, answers.tags, key.tags, lexelts)
        got = credit[filled: filled + r_ok.size]
        np.multiply(w[r_ok], row_credit, out=got)
        ki_all[filled: filled + r_ok.size] = ki
        filled += r_ok.size
        del r_ok, ki, row_credit, got
    del w, kstart, korder, k_cnt, in_key
    item_score = np.bincount(ki_all[:filled], weights=credit[:filled], minlength=n_k)
    del ki_all, credit
    item_score = item_score.astype(np.float64, copy=False)  # (no rows: bincount gives integers)
    np.minimum(item_score, 1.0, out=item_score)
    answered = np.zeros(n_k, dtype=bool)
    item_att = np.zeros(n_k)
    ok_items = np.flatnonzero(valid_item)
    del valid_item
    k_ok = kidx[ok_items]
    answered[k_ok] = True
    item_att[k_ok] = att_item[ok_items]
    del ok_items, k_ok, att_item

    if bool(evaluated.all()):  # every key item (no --minimal exclusion): the arrays as they are
        eval_items = np.arange(n_k)
        item_score[~answered] = np.nan
        inst_score, inst_att, inst_lex = item_score, item_att, klex
    else:
        eval_items = np.flatnonzero(evaluated)
        inst_score = np.where(answered[eval_items], item_score[eval_items], np.nan)
        inst_att = item_att[eval_items]
        inst_lex = klex[eval_items]
    del answered, evaluated
    grouped = corpus_figures(inst_score, inst_att, inst_lex, lexelts)
    examples = [example(i) for i in unknown[:MAX_EXAMPLES].tolist()]
    return SensevalScore(policy, minimal, grouped, eval_items, inst_score, inst_att, inst_lex,
                         lexelts, excluded, int(unknown.size), examples)


#: answer rows crossed with their key tags at once (the temporaries of a block, not of the file)
_ROWS = 1 << 16


def _row_credit(r_ok, ki, a_tag, k_tag, k_cnt, kstart, korder, atc, ktc, klex, policy, sense_map, atags, ktags,
                lexelts) -> np.ndarray:
    """The credit of answer rows ``r_ok`` (key items ``ki``): the best match (fine, coarse) or the
    capped sum of mixed credits over the key item's tags.  Rows whose key item has one tag (most of
    them) are not crossed: only the others are, and each row's credit is its own either way."""
    c = k_cnt[ki]
    if korder is None and c.size:
        multi = c > 1
        n_multi = int(np.count_nonzero(multi))
        if 0 < n_multi <= c.size // 2:
            out = np.empty(c.size)
            args = (a_tag, k_tag, k_cnt, kstart, korder, atc, ktc, klex, policy, sense_map, atags, ktags, lexelts)
            for rows in (np.flatnonzero(~multi), np.flatnonzero(multi)):
                out[rows] = _crossed_credit(r_ok[rows], ki[rows], c[rows], *args)
            return out
    return _crossed_credit(r_ok, ki, c, a_tag, k_tag, k_cnt, kstart, korder, atc, ktc, klex, policy, sense_map,
                           atags, ktags, lexelts)


def _crossed_credit(r_ok, ki, c, a_tag, k_tag, k_cnt, kstart, korder, atc, ktc, klex, policy, sense_map, atags,
                    ktags, lexelts) -> np.ndarray:
    """:func:`_row_credit` of rows ``r_ok`` with ``c`` key tags each, every row crossed with its key
    item's tags (none crossed when each has one)."""
    if int(c.max(initial=0)) == 1 and korder is None:  # one key tag per answered item: no crossing
        seg = None
        at, kt = a_tag[r_ok], k_tag[kstart[ki]]
    else:
        seg = np.cumsum(c) - c
        rep = np.repeat(np.arange(r_ok.size), c)
        pos = np.arange(int(c.sum())) - np.repeat(seg - kstart[ki], c)
        at = a_tag[r_ok][rep]
        del rep
        kt = k_tag[pos if korder is None else korder[pos]]
        del pos
    if policy == "mixed":
        assert sense_map is not None
        # each row's lexelt, where the map's branching differs per lexelt (rows: answer row x key tags)
        row_lex = np.repeat(klex[ki], c) if sense_map.lexelt_children else None
        pc = _pair_credit(at.astype(np.int64, copy=False), kt, atags, ktags, sense_map, row_lex, lexelts)
        if seg is None:
            return np.minimum(pc, 1.0)
        return np.minimum(np.add.reduceat(pc, seg), 1.0) if seg.size else pc[:0]
    eq = (atc[at] == ktc[kt]).astype(np.float64)
    if seg is None:
        return eq
    return np.maximum.reduceat(eq, seg) if seg.size else eq[:0]


def _pair_credit(at: np.ndarray, kt: np.ndarray, atags: Sequence[str], ktags: Sequence[str],
                 smap: SenseMap, lex: np.ndarray | None = None, lexelts: Sequence[str] = ()) -> np.ndarray:
    """Mixed credit per (answer tag, key tag) row, computed once per distinct pair (per distinct
    (lexelt, pair) when ``lex`` gives each row's lexelt code: a map of per-lexelt branching)."""
    if lex is not None:
        n_at, n_kt = max(len(atags), 1), max(len(ktags), 1)
        code = (lex.astype(np.int64) * n_at + at) * n_kt + kt
        uniq, inv = np.unique(code, return_inverse=True)
        pair, x = uniq % (n_at * n_kt), uniq // (n_at * n_kt)
        vals = np.array([smap.mixed_credit(atags[u // n_kt], ktags[u % n_kt], lexelts[int(xx)])
                         for u, xx in zip(pair.tolist(), x.tolist())], dtype=np.float64)
        return vals[inv.reshape(-1)]
    n_kt = max(len(ktags), 1)
    code = at * n_kt + kt
    cells = len(atags) * n_kt
    if cells <= 1 << 22:
        flag = np.zeros(cells, dtype=bool)
        flag[code] = True
        uniq = np.flatnonzero(flag)
        table = np.zeros(cells)
        table[uniq] = [smap.mixed_credit(atags[u // n_kt], ktags[u % n_kt]) for u in uniq.tolist()]
        return table[code]
    uniq, inv = np.unique(code, return_inverse=True)
    vals = np.array([smap.mixed_credit(atags[u // n_kt], ktags[u % n_kt]) for u in uniq.tolist()])
    return vals[inv.reshape(-1)]
