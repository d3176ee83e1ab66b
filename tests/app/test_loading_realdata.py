"""Issue 2 acceptance on the real Senseval-3, MASC and WSbest files (skipped without HIERADJ_REALDATA)."""

from __future__ import annotations

import numpy as np
import pytest

from hieradjudicate.app.loading.load import AnnotationSpec, load, validation_report


def _senseval(realdata, contexts=True):
    d = realdata / "senseval3"
    return load([str(d / "EnglishLS.sensemap"), str(d / "EnglishLS.dictionary.xml")],
                [AnnotationSpec(str(d / "EnglishLS.test.key"), "key", "gold")],
                [str(d / "EnglishLS.test.gz")] if contexts else [])


def test_senseval_key_counts(realdata):
    res = _senseval(realdata)
    c = res.corpus
    key = c.get_set("key")
    assert c.n == 3944 and key.n == 3944
    assert len(c.inventory.known_lexelts) == 57 and len(c.inventory.lexelts) == 57
    assert int((key.n_tags() > 1).sum()) == 304
    u_nodes = {c.inventory.lookup(x, "U") for x in range(57)} - {-1}
    has_u = np.add.reduceat(np.isin(key.tag_node, list(u_nodes)).astype(int), key.tag_ptr[:-1]) > 0
    assert int(has_u.sum()) == 100
    # U is outside the inventory and kept as a leaf of its own, per lexelt
    assert all(c.inventory.node_outside[n] for n in u_nodes)
    np.testing.assert_allclose(key.leaves.sum(axis=1), 1.0)


def test_sensemap_attaches_through_key_and_dictionary(realdata):
    c = _senseval(realdata, contexts=False).corpus
    inv = c.inventory
    # 38202 2 38204: 38204 (activate.v) is a group head with a self leaf
    node = inv.lookup("activate.v", "38204")
    assert node >= 0 and not inv.node_is_leaf[node]
    assert inv.distribution(node) == pytest.approx({"38202": 0.5, "38204 (itself)": 0.5})
    grouped = int((inv.node_parent >= 0).sum())
    assert grouped >= 86  # every child -> group link of the map is attached to a lexelt
    # glosses come from the dictionary
    assert "reactive" in inv.node_gloss[inv.lookup("activate.v", "38202")]


def test_contexts_located(realdata):
    c = _senseval(realdata).corpus
    assert len(c.contexts) == 3944
    assert all(ctx.head is not None for ctx in c.contexts.values())


def test_masc_wide(realdata):
    d = realdata / "masc_amt"
    res = load([str(d / "inventory_tree.tsv")], [AnnotationSpec(str(d / "masc_amt_labels_wide.tsv.gz"))])
    c = res.corpus
    assert c.n == 44682
    # The issue and data/README say 229 workers; the file holds worker ids 1..228 without gaps (228 distinct),
    # checked with: zcat ... | cut -f4 | tr , '\\n' | cut -d: -f1 | sort -u | wc -l
    assert len(c.sets) == 228
    assert sum(int(s.tag_node.size) for s in c.sets) == 1084551
    rep = validation_report(res)
    assert rep["instances"] == 44682 and len(rep["sets"]) == 228


def test_wsbest(realdata):
    d = realdata / "wsbest"
    res = load([str(d / "inventory_tree.tsv")],
               [AnnotationSpec(str(d / "wsbest_selected_senses_per_annotator.tsv"))], [str(d / "uses.tsv.gz")])
    c = res.corpus
    assert len(c.sets) == 8 and c.n == 260
    assert any(int((s.n_tags() > 1).sum()) > 0 for s in c.sets)
    # WordNet keys resolve through the tree's aliases: few tags stay outside the inventory
    outside = sum(int(c.inventory.node_outside[s.tag_node].sum()) for s in c.sets)
    total = sum(int(s.tag_node.size) for s in c.sets)
    assert outside < 0.05 * total
