"""Sets that are not one leaf per row everywhere (a gold key with a few rows of two senses, tags on
inner nodes) beside one-tag sets: their layout holds each row's nonzero leaf entries, never the
dense ``(rows, widest lexelt's leaves)`` array, and every agreement figure and interval read from it
is the dense layout's to the last bit.

The corpus has many lexelts of different widths (1 to 12 leaves, the widest set by one of them),
lexelts of fewer than 10 instances (resampled whole, as one stratum) beside larger ones (resampled
alone), two sets of one leaf tag per row and one set with soft rows (two tags of weight 1/2, a tag on
an inner node spread over its leaves), and instances that not every set answered.
"""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from hieradjudicate.core.agreement import layout_sparse
from hieradjudicate.core.agreement.bootstrap import bootstrap_figures
from hieradjudicate.core.agreement.layout import layout_from_blocks
from hieradjudicate.core.agreement.layout_sparse import SparseLayout
from hieradjudicate.core.dashboard import all_figures
from hieradjudicate.core.model import Corpus, CorpusBuilder
from hieradjudicate.core.records import InventorySource, SenseRecord
from tests.core.helpers import annotation_source

WIDEST = 12


def _senses(x: int) -> tuple[list[tuple[str, str | None]], list[str]]:
    """Lexelt ``x``'s tree (an inner node over two leaves when it has 3 or more) and its leaves."""
    width = WIDEST if x == 0 else 1 + x % 6
    leaves = [f"l{x}.{k}" for k in range(width)]
    senses = [(s, None) for s in leaves]
    if width >= 3:
        senses = [(f"n{x}", None), (leaves[0], f"n{x}"), (leaves[1], f"n{x}")] + senses[2:]
    return senses, leaves


def _mixed(lexelts: int = 40, seed: int = 11) -> Corpus:
    rng = np.random.default_rng(seed)
    recs, rows, line = [], [], 0
    for x in range(lexelts):
        lex = f"w{x}.n"
        senses, leaves = _senses(x)
        for s, p in senses:
            line += 1
            recs.append(SenseRecord(lex, s, p, line=line, file="inv.txt"))
        size = int(rng.integers(1, 6)) if x % 3 else int(rng.integers(10, 25))
        for i in range(size):
            true = leaves[int(rng.integers(len(leaves)))]
            for name in ("one", "two", "soft"):
                if name != "one" and rng.random() < 0.15:
                    continue  # not every set answers every instance
                tag = true if rng.random() < 0.6 else leaves[int(rng.integers(len(leaves)))]
                answer = [(tag, None)]
                if name == "soft" and rng.random() < 0.3:
                    other = leaves[int(rng.integers(len(leaves)))]
                    answer = [(tag, 0.5), (other, 0.5)] if other != tag else [(f"n{x}", None)] \
                        if len(leaves) >= 3 else answer
                rows.append((lex, f"i{x}.{i}", name, answer))
    b = CorpusBuilder()
    b.add_inventory(InventorySource("inv.txt", "test", recs))
    b.add_annotations(annotation_source(rows))
    return b.build()


def _dense(corpus: Corpus, sets: list[int]):
    """The dense layout of the same sets (each set's (rows, K) leaf vectors, placed by sorting)."""
    lay = layout_from_blocks([corpus.sets[k].rows for k in sets], [corpus.sets[k].leaves for k in sets],
                             corpus.inst_lexelt, n_lexelts=len(corpus.inventory.lexelts))
    assert lay.P.shape == (lay.R, corpus.inventory.K) and type(lay).__name__ == "Layout"
    return lay


def _figures(lay, corpus: Corpus, method: str) -> list[np.ndarray]:
    """Every number the point figures and the intervals give, as arrays."""
    X = len(corpus.inventory.lexelts)
    f = all_figures(lay.inst, lay.rater, None, corpus.inst_lexelt, n_raters=3, n_lexelts=X, layout=lay,
                    coincidences=False)
    pm, multi, al = f.pairwise, f.multi, f.alpha
    out = [np.ma.getdata(a) for a in (pm.observed, pm.expected_scott, pm.expected_cohen, pm.kappa_scott,
                                      pm.kappa_cohen, pm.macro_scott, pm.macro_cohen)]
    est = [multi.fleiss.kappa.value, multi.conger.kappa.value, multi.fleiss_gwet.kappa.value,
           multi.fleiss.expected, multi.conger.expected, al.alpha.value, al.observed_disagreement,
           al.expected_disagreement, al.n_pairable, multi.macro_fleiss.value, al.macro_alpha.value]
    est += [a.kappa.value for a in multi.lexelt_fleiss] + [e.value for e in al.lexelt_alpha]
    out.append(np.array([np.nan if v is None else v for v in est], dtype=np.float64))
    bf = bootstrap_figures(lay.inst, lay.rater, None, corpus.inst_lexelt, pairs=[(0, 1), (0, 2), (1, 2)],
                           n_lexelts=X, n_resamples=120, seed=5, method=method, layout=lay)
    cis = [bf.fleiss, bf.alpha] + [ci for key in sorted(bf.pairs) for ci in bf.pairs[key]]
    out.append(np.array([np.nan if v is None else v for ci in cis for v in (ci.low, ci.high, ci.bias)]))
    out += [np.ma.getdata(ci.replicates) for ci in cis]
    return out


def _same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    a, b = np.ascontiguousarray(a, np.float64), np.ascontiguousarray(b, np.float64)
    return a.shape == b.shape and a.tobytes() == b.tobytes()


@pytest.mark.parametrize("method", ["bca", "percentile"])
def test_the_figures_of_a_sparse_layout_are_the_dense_layouts_to_the_bit(method, monkeypatch) -> None:
    corpus = _mixed()
    sets = [0, 1, 2]
    lay = corpus.layout(sets)
    assert isinstance(lay, SparseLayout) and lay.onehot_leaf is None  # soft rows: not one leaf per row
    want = _figures(_dense(_mixed(), sets), corpus, method)
    made = SparseLayout.P.fget

    def refuse_p(self):
        if self.__dict__.get("_P") is None:
            raise AssertionError("a figure made the sparse layout's dense P")
        return made(self)

    monkeypatch.setattr(SparseLayout, "P", property(refuse_p, SparseLayout.P.fset))
    got = _figures(lay, corpus, method)
    monkeypatch.undo()
    assert len(got) == len(want)
    for k, (g, w) in enumerate(zip(got, want, strict=True)):
        assert _same_bits(g, w), (method, k, g, w)
    assert np.isfinite(got[7][:6]).all()  # Fleiss' and alpha's intervals and biases exist
    # and a selection's layout (a take) is sparse, its rows the dense selection's
    rows = np.flatnonzero(lay.inst % 3 != 0)
    part = lay.take(rows)
    assert isinstance(part, SparseLayout)
    np.testing.assert_array_equal(part.rows_P(0, part.R), _dense(_mixed(), sets).P[rows])


def _peak(fn) -> int:
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_sparse_layout_holds_no_rows_by_leaves_array(monkeypatch) -> None:
    """What the layout of the mixed sets holds, and what making it and its figures' sums takes:
    nothing of the size of the dense ``(rows, K)`` array; the dense path (each set's leaf vectors,
    then the layout's) takes more than that array again.  The dense rows a whole-layout sum makes
    at once are a chunk (32,768 rows: 1/6 of all-words data at 100,000 instances), here 512 rows of
    some 9,000."""
    monkeypatch.setattr(layout_sparse, "_ROWS", 512)
    corpus = _mixed(lexelts=400, seed=3)
    sums = {}

    def sparse():
        lay = sums["sparse"] = corpus.layout([0, 1, 2])
        _ = lay.seg_sum, lay.row_sq, lay.pairable().seg_sum

    def dense():
        lay = sums["dense"] = _dense(corpus, [0, 1, 2])
        _ = lay.seg_sum, lay.row_sq, lay.pairable().seg_sum

    for s in corpus.sets:
        s.leaves = None  # as loaded: no set's leaf vectors are held
    sparse_peak = _peak(sparse)
    lay = sums["sparse"]
    held = [v for v in vars(lay).values() if isinstance(v, np.ndarray)]
    assert all(v.ndim == 1 or v.shape[0] != lay.R for v in held)  # no array of a row each by leaves
    assert vars(lay).get("_P") is None and all(s._leaves is None for s in corpus.sets)
    dense_peak = _peak(dense)
    size = lay.R * lay.n_leaves * 8
    assert sums["dense"].P.nbytes == size
    assert sparse_peak + size < dense_peak, (sparse_peak, size, dense_peak)
