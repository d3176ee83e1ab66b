"""Indented outlines, the hand-written inventory format.

::

    # lexelt interest.n
    1: readiness to give attention
      1.1: a sense of concern with something
    2: money paid for the use of money

A line ``# lexelt NAME`` starts each lexelt, other ``#`` lines are comments,
blank lines are ignored; two spaces of indentation per level; ``id: gloss``
with the gloss optional.  The id ends at the first ``": "`` so WordNet keys
(``art%1:06:00::: gloss``) work.
"""

from __future__ import annotations

import re

from hieradjudicate.core.errors import ProblemLog
from hieradjudicate.core.records import SenseRecord

LEXELT_LINE = re.compile(r"#\s*lexelt\s+(\S+)\s*$", re.IGNORECASE)


def split_id_gloss(content: str) -> tuple[str, str]:
    """Split ``id: gloss`` (gloss optional) at the first ``": "``."""
    cut = content.find(": ")
    if cut >= 0:
        return content[:cut].strip(), content[cut + 2:].strip()
    if content.endswith(":") and content.count(":") == 1:
        return content[:-1].strip(), ""
    return content.strip(), ""


def parse_outline(text: str, log: ProblemLog) -> list[SenseRecord]:
    """Read an outline into records (duplicates are left to tree validation).

    Indentation that is not a multiple of two spaces, a jump of more than
    one level, a tab in the indentation or a sense before any lexelt line is
    an error and the line is skipped; so are its deeper lines (their parent
    is unknown).
    """
    senses: list[SenseRecord] = []
    lexelt: str | None = None
    seen_lexelts: dict[str, int] = {}
    stack: list[str | None] = []  # ids of the open ancestors; None = a skipped line
    for lineno, raw in enumerate(text.split("\n"), start=1):
        if not raw.strip():
            continue
        stripped = raw.strip()
        if stripped.startswith("#"):
            m = LEXELT_LINE.fullmatch(stripped)
            if m:
                lexelt = m.group(1)
                if lexelt in seen_lexelts:
                    log.warning(lineno, f"lexelt {lexelt!r} starts again (first at line "
                                f"{seen_lexelts[lexelt]}); its senses are merged")
                else:
                    seen_lexelts[lexelt] = lineno
                stack = []
            continue
        body = raw.rstrip()
        indent_text = body[: len(body) - len(body.lstrip())]
        if "\t" in indent_text:
            log.error(lineno, "tab in the indentation; expected two spaces per level", 1)
            _skip_subtree(stack, len(indent_text.expandtabs(2)) // 2)
            continue
        indent = len(indent_text)
        if lexelt is None:
            log.error(lineno, "sense before any lexelt line; expected '# lexelt NAME' first")
            continue
        if indent % 2:
            log.error(lineno, f"indentation of {indent} spaces; expected a multiple of two "
                      "(two spaces per level)", indent + 1)
            _skip_subtree(stack, (indent + 1) // 2)
            continue
        level = indent // 2
        if level > len(stack):
            log.error(lineno, f"indentation jumps from level {len(stack) - 1 if stack else 0} to "
                      f"level {level}; expected at most one level deeper than the line above",
                      indent + 1)
            continue
        del stack[level:]
        if stack and stack[-1] is None:
            log.error(lineno, "the parent line of this sense was skipped; expected a valid "
                      "parent above it", indent + 1)
            stack.append(None)
            continue
        sense, gloss = split_id_gloss(body[indent:])
        if not sense or any(c.isspace() for c in sense):
            log.error(lineno, f"sense id {sense!r} is empty or contains spaces; expected "
                      "'id: gloss' with an id without spaces", indent + 1)
            stack.append(None)
            continue
        senses.append(SenseRecord(lexelt=lexelt, sense=sense, parent=stack[-1] if stack else None,
                                  gloss=gloss, line=lineno, file=log.file))
        stack.append(sense)
    return senses


def _skip_subtree(stack: list[str | None], level: int) -> None:
    """Mark ``level`` as a skipped line so its deeper lines are skipped too."""
    level = max(0, min(level, len(stack)))
    del stack[level:]
    stack.append(None)


def looks_like_outline(lines: list[str]) -> bool:
    """True when a ``# lexelt NAME`` line is among these lines."""
    return any(LEXELT_LINE.fullmatch(line.strip()) for line in lines)
