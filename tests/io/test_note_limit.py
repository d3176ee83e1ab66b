"""The program keeps notes of at most NOTE_MAX characters (a server refuses a longer one too)."""

from __future__ import annotations

import pytest

from hieradjudicate.app.session.decisions import Decision
from hieradjudicate.io.store.records import NOTE_MAX, check_decision


def _d(note: str) -> Decision:
    return Decision("bank.n", "bank.n.001", ("1",), note=note, decided_by="x", decided_at="2026-01-01T00:00:00Z")


def test_a_note_at_the_limit_is_kept_and_one_above_refused_with_its_length() -> None:
    assert check_decision(_d("n" * NOTE_MAX))[5] == "n" * NOTE_MAX
    with pytest.raises(ValueError, match=f"{NOTE_MAX + 1:,} characters; at most {NOTE_MAX:,}"):
        check_decision(_d("n" * (NOTE_MAX + 1)))
