"""The role the wizard proposes for an annotation file: annotator, system or gold (no Qt).

From the name first (``ALL.gold.key.txt`` is a gold; ``ALL.lesk_example.key.txt``, ``*.ans``,
``responses.csv`` or anything under the WSD framework's ``Output_Systems`` folders is a system's
output), then from the content: answers with weights (``tag/0.7``: probabilities) are what systems
write, not what annotators give.  Anything else is an annotator's file.  The user can always change
the guess; the wizard shows the role in its own column.
"""

from __future__ import annotations

import re
from pathlib import Path

ROLES = ("annotator", "system", "gold")
#: words of a file name (split at anything but letters and digits) that mark a system's output
SYSTEM_WORDS = frozenset({"system", "systems", "output", "outputs", "lesk", "ims", "ukb", "babelfy", "mfs",
                          "baseline", "responses", "response", "predictions", "predicted", "pred", "resnik",
                          "ewiser", "bem", "esc", "glossbert", "sensembert", "ares"})
GOLD_WORDS = frozenset({"gold", "reference", "goldstandard", "truth"})
SYSTEM_SUFFIXES = (".ans", ".answers", ".response", ".responses")
_WEIGHT = re.compile(r"\S/(0(\.\d+)?|1(\.0+)?|\.\d+)(\s|$)")  # tag/0.7: a probability after the tag
_SNIFF_LINES = 200


def name_words(path: str) -> list[str]:
    return [w for w in re.split(r"[^a-z0-9]+", Path(path).name.lower()) if w]


def guess_role(path: str, *, content: bool = True) -> tuple[str, str]:
    """``(role, why)`` for an annotation file; ``why`` says what decided it, for the wizard's tooltip.

    ``content=False`` goes by the name and folder alone (the file is not opened)."""
    p = Path(path)
    words = name_words(path)
    low = p.name.lower()
    if "annotator" in words or "annotators" in words:
        return "annotator", "the file name says annotator"
    if GOLD_WORDS & set(words):
        return "gold", "the file name says gold: a reference to score against"
    if any(part.lower().startswith("output_systems") or part.lower() == "systems" for part in p.parts[:-1]):
        return "system", "the file is in a systems' output folder"
    hit = sorted(SYSTEM_WORDS & set(words))
    if hit:
        return "system", f"the file name says {hit[0]}: a system's output"
    if low.endswith(SYSTEM_SUFFIXES):
        return "system", f"{p.suffix} files are systems' answers (Senseval)"
    if content and weighted_answers(path):
        return "system", "its answers carry weights (tag/probability): a system's output"
    return "annotator", "nothing marks it as a system's output or a gold standard"


def weighted_answers(path: str) -> bool:
    """Whether the first lines of a Senseval-style file give weights after their tags."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            head = f.read(1 << 16)  # a bounded read: a zip or a one-line JSON file has no short lines
    except OSError:
        return False
    return any(_WEIGHT.search(line.split("!!", 1)[0]) for line in head.splitlines()[:_SNIFF_LINES])
