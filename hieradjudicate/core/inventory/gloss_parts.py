"""A WordNet gloss split into its definition and its examples.

WordNet's data files write a synset's gloss as ``definition; "example"; "example"`` (wndb(5WN): the
examples are the quoted parts at its end); the WordNet inventory reader keeps that whole, after a
``lemma#N:`` rank.  Other inventories' glosses hold no trailing quoted parts and come back whole.
"""

from __future__ import annotations

from hieradjudicate.core.inventory.labels import without_rank


def split_gloss(gloss: str) -> tuple[str, list[str]]:
    """``(definition, examples)`` of a gloss: the trailing ``;``-separated parts that begin with a
    double quote are the examples (quotes removed, in order); the rest, without a ``lemma#N:`` rank,
    is the definition.  A quote inside the definition (``followed by "to"``) stays in it."""
    body = without_rank(gloss).strip()
    parts = body.split(";")
    examples: list[str] = []
    while len(parts) > 1 and parts[-1].strip().startswith('"'):
        examples.append(parts.pop().strip())
    examples.reverse()
    cleaned = []
    for e in examples:
        inner = e[1:]
        cut = inner.rfind('"')
        # an attribution after the closing quote ("..." - Shakespeare) is kept after a dash
        cleaned.append(inner if cut < 0 else inner[:cut] + inner[cut + 1:])
    return ";".join(parts).strip(), [c.strip() for c in cleaned]
