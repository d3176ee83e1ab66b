"""#23 item 5 (MASC memory): the compact paths give the dense paths' figures to the bit.

Dawid & Skene from each label's leaf instead of the one-hot ``P``, the sets' leaf
vectors made on first use after a reopen from the cache, a few rows' leaf vectors
without the whole set's, and the CLI's competence from leaves: each is compared
with the dense computation it replaces (synthetic crowds, and MASC when
``HIERADJ_REALDATA`` is set).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from hieradjudicate.core.crowd.competence import _unique_inverse, dawid_skene
from hieradjudicate.core.inventory.leaves import leaf_vectors
from tests.crowd import labelled_crowd


def _crowd(seed: int, n: int = 600, workers: int = 30, X: int = 7, K: int = 6):
    """Workers of different reliability labelling instances of X lexelts (hard labels, local leaves)."""
    return (*labelled_crowd(seed, n, workers, X, K)[:5], K)


def _same(a, b) -> None:
    """Every field equal to the bit (NaN where NaN)."""
    for f in ("workers", "accuracy", "stderr", "n_labels", "tasks", "posterior", "entropy", "errors", "priors"):
        x, y = getattr(a, f), getattr(b, f)
        assert x.shape == y.shape and x.dtype == y.dtype, f
        assert np.array_equal(x, y, equal_nan=True), f
    assert (a.iterations, a.converged, a.elbo) == (b.iterations, b.converged, b.elbo)
    assert a.change == b.change or (np.isnan(a.change) and np.isnan(b.change))


@pytest.mark.parametrize("accelerate", [True, False])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_dawid_skene_from_leaves_equals_the_one_hot_p(seed: int, accelerate: bool) -> None:
    inst, rater, label, lex, n_leaves, K = _crowd(seed)
    # rows in layout order (lexelt, instance, rater) as the window passes them, and shuffled
    order = np.lexsort((rater, inst, lex[inst])) if seed != 2 else np.random.default_rng(9).permutation(len(inst))
    inst, rater, label = inst[order], rater[order], label[order]
    P = np.eye(K)[label]
    dense = dawid_skene(inst, rater, P, lex, n_leaves, max_iter=60, accelerate=accelerate)
    compact = dawid_skene(inst, rater, None, lex, n_leaves, max_iter=60, accelerate=accelerate, leaf=label, K=K)
    assert dense.iterations > 5
    _same(dense, compact)


def test_unique_inverse_is_numpys() -> None:
    rng = np.random.default_rng(3)
    for v in (rng.integers(0, 50, 1000), rng.integers(5, 9, 30), np.zeros(0, np.int64), np.array([-3, 4, -3, 7])):
        u, inv = _unique_inverse(v)
        u0, inv0 = np.unique(v, return_inverse=True)
        assert np.array_equal(u, u0) and np.array_equal(inv, inv0.reshape(-1))


def test_leaves_rows_equals_the_whole_sets_rows(tmp_path: Path) -> None:
    """Rows with several weighted tags on inner nodes (the demo's gold and systems) included."""
    from hieradjudicate.app.session.session import Session
    from tests.app.test_session import demo_args

    inv, ann, ctx = demo_args(tmp_path)
    with Session.create(tmp_path / "p.hadj", inv, ann, ctx) as s:
        c = s.corpus
        for st in c.sets:
            full = leaf_vectors(c.inventory, st.tag_ptr, st.tag_node, st.tag_weight)
            r = np.random.default_rng(st.n).permutation(st.n)[: max(st.n // 3, 1)]
            held = st._leaves is not None
            part = st.leaves_rows(r)
            assert (st._leaves is not None) == held  # computing a few rows keeps nothing
            assert np.array_equal(part, full[r])
            assert np.array_equal(st.leaves_rows(np.zeros(0, np.int64)), full[:0])


def test_reopened_from_the_cache_the_sets_make_their_leaves_on_first_use(tmp_path: Path) -> None:
    """Nothing (R, K) is made at open; what is made later equals the builder's, and the layout is the
    one the freshly built corpus gives."""
    from hieradjudicate.app.session.session import Session
    from tests.crowd import crowd_project

    path = crowd_project(tmp_path / "c.hadj", 40)
    with Session.open(path) as s:
        assert s.from_cache
        c = s.corpus
        assert all(st._leaves is None for st in c.sets)
        sets = [k for k, st in enumerate(c.sets) if st.role == "annotator"]
        lay = c.layout(sets)
        assert lay.__dict__.get("_P") is None and lay.onehot_leaf is not None  # no dense P for the layout
        for st in c.sets:
            assert np.array_equal(st.leaves, leaf_vectors(c.inventory, st.tag_ptr, st.tag_node, st.tag_weight))
        inst, rater, P, _ = c.long_form(sets=sets)
        order = np.lexsort((rater, inst, c.inst_lexelt[inst]))
        assert np.array_equal(lay.inst, inst[order]) and np.array_equal(lay.P, P[order])


def test_window_estimate_from_leaves_equals_the_dense_estimate(tmp_path: Path) -> None:
    """The dashboard's estimate (app.dashboard.competence.estimate) takes the layout's leaves: the same
    posteriors, competences and entropies as Dawid & Skene on the layout's dense P."""
    from hieradjudicate.app.dashboard.competence import estimate
    from hieradjudicate.app.session.session import Session
    from tests.crowd import crowd_project

    path = crowd_project(tmp_path / "c.hadj", 30, seed=4)
    with Session.open(path) as s:
        c = s.corpus
        fig = estimate(c, max_iter=80)
        sets = sorted(k for k, st in enumerate(c.sets) if st.role == "annotator")
        lay = c.layout(sets)
        dense = dawid_skene(lay.inst, lay.rater, np.array(lay.P), c.inst_lexelt, c.inventory.n_leaves, max_iter=80)
        comp = np.full(len(sets), np.nan)
        comp[dense.workers] = dense.accuracy
        assert np.array_equal(fig.competence, comp, equal_nan=True)
        ent = np.full(c.n, np.nan)
        ent[dense.tasks] = dense.entropy
        assert np.array_equal(fig.entropy, ent, equal_nan=True)
        assert fig.iterations == dense.iterations


def _cli_json(*args: str) -> dict:
    import contextlib
    import io

    from hieradjudicate.cli.entry import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(list(args)) == 0
    return json.loads(out.getvalue())


def test_cli_competence_from_leaves_equals_the_dense_long_form(tmp_path: Path, monkeypatch) -> None:
    """``competence P.hadj`` with the leaves equals the same command with the dense long form (the
    leaves turned off), to the last digit of its JSON."""
    import hieradjudicate.core.layout_tags as lt
    from tests.crowd import crowd_project

    path = crowd_project(tmp_path / "c.hadj", 25, seed=2)
    compact = _cli_json("competence", str(path), "--format", "json", "--max-iter", "50", "--instances", "20")
    monkeypatch.setattr(lt, "unit_leaves", lambda inv, sets: None)
    dense = _cli_json("competence", str(path), "--format", "json", "--max-iter", "50", "--instances", "20")
    compact.pop("seconds"), dense.pop("seconds")
    assert compact == dense


def test_masc_estimate_from_leaves_equals_the_dense_estimate(realdata: Path, tmp_path: Path) -> None:
    """Real MASC (1.08 M labels), a few EM iterations: the window's estimate from the layout's leaves
    and Dawid & Skene on the dense P agree to the bit."""
    from hieradjudicate.app.loading.specs import AnnotationSpec
    from hieradjudicate.app.session.session import Session

    d = realdata / "masc_amt"
    with Session.create(tmp_path / "m.hadj", [str(d / "inventory_tree.tsv")],
                        [AnnotationSpec(str(d / "masc_amt_labels_wide.tsv.gz"))], []) as s:
        c = s.corpus
        sets = sorted(k for k, st in enumerate(c.sets) if st.role == "annotator")
        lay = c.layout(sets)
        leaf = lay.onehot_leaf
        assert leaf is not None and lay.__dict__.get("_P") is None
        compact = dawid_skene(lay.inst, lay.rater, None, c.inst_lexelt, c.inventory.n_leaves, max_iter=8,
                              leaf=leaf, K=lay.n_leaves)
        dense = dawid_skene(lay.inst, lay.rater, lay.P, c.inst_lexelt, c.inventory.n_leaves, max_iter=8)
        _same(dense, compact)


@pytest.mark.parametrize("seed", [3, 11])
def test_alpha_of_a_one_leaf_per_row_layout_makes_no_whole_p_and_equals_the_dense(seed: int) -> None:
    """Krippendorff's alpha on an incomplete design (a crowd: not every worker labels every item) reads
    each lexelt's rows of ``P`` alone: the layout's whole ``P`` (MASC: 147 MB) is never made, and every
    figure -- alpha, per lexelt, the coincidences -- is the dense layout's to the bit."""
    from hieradjudicate.core.agreement.layout import make_layout
    from hieradjudicate.core.agreement.alpha import krippendorff_alpha
    from hieradjudicate.core.layout_tags import LeafLayout

    inst, rater, label, lex, n_leaves, K = _crowd(seed)
    order = np.lexsort((inst, lex[inst]))  # rows sorted by (lexelt, instance), as a layout's are
    inst, rater, label = inst[order], rater[order], label[order]
    compact = LeafLayout.of(inst, rater, label, K, lex[inst], len(n_leaves))
    dense = make_layout(inst, rater, np.eye(K)[label], lex, n_lexelts=len(n_leaves))
    a = krippendorff_alpha(None, None, None, layout=compact)
    assert compact.__dict__.get("_P") is None  # no whole P was made
    b = krippendorff_alpha(None, None, None, layout=dense)
    assert a.alpha == b.alpha and a.lexelt_alpha == b.lexelt_alpha and a.macro_alpha == b.macro_alpha
    assert np.array_equal(a.coincidence, b.coincidence)


@pytest.mark.parametrize("seed", [2, 9])
def test_mace_from_leaves_equals_the_one_hot_p(seed: int) -> None:
    """MACE from each label's leaf (a crowd's labels; MASC's one-hot P is 147 MB, and MACE's scan of it
    doubled its peak) gives every figure of MACE on the one-hot ``P``, to the bit."""
    from hieradjudicate.core.crowd.mace import mace

    inst, rater, label, lex, n_leaves, K = _crowd(seed)
    P = np.eye(K)[label]
    a = mace(inst, rater, P, lex, n_leaves)
    b = mace(inst, rater, None, lex, n_leaves, leaf=label, K=K)
    _same(a, b)
    assert a.iterations == b.iterations and a.converged == b.converged and a.elbo == b.elbo
