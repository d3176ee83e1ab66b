"""scorer2 policies on the corrected worked table of scorer2.md and constructed cases."""

from __future__ import annotations

import numpy as np
import pytest

from hieradjudicate.core.errors import InventoryError
from hieradjudicate.core.records import AnnotationSource, SenseRecord
from hieradjudicate.core.scoring.senseval import SenseMap, score_senseval


def source(lines: list[str], path: str = "mem") -> AnnotationSource:
    """Build an AnnotationSource by hand from 'lexelt instance tag[/w] ...' strings."""
    items: dict[tuple[str, str], int] = {}
    tags: dict[str, int] = {}
    item, tag, weight = [], [], []
    for line in lines:
        lex, inst, *toks = line.split()
        i = items.setdefault((lex, inst), len(items))
        for t in toks:
            name, _, w = t.partition("/")
            item.append(i)
            tag.append(tags.setdefault(name, len(tags)))
            weight.append(float(w) if w else np.nan)
    return AnnotationSource(
        path, "senseval", [path], [k[0] for k in items], [k[1] for k in items], list(tags),
        np.array(item, np.int64), np.zeros(len(item), np.int64), np.array(tag, np.int64),
        np.array(weight), np.arange(1, len(item) + 1))


def sense_map(lines: list[str]) -> SenseMap:
    recs = []
    for n, line in enumerate(lines, 1):
        toks = line.split()
        chain, factors = toks[0::2], [int(b) for b in toks[1::2]]
        for i, node in enumerate(chain):
            recs.append(SenseRecord(None, node, chain[i + 1] if i + 1 < len(chain) else None,
                                    branching=factors[i - 1] if i else None, line=n))
    return SenseMap.from_records(recs)


MAP = ["1.1 2 1", "1.2 2 1"] + [f"2.{i} 5 2" for i in range(1, 6)] + ["1", "2", "3"]
# row, key, answer, fine, coarse, mixed, excluded by -m (fine/mixed), excluded by -m (coarse)
TABLE = [
    (1, "1", "1", 1, 1, 1, False, False),
    (2, "1 3", "1", 1, 1, 1, True, True),
    (3, "1", "2", 0, 0, 0, False, False),
    (4, "1 2", "2", 1, 1, 1, True, True),
    (5, "1 3", "2", 0, 0, 0, True, True),
    (6, "1.1", "1.1", 1, 1, 1, False, False),
    (7, "1.1 3", "1.1", 1, 1, 1, True, True),
    (8, "1.1", "1.2", 0, 1, 0, False, False),
    (9, "1.1 3", "1.2", 0, 1, 0, True, True),
    (10, "1", "1.1", 0, 1, 1, False, False),
    (11, "1.1", "1", 0, 1, .5, False, False),
    (12, "2.1", "2", 0, 1, .2, False, False),
    (13, "1.1 1.2", "1.1", 1, 1, 1, True, False),
    (14, "1.1 1.2", "1", 0, 1, 1, True, False),
    (15, "2.1 2.2", "2", 0, 1, .4, True, False),
    (16, "1", "1/0.6 2/0.4", .6, .6, .6, False, False),
    (17, "2", "1/0.6 2/0.4", .4, .4, .4, False, False),
    (18, "1", "1.1/0.6 2/0.4", 0, .6, .6, False, False),
    (19, "1", "1.1/0.6 1.2/0.4", 0, 1, 1, False, False),
    (20, "1.1", "1/0.6 2/0.4", 0, .6, .3, False, False),
    (21, "1 3", "1/0.6 2/0.4", .6, .6, .6, True, True),
    (22, "1 2", "1/0.6 2/0.4", 1, 1, 1, True, True),
]
COL = {"fine": 3, "coarse": 4, "mixed": 5}


@pytest.fixture(scope="module")
def table_sources():
    key = source([f"w.n r{r[0]} {r[1]}" for r in TABLE])
    ans = source([f"w.n r{r[0]} {r[2]}" for r in TABLE])
    return key, ans, sense_map(MAP)


@pytest.mark.parametrize("policy", ["fine", "coarse", "mixed"])
def test_table_rows_and_totals(table_sources, policy):
    key, ans, smap = table_sources
    r = score_senseval(key, ans, policy=policy, sense_map=smap)
    expected = np.array([row[COL[policy]] for row in TABLE], float)
    np.testing.assert_allclose(r.instance_score, expected, atol=1e-12)
    total = {"fine": 8.6, "coarse": 17.8, "mixed": 13.6}[policy]
    assert r.score_sum == pytest.approx(total, abs=1e-12)
    assert r.attempted == 22 and r.total == 22
    assert round(r.precision, 3) == round(r.recall, 3) == round(total / 22, 3)
    assert r.coverage == 1.0
    assert r.as_dict()["by_pos"]["n"]["score_sum"] == pytest.approx(total)


@pytest.mark.parametrize("policy", ["fine", "coarse", "mixed"])
def test_table_minimal(table_sources, policy):
    key, ans, smap = table_sources
    r = score_senseval(key, ans, policy=policy, sense_map=smap, minimal=True)
    excl_col = 7 if policy == "coarse" else 6
    kept = [row for row in TABLE if not row[excl_col]]
    assert r.total == len(kept) == (15 if policy == "coarse" else 12)
    assert r.excluded_multi_tag == 22 - len(kept)
    np.testing.assert_allclose(r.instance_score, [row[COL[policy]] for row in kept], atol=1e-12)
    assert [key.item_instance[i] for i in r.instance_item] == [f"r{row[0]}" for row in kept]
    if policy == "coarse":
        assert {"r13", "r14", "r15"} <= {key.item_instance[i] for i in r.instance_item}


def test_partial_attempt():
    smap = sense_map(["1a 2 1", "1b 2 1"])
    key = source(["w.n i 1a"])
    r = score_senseval(key, source(["w.n i 1a/0.3"]), policy="mixed", sense_map=smap)
    assert (r.score_sum, r.attempted) == (pytest.approx(0.3), pytest.approx(0.3))
    assert r.precision == pytest.approx(1.0) and r.recall == pytest.approx(0.3)
    for pol in ("fine", "coarse", "mixed"):
        r = score_senseval(key, source(["w.n i 1a/0.5 2/0.5"]), policy=pol, sense_map=smap)
        assert (r.score_sum, r.attempted) == (pytest.approx(0.5), pytest.approx(1.0))


def test_weight_rules():
    key = source(["w.n a x", "w.n b x", "w.n c x", "w.n d x"])
    ans = source(["w.n a x y z", "w.n b x/5 y/5", "w.n c x/0.2 y", "w.n d x x"])
    r = score_senseval(key, ans)
    # unweighted -> 1/3 each; 5+5 -> halves; one weight missing -> unweighted; duplicates kept
    np.testing.assert_allclose(r.instance_score, [1 / 3, 0.5, 0.5, 1.0], atol=1e-12)
    assert r.attempted == pytest.approx(4.0)


def test_unknown_answers_reported_not_scored():
    key = source(["a.n 1 x", "b.v 2 y"])
    ans = source(["a.n 1 x", "a.n 9 x", "a.v 2 y"])  # wrong instance; right id, wrong lexelt
    r = score_senseval(key, ans)
    assert r.unknown_answers == 2
    assert set(r.unknown_examples) == {("a.n", "9"), ("a.v", "2")}
    assert (r.score_sum, r.attempted, r.total) == (1.0, 1.0, 2)
    assert r.figures.by_pos["v"].precision is None
    assert "precision" in r.figures.by_pos["v"].undefined
    assert r.figures.by_pos["v"].recall == 0.0


def test_order_invariance_and_special_tags():
    lines_k = [f"{'ab'[i % 2]}.n i{i} {t}" for i, t in enumerate(["U", "1", "P", "1 U", "TYPO"])]
    lines_a = [f"{'ab'[i % 2]}.n i{i} {t}" for i, t in enumerate(["U", "2", "P", "U", "x"])]
    r1 = score_senseval(source(lines_k), source(lines_a), policy="mixed", sense_map=sense_map(MAP))
    r2 = score_senseval(source(lines_k[::-1]), source(lines_a[2:] + lines_a[:2]),
                        policy="mixed", sense_map=sense_map(MAP[::-1]))
    assert r1.score_sum == r2.score_sum == 3.0
    assert r1.as_dict()["by_lexelt"] == r2.as_dict()["by_lexelt"]


def test_instance_ids_repeated_across_lexelts():
    key = source(["a.n 1 x", "b.n 1 y"])
    ans = source(["b.n 1 y", "a.n 1 y"])
    r = score_senseval(key, ans)
    np.testing.assert_allclose(r.instance_score, [0.0, 1.0])


def test_nothing_answered_and_errors():
    key = source(["a.n 1 x"])
    r = score_senseval(key, source(["z.n 5 x"]))
    assert r.precision is None and r.recall == 0.0 and r.f1 is None
    with pytest.raises(ValueError, match="sense map"):
        score_senseval(key, key, policy="mixed")
    with pytest.raises(ValueError, match="unknown policy"):
        score_senseval(key, key, policy="leafy")
    with pytest.raises(ValueError, match="negative"):
        score_senseval(key, source(["a.n 1 x/-1"]))


def test_sense_map_merge_and_conflicts():
    smap = sense_map(["2.1 5 2", "2.1 5 2", "2", "2.2 5 2"])
    assert smap.top("2.1") == "2" and smap.top("zz") == "zz"
    assert smap.ancestors("2.2") == (("2", 5),)
    with pytest.raises(InventoryError, match="parent"):
        sense_map(["a 2 p", "a 2 q"])
    with pytest.raises(InventoryError, match="branching"):
        sense_map(["a 2 p", "b 3 p"])
    deep = sense_map(["a 2 b 3 c"])
    assert deep.mixed_credit("c", "a") == pytest.approx(1 / 6)
    assert deep.mixed_credit("a", "c") == 1.0 and deep.top("a") == "c"


def test_multiple_sets_need_a_choice():
    key = source(["a.n 1 x"])
    two = source(["a.n 1 x"])
    two.set_names = ["s1", "s2"]
    with pytest.raises(ValueError, match="choose one"):
        score_senseval(key, two)
    assert score_senseval(key, two, answer_set="s1").score_sum == 1.0
    assert score_senseval(key, two, answer_set="s2").attempted == 0.0


def test_mixed_branching_counts_children_within_the_lexelt() -> None:
    """#21: an outline inventory reuses its ids in every lexelt; a parent's listed children are those
    of its own lexelt (scorer2's rule on a sense map of that lexelt), not every lexelt's."""
    recs = [SenseRecord("bank.n", "1"), SenseRecord("bank.n", "1.1", "1"), SenseRecord("bank.n", "1.2", "1"),
            SenseRecord("run.v", "1"), SenseRecord("run.v", "1.1", "1"), SenseRecord("run.v", "1.2", "1"),
            SenseRecord("run.v", "1.3", "1")]
    m = SenseMap.from_records(recs)
    assert m.mixed_credit("1", "1.1", "bank.n") == 0.5
    assert m.mixed_credit("1", "1.1", "run.v") == pytest.approx(1 / 3)
    assert m.mixed_credit("1", "1.3") == pytest.approx(1 / 3)  # no lexelt: the map-wide count, as before
    # a Senseval sense map (no lexelt on its lines) is read exactly as before
    plain = SenseMap.from_records([SenseRecord(None, "1.1", "1"), SenseRecord(None, "1.2", "1")])
    assert plain.lexelt_children == {} and plain.mixed_credit("1", "1.1", "bank.n") == 0.5
