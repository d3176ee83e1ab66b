"""Issue 31 (minor): sorting by Context sorts the sentences themselves, not the clipped snippets
(which start mid-sentence, often with "…")."""

from __future__ import annotations

from pathlib import Path

from hieradjudicate.app.demo import ensure_demo_project
from hieradjudicate.app.session.session import Session
from hieradjudicate.app.workbench.queue import Workbench


def test_sorting_by_context_orders_the_whole_sentences(tmp_path: Path) -> None:
    with Session.open(ensure_demo_project(tmp_path / "demo.hadj"), read_only=True) as s:
        wb = Workbench(s.corpus)
        contexts = s.corpus.contexts
        assert len(contexts) == s.corpus.n
        view = wb.set_sort("kwic")
        texts = [" ".join(contexts[int(i)].text.split()).casefold() for i in view]
        assert texts == sorted(texts)  # an independent order: Python's own sort of the sentences
