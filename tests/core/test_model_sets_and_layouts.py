"""The sets a corpus builds in one pass, their leaf vectors and signatures on first use, and the
layout made from their tags (LeafLayout for unit leaf vectors) equal the one made from their leaf
vectors; the agreement figures are the same to the last bit either way."""

from __future__ import annotations

from dataclasses import fields

import numpy as np
import pytest

from hieradjudicate.app.loading.load import load
from hieradjudicate.app.loading.specs import AnnotationSpec
from hieradjudicate.core.agreement.layout import layout_from_blocks, make_layout
from hieradjudicate.core.dashboard import all_figures
from hieradjudicate.core.layout_tags import LeafLayout
from hieradjudicate.core.inventory.leaves import leaf_vectors, tag_set_signature

TREE = ("node_id\tparent_id\tnode_type\tlabel\n"
        "w1-n\t\tlemma\tw1\nw1-n#1\tw1-n\tsense\ta\nw1-n#1.1\tw1-n#1\tsense\taa\nw1-n#1.2\tw1-n#1\tsense\tab\n"
        "w1-n#2\tw1-n\tsense\tb\n"
        "w2-v\t\tlemma\tw2\nw2-v#1\tw2-v\tsense\tc\nw2-v#2\tw2-v\tsense\td\nw2-v#3\tw2-v\tsense\te\n")


def _corpus(tmp_path, name, text, inventory=TREE):
    (tmp_path / "tree.tsv").write_text(inventory, encoding="utf-8")
    (tmp_path / name).write_text(text, encoding="utf-8")
    return load([str(tmp_path / "tree.tsv")], [AnnotationSpec(str(tmp_path / name))]).corpus


def _crowd(seed=0, leaves_only=True):
    rng = np.random.default_rng(seed)
    tags = {"w1-n": ["1.1", "1.2", "2"] + ([] if leaves_only else ["1"]), "w2-v": ["1", "2", "3"]}
    rows = ["word_pos\tform_id\tsentence_id\tlabels"]
    for j in range(60):
        word = "w1-n" if j % 3 else "w2-v"
        workers = rng.choice(9, size=int(rng.integers(1, 6)), replace=False)  # some single-rated
        rows.append(f"{word}\t{j % 2 + 1}\t{j // 2}\t" + ",".join(f"{w}:{rng.choice(tags[word])}" for w in workers))
    return "\n".join(rows) + "\n"


LONG = ("lexelt,instance,annotator,tag,weight\n"
        "w1-n,i0,B,1.1,\nw1-n,i1,A,2,0.6\nw1-n,i1,A,1,0.4\nw1-n,i0,A,1.2,\n"
        "w2-v,i2,A,1,0\nw2-v,i2,A,2,0\nw2-v,i2,B,3,2\nw1-n,i1,B,1.1,\nw1-n,i1,B,1.1,\n")


def _same(a, b):
    assert type(a.P) is type(b.P)
    for f in fields(a):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if isinstance(x, np.ndarray):
            assert x.dtype == y.dtype and np.array_equal(x, y), f.name
        else:
            assert x == y, f.name


@pytest.mark.parametrize("case", ["crowd-leaves", "crowd-inner-tags", "long-weighted"])
def test_sets_layout_and_figures_equal_the_leaf_vector_path(tmp_path, case):
    if case == "long-weighted":
        c = _corpus(tmp_path, "long.csv", LONG)
    else:
        c = _corpus(tmp_path, "crowd.tsv", _crowd(leaves_only=case == "crowd-leaves"))
    inv = c.inventory
    for s in c.sets:  # each set's lazily made arrays are those of its own tags
        assert np.array_equal(s.leaves, leaf_vectors(inv, s.tag_ptr, s.tag_node, s.tag_weight))
        assert np.array_equal(s.signature, tag_set_signature(s.tag_ptr, s.tag_node))
        assert (np.diff(s.rows) > 0).all() and s.tag_ptr[0] == 0 and s.tag_ptr[-1] == s.tag_node.size
    chosen = list(range(len(c.sets)))
    lay = c.layout(chosen)  # from the tags (the sets' leaves were read above: the blocks path)
    c2 = _corpus(tmp_path, "again" + ("long.csv" if case == "long-weighted" else "crowd.tsv"),
                 LONG if case == "long-weighted" else _crowd(leaves_only=case == "crowd-leaves"))
    lay_tags = c2.layout(chosen)  # leaves never read: made from the tags
    assert isinstance(lay_tags, LeafLayout) == (case == "crowd-leaves")
    blocks = layout_from_blocks([s.rows for s in c.sets], [s.leaves for s in c.sets], c.inst_lexelt,
                                n_lexelts=len(inv.lexelts))
    inst = np.concatenate([s.rows for s in c.sets])
    rater = np.repeat(np.arange(len(c.sets)), [s.n for s in c.sets])
    sorted_ = make_layout(inst, rater, np.concatenate([s.leaves for s in c.sets]), c.inst_lexelt,
                          n_lexelts=len(inv.lexelts))
    for other in (lay, blocks):
        for f in fields(sorted_):
            x, y = getattr(sorted_, f.name), getattr(other, f.name)
            # a crowd's one-leaf-per-row layout holds its rows' instance and rater in 32 bits
            narrow = isinstance(other, LeafLayout) and f.name in ("inst", "rater", "seg_inst")
            dtype = np.int32 if narrow else getattr(x, "dtype", None)
            assert (np.array_equal(x, y) and y.dtype == dtype) if isinstance(x, np.ndarray) else x == y, f.name
    figs = []
    for layout in (lay_tags, sorted_):
        f = all_figures(None, None, None, c.inst_lexelt, n_raters=len(chosen), n_lexelts=len(inv.lexelts),
                        layout=layout, coincidences=False)
        figs.append(f)
    a, b = figs
    for name in ("n", "observed", "expected_scott", "expected_cohen", "kappa_scott", "kappa_cohen"):
        x, y = getattr(a.pairwise, name), getattr(b.pairwise, name)
        assert np.array_equal(np.ma.getdata(x), np.ma.getdata(y)), name
        assert np.array_equal(np.ma.getmaskarray(x), np.ma.getmaskarray(y)), name
    assert a.multi == b.multi and a.alpha.alpha == b.alpha.alpha
    assert a.alpha.observed_disagreement == b.alpha.observed_disagreement
    assert a.alpha.lexelt_alpha == b.alpha.lexelt_alpha


def test_leaf_layout_makes_p_on_first_use_and_pairable_keeps_leaves(tmp_path):
    c = _corpus(tmp_path, "crowd.tsv", _crowd(seed=3))
    lay = c.layout(list(range(len(c.sets))))
    assert isinstance(lay, LeafLayout) and lay.__dict__.get("_P") is None
    assert int(lay.seg_m.min()) == 1  # single-rated instances: pairable() drops them
    pairable = lay.pairable()
    assert isinstance(pairable, LeafLayout) and pairable.__dict__.get("_P") is None
    P = lay.P  # made now, and equal to the sets' leaf vectors in layout order
    dense = layout_from_blocks([s.rows for s in c.sets], [s.leaves for s in c.sets], c.inst_lexelt,
                               n_lexelts=len(c.inventory.lexelts))
    assert np.array_equal(P, dense.P) and np.array_equal(pairable.P, dense.pairable().P)
    assert lay.n_leaves == dense.n_leaves and np.array_equal(lay.onehot_leaf, dense.onehot_leaf)


def test_sets_with_labels_out_of_instance_order_and_duplicates(tmp_path):
    c = _corpus(tmp_path, "long.csv", LONG)
    a = c.get_set("A")
    # A answered i1 (two weighted tags), i0 and i2 (weights 0, 0: read as uniform)
    ids = [c.inst_id[i] for i in a.rows.tolist()]
    assert ids == sorted(ids, key=lambda i: c.instance_index("w1-n" if i != "i2" else "w2-v", i))
    by_id = dict(zip(ids, range(a.n)))
    r = by_id["i1"]
    assert a.tag_weight[a.tag_ptr[r]:a.tag_ptr[r + 1]].tolist() == [0.6, 0.4]
    r = by_id["i2"]
    assert a.tag_weight[a.tag_ptr[r]:a.tag_ptr[r + 1]].tolist() == [0.5, 0.5] and a.attempted[r] == 0.0
