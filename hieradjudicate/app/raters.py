"""Who counts as an annotator: the sets an "among annotators" figure compares, and the note that
says so (the rule is :mod:`hieradjudicate.app.session.batch`'s, kept here so that ``agree`` does not
import the session's decision machinery)."""

from __future__ import annotations

from collections.abc import Sequence

from hieradjudicate.core.model import Corpus


def annotator_sets(corpus: Corpus, *, include_systems: bool = False) -> list[int]:
    """Indices of the sets whose answers are compared: role ``annotator`` (and ``system`` when
    ``include_systems``), in project order; see the module docstring."""
    roles = ("annotator", "system") if include_systems else ("annotator",)
    return [k for k, s in enumerate(corpus.sets) if s.role in roles]


def rater_note(corpus: Corpus, sets: Sequence[int], *, include_systems: bool = False) -> str:
    """The sets an "among annotators" figure used, and the systems it left out, in words."""
    used = ", ".join(corpus.sets[k].name for k in sets) or "none"
    systems = [s.name for s in corpus.sets if s.role == "system"]
    if include_systems:
        return f"sets compared as annotators: {used}" + (
            f" (systems included: {', '.join(systems)})" if systems else "")
    text = f"annotator sets compared: {used}"
    if systems:
        text += f"; system set(s) not counted as annotators: {', '.join(systems)}"
    return text
