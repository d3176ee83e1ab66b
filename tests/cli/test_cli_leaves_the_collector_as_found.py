"""A command run in the caller's process (as the tests run them) leaves Python's cycle collector as
it found it: the CLI pauses it while the command's modules are imported and freezes their objects for
the command's run, then thaws them -- nothing stays frozen, and collection is on again if it was on
(another test in the same worker may have switched it off for good: the window's rule)."""

from __future__ import annotations

import gc

import pytest

from hieradjudicate.cli.entry import main


@pytest.fixture
def senseval_pair(tmp_path):
    key, ans = tmp_path / "key.txt", tmp_path / "answers.txt"
    key.write_text("bank.n bank.n.1 1\nbank.n bank.n.2 2\n")
    ans.write_text("bank.n bank.n.1 1\nbank.n bank.n.2 1\n")
    return str(key), str(ans)


def test_score_leaves_nothing_frozen_and_collection_as_it_was(senseval_pair, capsys):
    key, ans = senseval_pair
    enabled = gc.isenabled()
    assert gc.get_freeze_count() == 0  # the premise
    assert main(["score", "--gold", key, "--system", ans, "--policy", "fine"]) == 0
    assert "0.500" in capsys.readouterr().out
    assert gc.get_freeze_count() == 0
    assert gc.isenabled() == enabled


def test_a_failing_command_thaws_too(tmp_path, capsys):
    missing = str(tmp_path / "missing.txt")
    enabled = gc.isenabled()
    assert gc.get_freeze_count() == 0  # the premise
    assert main(["score", "--gold", missing, "--system", missing, "--policy", "fine"]) == 1
    assert "missing.txt" in capsys.readouterr().err
    assert gc.get_freeze_count() == 0
    assert gc.isenabled() == enabled


def test_a_freeze_made_before_the_command_is_left_in_place(senseval_pair, capsys):
    key, ans = senseval_pair
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        assert frozen > 0
        assert main(["score", "--gold", key, "--system", ans, "--policy", "fine"]) == 0
        assert gc.get_freeze_count() > frozen // 2  # not thawed by the command (a few frozen objects may be freed)
    finally:
        gc.unfreeze()
    capsys.readouterr()
