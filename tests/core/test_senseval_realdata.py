"""scorer2 figures on the Senseval-3 English lexical sample (skipped without HIERADJ_REALDATA)."""

from __future__ import annotations

import random

import pytest

from hieradjudicate.core.scoring.senseval import SenseMap, score_senseval
from hieradjudicate.io.annotations.read import read_annotations
from hieradjudicate.io.inventories.read import read_inventory

EXPECTED = {"fine": 0.601, "coarse": 0.672, "mixed": 0.647}  # scorer2 on the byte-sorted map


@pytest.fixture
def s3(realdata):
    d = realdata / "senseval3"
    smap = SenseMap.from_records(read_inventory(d / "EnglishLS.sensemap", format="senseval-sensemap").senses)
    return d, read_annotations(d / "EnglishLS.test.key"), smap


@pytest.mark.parametrize("policy", ["fine", "coarse", "mixed"])
def test_baseline_figures(s3, policy):
    d, key, smap = s3
    r = score_senseval(key, read_annotations(d / "answers" / "baseline_responses.txt"),
                       policy=policy, sense_map=smap)
    assert r.total == 3944 and r.attempted == 3944 and r.unknown_answers == 0
    assert round(r.precision, 3) == round(r.recall, 3) == EXPECTED[policy]
    assert len(r.figures.by_lexelt) == 57
    assert sum(f.total for f in r.figures.by_pos.values()) == 3944


def test_shuffled_files_give_the_same_figures(s3, tmp_path):
    d, key, smap = s3
    ans = read_annotations(d / "answers" / "baseline_responses.txt")
    rng = random.Random(20020706)
    for name, src in [("key.txt", d / "EnglishLS.test.key"),
                      ("ans.txt", d / "answers" / "baseline_responses.txt"),
                      ("map.txt", d / "EnglishLS.sensemap")]:
        lines = src.read_text().splitlines()
        rng.shuffle(lines)
        (tmp_path / name).write_text("\n".join(lines) + "\n")
    key2 = read_annotations(tmp_path / "key.txt")
    ans2 = read_annotations(tmp_path / "ans.txt")
    inv2 = read_inventory(tmp_path / "map.txt", format="senseval-sensemap")
    smap2 = SenseMap.from_records(inv2.senses)
    for policy, expected in EXPECTED.items():
        a = score_senseval(key, ans, policy=policy, sense_map=smap)
        b = score_senseval(key2, ans2, policy=policy, sense_map=smap2)
        assert b.score_sum == pytest.approx(a.score_sum, abs=1e-9)
        assert (b.attempted, b.total) == (a.attempted, a.total)
        assert round(b.precision, 3) == expected
        for lex, f in a.figures.by_lexelt.items():
            assert b.figures.by_lexelt[lex].score_sum == pytest.approx(f.score_sum, abs=1e-9)


def test_every_answer_file_scores(s3):
    d, key, smap = s3
    files = sorted((d / "answers").iterdir())
    assert len(files) >= 10
    for path in files:
        ans = read_annotations(path)
        for policy in EXPECTED:
            for minimal in (False, True):
                r = score_senseval(key, ans, policy=policy, sense_map=smap, minimal=minimal)
                assert 0.0 <= r.score_sum <= r.attempted + 1e-9 <= r.total + 1e-9
                assert r.precision is not None and 0.0 <= r.precision <= 1.0 + 1e-12
                if minimal:
                    assert r.excluded_multi_tag > 0


def test_minimal_excludes_multi_tag_keys(s3):
    d, key, smap = s3
    ans = read_annotations(d / "answers" / "baseline_responses.txt")
    fine = score_senseval(key, ans, policy="fine", minimal=True)
    assert fine.excluded_multi_tag == 304 and fine.total == 3944 - 304
    coarse = score_senseval(key, ans, policy="coarse", sense_map=smap, minimal=True)
    assert coarse.total >= fine.total
