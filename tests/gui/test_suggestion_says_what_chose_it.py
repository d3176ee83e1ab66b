"""The detail panel's suggestion line says why an answer is suggested when no majority of the annotators
gave it as is, and calls "a tie" only what the rule could not tell apart (WSbest's account.n 1151 said
"A tie: account#6 has as many votes (1); A takes the first in project order" of a suggestion the rule
chose by the annotators' mass)."""

from __future__ import annotations

from hieradjudicate.app.workbench.queue import Workbench
from hieradjudicate.gui.workbench.suggestion_text import suggestion_html
from tests.core.helpers import annotation_source, build


def test_an_answer_chosen_by_the_mass_says_so_and_is_no_tie() -> None:
    c = build([annotation_source([("x.n", "i", "r1", [("A.1", None)]),
                                  ("x.n", "i", "r2", [("A.1a", None)]),
                                  ("x.n", "i", "r3", [("B.1", None)])])])
    text = suggestion_html(Workbench(c), 0)
    assert "chosen by 1 of 3 annotators (r1)" in text
    assert "; 67% of the sense mass falls within it" in text
    assert "A tie" not in text


def test_no_majority_and_a_real_tie_say_so() -> None:
    c = build([annotation_source([("x.n", "i", "r1", [("A.1a", None)]),
                                  ("x.n", "i", "r2", [("B.1", None)]),
                                  ("x.n", "i", "r3", [("B.1", None)]),
                                  ("x.n", "i", "r4", [("B.2", None)])])])
    text = suggestion_html(Workbench(c), 0)  # B.1: half the mass, not more, and the most
    assert "chosen by 2 of 4 annotators (r2, r3); no answer holds more than half the sense mass, this one the most (50%)" in text
    assert "A tie" not in text
    two = build([annotation_source([("x.n", "i", "r1", [("A.1a", None)]),
                                    ("x.n", "i", "r2", [("B.1", None)])])])
    text = suggestion_html(Workbench(two), 0)
    assert "A tie</b>: B.1, as much sense mass and as many votes; A takes the first in project order" in text


def test_a_majority_of_whole_answers_reads_as_before() -> None:
    c = build([annotation_source([("x.n", "i", "r1", [("A.1a", None)]),
                                  ("x.n", "i", "r2", [("A.1a", None)]),
                                  ("x.n", "i", "r3", [("B.1", None)])])])
    text = suggestion_html(Workbench(c), 0)
    assert "chosen by 2 of 3 annotators (r1, r2)" in text and "sense mass" not in text and "A tie" not in text
