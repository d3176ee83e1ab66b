"""The byte-level scorer2 route equals the strict route, and declines whatever it cannot read exactly.

``score --policy fine|coarse|mixed`` reads clean Senseval files as byte ranges
(:mod:`hieradjudicate.io.annotations.senseval_scan`) and joins them on hashes.
Every figure must equal what the strict reader and :func:`score_senseval` give;
a file that is not clean, or a hash collision, must send the files down the
strict route (``scan_senseval``/``align`` return ``None``), never to a laxer result.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from hieradjudicate.app.loading.specs import AnnotationSpec
from hieradjudicate.app.scorer2_fast import scan_key, score_file
from hieradjudicate.cli.entry import main
from hieradjudicate.core.scoring.senseval import SenseMap, score_senseval
from hieradjudicate.io.annotations import senseval_scan
from hieradjudicate.io.annotations.read import read_annotations
from hieradjudicate.io.annotations.senseval_scan import align, scan_senseval
from hieradjudicate.io.inventories.read import read_inventory

POLICIES = ["fine", "coarse", "mixed"]


def strict(key_path, ans_path, policy, smap, minimal=False):
    return score_senseval(read_annotations(key_path), read_annotations(ans_path), policy=policy,
                          sense_map=smap, minimal=minimal)


def fast(key_path, ans_path, policy, smap, minimal=False):
    spec = AnnotationSpec.parse(str(ans_path), "system")
    key = scan_key(AnnotationSpec.parse(str(key_path), "gold"), [spec])
    got = None if key is None else score_file(key, spec, policy=policy, sense_map=smap, minimal=minimal)
    return None if got is None else got[1]


def assert_same(a, b, key_path):
    """Every figure of two SensevalScores, and the instance each per-instance row names."""
    assert a.as_dict() == b.as_dict()
    key = read_annotations(key_path)
    ids = lambda r: [(key.item_lexelt[i], key.item_instance[i]) for i in r.instance_item.tolist()]
    got = scan_senseval(str(key_path), "key")
    ids_b = list(zip(got.lexelt_of(b.instance_item), got.instances(b.instance_item)))
    assert ids(a) == ids_b
    np.testing.assert_array_equal(a.instance_score, b.instance_score)
    np.testing.assert_array_equal(a.instance_attempted, b.instance_attempted)
    assert [a.lexelts[i] for i in a.instance_lexelt] == [b.lexelts[i] for i in b.instance_lexelt]
    assert (a.excluded_multi_tag, a.unknown_answers, a.unknown_examples) == \
           (b.excluded_multi_tag, b.unknown_answers, b.unknown_examples)


@pytest.fixture(scope="module")
def s3():
    from tests.conftest import skip_without_realdata

    d = skip_without_realdata("senseval3") / "senseval3"
    smap = SenseMap.from_records(read_inventory(d / "EnglishLS.sensemap", format="senseval-sensemap").senses)
    return d, smap


def test_every_real_answer_file_equals_the_strict_route(s3):
    d, smap = s3
    key = d / "EnglishLS.test.key"
    taken = []
    for ans in sorted((d / "answers").iterdir()):
        for policy in POLICIES:
            for minimal in (False, True):
                b = fast(key, ans, policy, smap, minimal)
                if b is None:
                    continue
                taken.append(ans.name)
                assert_same(strict(key, ans, policy, smap, minimal), b, key)
    # the clean files do take the byte route (else this test would test nothing)
    assert "baseline_responses.txt" in taken and "common_words_run.txt" in taken


def test_shuffled_and_partial_answers_join_exactly(s3, tmp_path):
    d, smap = s3
    key = d / "EnglishLS.test.key"
    lines = (d / "answers" / "baseline_responses.txt").read_text().splitlines()
    rng = random.Random(7)
    rng.shuffle(lines)
    lines = lines[: len(lines) * 2 // 3]
    lines.append("bank.n bank.n.not-in-key 1")  # an unknown instance
    lines.append("zzz.n zzz.n.1 1")  # a lexelt the key lacks
    ans = tmp_path / "ans.txt"
    ans.write_text("\n".join(lines))  # no final newline
    for policy in POLICIES:
        b = fast(key, ans, policy, smap)
        assert b is not None, "a clean shuffled file takes the byte route"
        assert b.unknown_answers == 2
        assert_same(strict(key, ans, policy, smap), b, key)


WRITE_KEY = "a.n a.n.1 1 2\na.n a.n.2 3\nb.v b.v.1 x\nb.v b.v.2 U\n"


@pytest.mark.parametrize("answers", [
    "a.n a.n.1 1/0.5 2/0.25\na.n a.n.2 3/1\nb.v b.v.1 x y\n",  # weights, several tags
    "a.n a.n.1 1/0.5 2\nb.v b.v.2 U\n",  # one unweighted tag makes the answer unweighted
    "b.v b.v.1 x/2 y/2\na.n a.n.2 3/0\n",  # weights above 1 normalised; a zero weight
    "a.n a.n.1 1\na.n a.n.1x 1\nc.n a.n.2 3\n",  # an id that is a prefix of another; an unknown lexelt
    "a.n a.n.2 3\na.n a.n.1 9\n",  # answers in another order
])
def test_small_clean_files_equal_the_strict_route(tmp_path, answers):
    key, ans = tmp_path / "key.txt", tmp_path / "ans.txt"
    key.write_text(WRITE_KEY)
    ans.write_text(answers)
    smap = SenseMap.from_records(read_inventory(_sensemap(tmp_path), format="senseval-sensemap").senses)
    for policy in POLICIES:
        for minimal in (False, True):
            b = fast(key, ans, policy, smap, minimal)
            assert b is not None
            assert_same(strict(key, ans, policy, smap, minimal), b, key)


def _sensemap(tmp_path):
    p = tmp_path / "map.txt"
    p.write_text("1\n2 2 1\n3\nx\ny 2 x\n")
    return p


@pytest.mark.parametrize("text", [
    "a.n a.n.1 1 !! a comment\n",
    "a.n\ta.n.1 1\n",
    "a.n a.n.1 1\r\n",
    "a.n a.n.1 1\n\na.n a.n.2 3\n",  # an empty line
    "a.n a.n.1 1 \n",  # a trailing space
    "a.n  a.n.1 1\n",  # two spaces
    "a.n a.n.1 1/abc\n",  # a bad weight
    "a.n a.n.1 1/-1\n",  # a negative weight
    "a.n a.n.1\n",  # no tag
    "a.n a.n.1 caf\u00e9\n",  # not ASCII
    "\ufeffa.n a.n.1 1\n",  # a byte-order mark
    "",  # empty
])
def test_unclean_files_are_declined(tmp_path, text):
    p = tmp_path / "f.txt"
    p.write_text(text, encoding="utf-8", newline="")
    assert scan_senseval(str(p), "f") is None


def test_duplicate_instances_are_left_to_the_strict_reader(tmp_path):
    key, ans = tmp_path / "key.txt", tmp_path / "ans.txt"
    key.write_text(WRITE_KEY + "a.n a.n.1 2\n")
    ans.write_text("a.n a.n.1 1\n")
    assert align(scan_senseval(str(key), "k"), scan_senseval(str(ans), "a")) is None
    key.write_text(WRITE_KEY)
    ans.write_text("a.n a.n.1 1\na.n a.n.1 2\n")
    assert align(scan_senseval(str(key), "k"), scan_senseval(str(ans), "a")) is None


def test_a_hash_collision_declines_and_the_command_still_prints_the_strict_figures(s3, monkeypatch, capsys):
    d, smap = s3
    argv = ["score", "--inventory", str(d / "EnglishLS.sensemap"), "--gold", str(d / "EnglishLS.test.key"),
            "--system", str(d / "answers" / "baseline_responses.txt"), "--policy", "mixed", "--format", "json"]
    assert main(argv) == 0
    expected = json.loads(capsys.readouterr().out)
    # every token hashes alike: the byte comparison behind each hash must catch it
    monkeypatch.setattr(senseval_scan, "_hash", lambda parts, length: np.zeros(length.size, np.uint64))
    assert fast(d / "EnglishLS.test.key", d / "answers" / "baseline_responses.txt", "mixed", smap) is None
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out) == expected


def test_the_command_prints_the_same_json_by_either_route(s3, monkeypatch, capsys):
    from hieradjudicate.app import scorer2_fast

    d, _ = s3
    for policy in POLICIES:
        argv = ["score", "--inventory", str(d / "EnglishLS.sensemap"), "--gold", str(d / "EnglishLS.test.key"),
                "--system", str(d / "answers" / "baseline_responses.txt"),
                "--system", str(d / "answers" / "common_words_run.txt"), "--policy", policy, "--format", "json"]
        assert main(argv) == 0
        by_bytes = capsys.readouterr()
        with monkeypatch.context() as m:
            m.setattr(scorer2_fast, "scan_key", lambda gold, systems: None)
            assert main(argv) == 0
            by_strict = capsys.readouterr()
        assert json.loads(by_bytes.out) == json.loads(by_strict.out)
        assert by_bytes.err == by_strict.err  # the same warnings


@pytest.mark.parametrize("answers", ["a.n a.n.X 1\na.n a.n.Y 3\n",  # as many lines as the key
                                     "a.n a.n.X 1\na.n a.n.Y 3\na.n a.n.Z 3\n"])  # more
def test_ids_that_hash_alike_but_differ_are_never_joined(tmp_path, monkeypatch, answers):
    """The join confirms every hash match byte for byte, in the same-order path and the other."""
    key, ans = tmp_path / "key.txt", tmp_path / "ans.txt"
    key.write_text("a.n a.n.1 1\na.n a.n.2 3\n")
    ans.write_text(answers)
    monkeypatch.setattr(senseval_scan, "_hash", lambda parts, length: np.arange(length.size, dtype=np.uint64))
    assert align(scan_senseval(str(key), "k"), scan_senseval(str(ans), "a")) is None


def test_a_weighted_gold_and_unknown_answers_warn_alike_by_either_route(tmp_path, monkeypatch, capsys):
    from hieradjudicate.app import scorer2_fast

    key, ans = tmp_path / "key.txt", tmp_path / "ans.txt"
    key.write_text("a.n a.n.1 1/0.5 2/0.5\na.n a.n.2 3\nb.v b.v.1 x\n")
    ans.write_text("a.n a.n.1 1\na.n a.n.9 3\nzz.n zz.n.1 x\nb.v b.v.1 y/0.5\n")
    argv = ["score", "--inventory", str(_sensemap(tmp_path)), "--gold", str(key), "--system", str(ans),
            "--policy", "mixed", "--format", "json"]
    assert main(argv) == 0
    by_bytes = capsys.readouterr()
    monkeypatch.setattr(scorer2_fast, "scan_key", lambda gold, systems: None)
    assert main(argv) == 0
    by_strict = capsys.readouterr()
    assert "weights" in by_bytes.err and "2 answer line(s) name an instance that is not in the gold (first: a.n a.n.9, zz.n zz.n.1)" in by_bytes.err
    assert json.loads(by_bytes.out)["systems"][0]["unknown_answers"] == 2
    assert (json.loads(by_bytes.out), by_bytes.err) == (json.loads(by_strict.out), by_strict.err)


def test_answers_whose_ids_are_all_shorter_than_the_keys_longest_still_join(tmp_path):
    """A hash that depended on the longest id of its file left every answer of such a file unscored."""
    key, ans = tmp_path / "key.txt", tmp_path / "ans.txt"
    key.write_text("a.n a.n.short 1\na.n a.n.a-much-longer-instance-id-than-eight-bytes 2\n")
    ans.write_text("a.n a.n.short 1\n")
    joined = align(scan_senseval(str(key), "k"), scan_senseval(str(ans), "a"))
    assert joined is not None
    assert joined[1].tolist() == [0]
    got = fast(key, ans, "fine", None)
    assert got is not None
    assert_same(strict(key, ans, "fine", None), got, key)
    assert (got.unknown_answers, got.recall) == (0, 0.5)


@pytest.mark.parametrize("block", [16, 300])
def test_files_read_in_blocks_shorter_than_their_lines_score_as_read_whole(s3, tmp_path, monkeypatch, block):
    """Key and answers are scanned a block of lines at a time and the answers joined block by block;
    blocks of any size (16 bytes: shorter than every line, which then grows the block) give the
    figures of the strict route, answers in the key's order or not."""
    d, smap = s3
    key, ans, in_order = tmp_path / "key.txt", tmp_path / "ans.txt", tmp_path / "in_order.txt"
    key_lines = (d / "EnglishLS.test.key").read_text().splitlines()[:120]
    lines = (d / "answers" / "baseline_responses.txt").read_text().splitlines()[:120]
    key.write_text("\n".join(key_lines) + "\n")
    in_order.write_text("\n".join(lines))
    ans.write_text("\n".join(lines[:50] + ["bank.n bank.n.not-in-key 1"] + lines[50:]) + "\n")  # shifted
    monkeypatch.setattr(senseval_scan, "BLOCK_BYTES", block)
    for policy in POLICIES:
        for answers, unknown in ((ans, 1), (in_order, 0)):
            b = fast(key, answers, policy, smap)
            assert b is not None and b.unknown_answers == unknown
            assert_same(strict(key, answers, policy, smap), b, key)
