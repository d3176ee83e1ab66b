"""Issue 31 (minor): the confusion matrix opens on the most informative pair -- of the sets compared,
the one that answered the most instances of the lexelt shown together -- and says why (a crowd's first
two workers, "9 × 98" on MASC, often share none of it)."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

from hieradjudicate.app.dashboard.dashboard import Dashboard
from hieradjudicate.app.session.session import Session
from tests.crowd import crowd_project


def test_the_confusion_opens_on_the_pair_sharing_most_of_its_lexelt_and_says_why(tmp_path: Path) -> None:
    path = crowd_project(tmp_path / "crowd40.hadj", 40, per_item=5)
    with Session.open(path, read_only=True) as s:
        dash = Dashboard(s.corpus)
        data = dash.compute(None, None)
        cf = data.confusion
        assert cf is not None and cf.pair is not None
        x = cf.x
        answered = {k: {int(r) for r in s.corpus.sets[k].rows if int(s.corpus.inst_lexelt[r]) == x}
                    for k in dash.group}
        shared = {(a, b): len(answered[a] & answered[b]) for a, b in combinations(dash.group, 2)}
        most = max(shared.values())
        assert shared[cf.pair] == most > shared[(dash.group[0], dash.group[1])]
        assert cf.n == most  # the matrix rests on those instances
        a, b = (s.corpus.sets[k].name for k in cf.pair)
        assert cf.why.startswith(f"Opened on {a} × {b}:") and f"({most})" in cf.why
        assert cf.why in cf.explain.text()
