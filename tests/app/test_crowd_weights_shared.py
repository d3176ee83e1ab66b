"""A crowd project opened from its cache holds its all-ones weights and its one-tag pointers once, with the same figures.

Every label of a crowd (MASC) is one whole tag: its tag weight and attempted weight are 1.  Opened
from the project's cached arrays, a set's weights are one read-only value seen by every row, not
8 bytes a label (MASC: 2 x 8.3 MiB); every value, the dashboard's figures against a gold and the
live figures equal those of the corpus built from the files.
"""

from __future__ import annotations

import gzip
from dataclasses import replace
from pathlib import Path

import numpy as np

from hieradjudicate.app.dashboard.dashboard import Dashboard
from hieradjudicate.app.dashboard.scores import restrict_gold
from hieradjudicate.app.loading.load import AnnotationSpec
from hieradjudicate.app.session.session import Session
from hieradjudicate.app.workbench.live import agreement_figures
from hieradjudicate.app.workbench.queue import Workbench
from tests.conftest import skip_without_realdata


def _masc_part(tmp: Path) -> tuple[Path, list[AnnotationSpec], list[str]]:
    """MASC's inventory with its first 299 sentences of crowd labels (read from the real data)."""
    d = skip_without_realdata("masc_amt") / "masc_amt"
    with gzip.open(d / "masc_amt_labels_wide.tsv.gz", "rt", encoding="utf-8") as f:
        head = [next(f) for _ in range(300)]
    (tmp / "labels.tsv").write_text("".join(head), encoding="utf-8")
    return tmp / "masc.hadj", [AnnotationSpec(str(tmp / "labels.tsv"), None, "annotator")], [str(d / "inventory_tree.tsv")]


def _figures(corpus) -> list:
    gold_of = corpus.sets[0]
    keep = np.zeros(corpus.n, bool)
    keep[gold_of.rows[::2]] = True
    gold = replace(restrict_gold(gold_of, keep), name="gold", role="gold")
    data = Dashboard(corpus).compute(gold=gold, n_resamples=0)
    live = agreement_figures(Workbench(corpus))
    return [[(r.name, r.n, r.score, r.recall, r.kappa_cohen, r.kappa_scott) for r in data.gold_agreement],
            repr(np.ma.filled(data.heatmap.value, np.nan).tolist()),
            (live.fleiss.value, live.alpha.value, live.mean_cohen.value)]


def test_a_crowd_opened_from_its_cache_shares_one_weight_and_keeps_every_figure(tmp_path: Path) -> None:
    path, specs, inventories = _masc_part(tmp_path)
    created = Session.create(path, inventories, specs)  # the corpus built from the files
    assert not created.from_cache
    built = created.corpus
    want = _figures(built)
    created.close()
    opened = Session.open(path)
    assert opened.from_cache
    cached = opened.corpus
    assert len(cached.sets) == len(built.sets) > 2
    for s, b in zip(cached.sets, built.sets, strict=True):
        assert s.tag_weight.strides == (0,) and s.attempted.strides == (0,)  # one value for every row
        assert not s.tag_weight.flags.writeable and not s.attempted.flags.writeable
        assert np.array_equal(s.tag_weight, b.tag_weight) and np.array_equal(s.attempted, b.attempted)
        assert np.array_equal(s.rows, b.rows) and np.array_equal(s.tag_node, b.tag_node)
    assert _figures(cached) == want
    opened.close()


def test_a_crowd_opened_from_its_cache_shares_one_tag_count_and_writes_the_same_cache(tmp_path: Path) -> None:
    """Every row one tag: each set's tag pointers are views of one read-only 0, 1, ..., n (not a copy
    per set), its source lines and tag nodes are held in 32 bits, its tag signatures are made when
    asked and not kept (MASC: 8.3 MiB), and the cache made from the opened corpus is, array for
    array, dtype for dtype, the one made from the corpus built from the files."""
    from hieradjudicate.app.session.cache import corpus_to_cache

    path, specs, inventories = _masc_part(tmp_path)
    created = Session.create(path, inventories, specs)
    built = created.corpus
    want, _ = corpus_to_cache(built, [])
    created.close()
    opened = Session.open(path)
    assert opened.from_cache
    cached = opened.corpus
    bases = {id(s.tag_ptr.base) for s in cached.sets}
    assert len(bases) == 1 and all(s.tag_ptr.base is not None for s in cached.sets)
    for s, b in zip(cached.sets, built.sets, strict=True):
        assert not s.tag_ptr.flags.writeable
        assert s.tag_ptr.dtype == b.tag_ptr.dtype and np.array_equal(s.tag_ptr, b.tag_ptr)
        assert s.tag_line is not None and s.tag_line.dtype == np.int32
        assert np.array_equal(s.tag_line, b.tag_line)
        assert s.tag_node.dtype == np.int32 and b.tag_node.dtype == np.int64
        assert np.array_equal(s.tag_node, b.tag_node)
        assert np.array_equal(s.signature, b.signature) and s._signature is None  # the same values, not kept
        rows = np.arange(0, s.n, 3)
        assert np.array_equal(s.signature_of(rows), b.signature[rows])  # a few rows' alone (the instance shown)
    got, _ = corpus_to_cache(cached, [])
    assert sorted(got) == sorted(want)
    for name in want:
        assert got[name].dtype == want[name].dtype, name
        assert np.array_equal(got[name], want[name]), name
    opened.close()
