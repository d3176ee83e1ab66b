"""The competence estimates' working memory on a crowd's one-leaf labels, and MACE's progress.

A window runs Dawid & Skene or MACE in the background beside everything it holds, so the
estimate's own arrays are its peak: the million-label columns of their setup (keys, sort
permutations, identity and ones columns) must be freed once used, not held through every
iteration.  Measured by tracemalloc (numpy reports its arrays to it) in label columns of 8 bytes:
deterministic, no time involved.  The figures these paths give are checked to the bit against
the dense paths in tests/core/test_memory_compact.py.
"""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from hieradjudicate.core.crowd.competence import dawid_skene
from hieradjudicate.core.crowd.mace import mace
from tests.crowd import labelled_crowd


def _layout_ordered_crowd(n: int = 20_000, workers: int = 40, X: int = 20, K: int = 8, seed: int = 0):
    """Workers of different reliability labelling instances of X lexelts, rows in a layout's order
    (lexelt, instance, rater) as the window passes them."""
    inst, rater, label, lex, n_leaves, _ = labelled_crowd(seed, n, workers, X, K, lexelts_in_order=True)
    order = np.lexsort((rater, inst, lex[inst]))
    return inst[order], rater[order], label[order], lex, n_leaves, K


def _peak_in_label_columns(fit, *args, **kwargs) -> float:
    """The traced peak of one call, in columns of 8 bytes per label."""
    tracemalloc.start()
    try:
        fit(*args, **kwargs)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return peak / (8 * len(args[0]))


@pytest.mark.parametrize(("fit", "most"), [(dawid_skene, 5.0), (mace, 10.0)])
def test_an_estimate_from_one_leaf_labels_holds_a_few_label_columns_at_most(fit, most: float) -> None:
    """Before the setup freed its columns: Dawid & Skene peaked at 9.2 columns, MACE at 19.6."""
    inst, rater, label, lex, n_leaves, K = _layout_ordered_crowd()
    assert len(inst) > 100_000  # the label columns, not the per-instance tables, make the peak
    columns = _peak_in_label_columns(fit, inst, rater, None, lex, n_leaves, leaf=label, K=K, max_iter=20)
    assert columns <= most


def test_mace_says_each_iteration_and_stops_when_its_progress_raises() -> None:
    inst, rater, label, lex, n_leaves, K = _layout_ordered_crowd(n=2_000)
    heard: list[tuple[int, int]] = []
    res = mace(inst, rater, None, lex, n_leaves, leaf=label, K=K, max_iter=30,
               progress=lambda k, n: heard.append((k, n)))
    assert heard == [(k, 30) for k in range(res.iterations + 1)]

    class Superseded(Exception):
        pass

    def stop(k: int, n: int) -> None:
        raise Superseded

    with pytest.raises(Superseded):  # before the labels are arranged: a superseded estimate costs nothing more
        mace(inst, rater, None, lex, n_leaves, leaf=label, K=K, progress=stop)


def test_dawid_skene_without_its_confusion_matrices_gives_the_same_figures_and_never_holds_them() -> None:
    """The window reads no confusion matrix (``errors=False``): the padded ``(W, X, K, K)`` blocks are not
    made (MASC: 22.6 MiB, filled as the lexelts converge, held to the estimate's end)."""
    W, X, K = 200, 30, 8  # many workers over many lexelts, few labels each: the blocks outweigh the labels
    inst, rater, label, lex, n_leaves, _ = labelled_crowd(1, 3_000, W, X, K, share=0.02, lexelts_in_order=True)
    order = np.lexsort((rater, inst, lex[inst]))
    inst, rater, label = inst[order], rater[order], label[order]
    kept = dawid_skene(inst, rater, None, lex, n_leaves, leaf=label, K=K, max_iter=40)
    lean = dawid_skene(inst, rater, None, lex, n_leaves, leaf=label, K=K, max_iter=40, errors=False)
    assert kept.errors.shape == (W, X, K, K) and lean.errors is None
    for f in ("workers", "accuracy", "stderr", "n_labels", "tasks", "posterior", "entropy", "priors"):
        np.testing.assert_array_equal(getattr(lean, f), getattr(kept, f), err_msg=f)
    assert (lean.iterations, lean.converged, lean.elbo) == (kept.iterations, kept.converged, kept.elbo)
    blocks = W * X * K * K * 8
    with_them = _peak_in_label_columns(dawid_skene, inst, rater, None, lex, n_leaves, leaf=label, K=K, max_iter=40)
    without = _peak_in_label_columns(dawid_skene, inst, rater, None, lex, n_leaves, leaf=label, K=K, max_iter=40,
                                     errors=False)
    assert (with_them - without) * 8 * len(inst) >= 0.9 * blocks
