from fractions import Fraction

import numpy as np
import pytest

from hieradjudicate.core.errors import InventoryError
from hieradjudicate.core.records import InventorySource, SenseRecord
from tests.core.helpers import annotation_source, build, inventory_source


def D(inv, tag, lexelt="x.n"):
    return inv.distribution(inv.lookup(lexelt, tag))


def test_figure1_leaf_distributions():
    corpus = build([])
    inv = corpus.inventory
    assert D(inv, "A") == pytest.approx({"A.1a": 0.25, "A.1b": 0.25, "A.2": 0.5}, abs=1e-12)
    assert D(inv, "B") == pytest.approx({"B.1": 1 / 3, "B.2": 1 / 3, "B.3": 1 / 3}, abs=1e-12)
    assert D(inv, "A.1") == pytest.approx({"A.1a": 0.5, "A.1b": 0.5}, abs=1e-12)
    assert D(inv, "A.1b") == {"A.1b": 1.0}
    assert sorted(inv.label(int(n)) for n in inv.lexelt_leaf_nodes[0]) == ["A.1a", "A.1b", "A.2", "B.1", "B.2", "B.3"]


def test_tags_of_different_lexelts_are_different_nodes():
    recs = [SenseRecord("a.n", "1"), SenseRecord("b.n", "1")]
    corpus = build([annotation_source([("a.n", "i1", "r", [("U", None)]), ("b.n", "j1", "r", [("U", None)])])],
                   inventory=InventorySource("t", "test", recs))
    inv = corpus.inventory
    assert inv.lookup("a.n", "1") != inv.lookup("b.n", "1")
    assert inv.lookup("a.n", "U") != inv.lookup("b.n", "U")
    assert inv.node_outside[inv.lookup("a.n", "U")]


def test_branching_factor_self_leaf():
    # sense map: 38202 2 38204 -> 38204's group has 2 members, only 38202 listed
    recs = [SenseRecord(None, "38202", "38204"), SenseRecord(None, "38204", None, branching=2),
            SenseRecord("activate.v", "38204"), SenseRecord("activate.v", "38202"), SenseRecord("activate.v", "38201")]
    corpus = build([], inventory=InventorySource("m", "test", recs))
    inv = corpus.inventory
    assert D(inv, "38204", "activate.v") == pytest.approx({"38202": 0.5, "38204 (itself)": 0.5})
    assert D(inv, "38201", "activate.v") == {"38201": 1.0}


def test_branching_three_of_five():
    recs = [SenseRecord("w.n", "g", None, branching=5)] + [SenseRecord("w.n", f"c{i}", "g") for i in range(3)]
    inv = build([], inventory=InventorySource("m", "test", recs)).inventory
    d = D(inv, "g", "w.n")
    assert d["c0"] == pytest.approx(0.2) and d["g (itself)"] == pytest.approx(0.4)


def test_explicit_weights_normalised():
    inv = build([], inventory=inventory_source(**{"A.1": {"weight": 3.0}, "A.2": {"weight": 1.0}})).inventory
    assert D(inv, "A") == pytest.approx({"A.1a": 3 / 8, "A.1b": 3 / 8, "A.2": 1 / 4})


def test_estimated_weights_add_one():
    corpus = build([annotation_source([("x.n", f"i{k}", "r", [("A.2", None)]) for k in range(4)])])
    inv = corpus.inventory
    counts = np.zeros(inv.n_nodes)
    counts[inv.lookup("x.n", "A.2")] = 4
    inv.estimate_downward(counts)
    # P(A.1|A) = (0+1)/((0+1)+(4+1)) = 1/6
    assert D(inv, "A") == pytest.approx({"A.1a": 1 / 12, "A.1b": 1 / 12, "A.2": 5 / 6})


def test_outside_tags_become_leaves_and_are_reported():
    corpus = build([annotation_source([("x.n", "i1", "r", [("U", None)]), ("x.n", "i2", "r", [("A.1z", None)])])])
    inv = corpus.inventory
    assert inv.node_outside.sum() == 2
    assert D(inv, "U") == {"U": 1.0}


@pytest.mark.parametrize("recs, needle", [
    ([SenseRecord("w", "a"), SenseRecord("w", "b", "zz")], "does not exist"),
    ([SenseRecord("w", "a", "b"), SenseRecord("w", "b", "a")], "cycle"),
    ([SenseRecord("w", "a", branching=1), SenseRecord("w", "b", "a"), SenseRecord("w", "c", "a")], "branching factor 1"),
    ([SenseRecord("w", "a", weight=-1.0)], "positive number"),
    ([SenseRecord(None, "a", "p"), SenseRecord(None, "a", "q"), SenseRecord("w", "a")], "parent"),
])
def test_inventory_errors(recs, needle):
    with pytest.raises(InventoryError) as e:
        build([], inventory=InventorySource("inv.tsv", "test", recs))
    assert needle in str(e.value)


def test_granularity_and_distance():
    inv = build([]).inventory
    group, n_groups, nodes = inv.leaf_groups(1)
    assert n_groups[0] == 2
    labels = [inv.node_id[int(n)] for n in nodes[0]]
    assert sorted(labels) == ["A", "B"]
    dist = inv.leaf_distance()[0]
    a1a, a1b, b1 = (int(inv.node_leaf[inv.lookup("x.n", t)]) for t in ("A.1a", "A.1b", "B.1"))
    assert dist[a1a, a1b] == pytest.approx(2 / 5)  # A.1a-A.1-A.1b; max is A.1a..B.1 = 3+2 = 5
    assert dist[a1a, b1] == pytest.approx(1.0)


def test_leaf_vectors_weights_and_signature():
    src = annotation_source([
        ("x.n", "i1", "r", [("A", None)]),
        ("x.n", "i2", "r", [("A.1", None), ("B", None)]),
        ("x.n", "i3", "r", [("A.2", 0.6), ("B.1", 0.2)]),
        ("x.n", "i4", "r", [("A.2", 0.6), ("B.1", None)]),
    ])
    corpus = build([src])
    s = corpus.sets[0]
    inv = corpus.inventory
    col = {inv.label(int(n)): j for j, n in enumerate(inv.lexelt_leaf_nodes[0])}
    assert s.leaves[0, col["A.2"]] == pytest.approx(0.5)
    assert s.leaves[1, col["A.1a"]] == pytest.approx(0.25) and s.leaves[1, col["B.3"]] == pytest.approx(1 / 6)
    assert s.leaves[2, col["A.2"]] == pytest.approx(0.75)
    assert s.leaves[3, col["A.2"]] == pytest.approx(0.5)  # a missing weight -> all unweighted
    assert s.attempted.tolist() == [1.0, 1.0, pytest.approx(0.8), 1.0]
    np.testing.assert_allclose(s.leaves.sum(axis=1), 1.0)
    assert Fraction(1, 4) == Fraction(s.leaves[1, col["A.1a"]]).limit_denominator(100)
