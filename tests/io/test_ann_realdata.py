"""The annotation readers on the shared real data (skipped when HIERADJ_REALDATA is unset)."""

from __future__ import annotations

import numpy as np
import pytest

from hieradjudicate.io.annotations.read import read_annotations
from tests.io.ann_helpers import check_invariants


def test_senseval3_key(realdata):
    src = read_annotations(realdata / "senseval3" / "EnglishLS.test.key")
    check_invariants(src)
    assert src.format == "senseval" and src.set_names == ["EnglishLS.test"]
    assert len(src.item_instance) == 3944
    assert len(set(src.item_lexelt)) == 57
    per_item = np.bincount(src.item)
    assert int((per_item >= 2).sum()) == 304 and per_item.max() == 3
    u = src.tags.index("U")
    assert len(set(src.item[src.tag == u].tolist())) == 100
    assert src.problems == [] and np.isnan(src.weight).all()


ANSWERS = ["baseline_responses.txt", "common_words_run.txt", "ens_heads.txt", "ens_mixedbag.txt",
           "ens_overweight.txt", "ens_partial.txt", "ens_unweighted.txt", "ens_weighted.txt",
           "tmp12-attempted", "tmp26", "tmp31", "tmp56-attempted", "tmp8027", "tmp8085"]


def test_every_answer_file_is_listed(realdata):
    assert sorted(p.name for p in (realdata / "senseval3" / "answers").iterdir()) == sorted(ANSWERS)


@pytest.mark.parametrize("name", ANSWERS)
def test_senseval3_answers_read_cleanly(realdata, name):
    path = realdata / "senseval3" / "answers" / name
    src = read_annotations(path)
    check_invariants(src)
    n_lines = sum(1 for ln in path.read_text().splitlines() if ln.strip())
    assert src.format == "senseval" and src.problems == [] and src.duplicates == 0
    assert len(src.item_instance) == n_lines
    assert src.n_labels >= n_lines


def test_ens_files_exercise_weights_comments_and_duplicate_tags(realdata):
    d = realdata / "senseval3" / "answers"
    weighted = read_annotations(d / "ens_weighted.txt")
    assert not np.isnan(weighted.weight).any()
    assert weighted.weight[weighted.item == 0].tolist() == [0.8, 0.2]
    mixed = read_annotations(d / "ens_mixedbag.txt")
    assert len(mixed.comments) == 390 and set(mixed.comments.values()) >= {"mixed"}
    first = mixed.item_instance.index("activate.v.bnc.00061340")
    rows = np.flatnonzero(mixed.item == first)
    assert [mixed.tags[t] for t in mixed.tag[rows]] == ["38201", "38201"]  # duplicate tags kept
    assert mixed.weight[rows].tolist() == [0.6, 0.4]
    assert int(rows[0]) in mixed.comments
    partial = read_annotations(d / "ens_partial.txt")
    sums = np.bincount(partial.item, weights=partial.weight)
    assert (sums < 1 - 1e-9).any()


def test_masc(realdata):
    src = read_annotations(realdata / "masc_amt" / "masc_amt_labels_wide.tsv.gz")
    check_invariants(src)
    assert src.format == "masc"
    assert len(src.item_instance) == 44682
    assert src.n_labels == 1084551
    # The data README says 229 workers; the file holds worker ids 1..228 (228 distinct).
    assert len(src.set_names) == 228
    assert sorted(int(s) for s in src.set_names) == list(range(1, 229))
    assert len(set(src.item_lexelt)) == 45
    per_item = np.bincount(src.item)
    assert per_item.min() == 13 and per_item.max() == 25
    assert src.item_instance[0] == "2.1" and src.problems == []


def test_wsbest(realdata):
    src = read_annotations(realdata / "wsbest" / "wsbest_selected_senses_per_annotator.tsv")
    check_invariants(src)
    assert src.format == "wsbest"
    assert sorted(src.set_names) == list("ACDFGHIJ")
    assert len(src.item_instance) == 260 and len(set(src.item_lexelt)) == 26
    answers = np.bincount(src.set * len(src.item_instance) + src.item)
    answers = answers[answers > 0]
    assert answers.size == 8 * 260
    assert int((answers > 1).sum()) == 274
    assert src.problems == []
