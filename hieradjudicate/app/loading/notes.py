"""Notes about what a reader gave, small enough for the fast paths to import without the loader."""

from __future__ import annotations

import numpy as np


def weights_given(src) -> tuple[int, int | None]:
    """How many labels of a reader source carry an explicit weight, and the first one's line."""
    weight = getattr(src, "weight", None)
    if not isinstance(weight, np.ndarray) or not weight.size:
        return 0, None
    given = np.flatnonzero(~np.isnan(weight))
    if not given.size:
        return 0, None
    line = getattr(src, "line", None)
    first = int(line[given[0]]) if isinstance(line, np.ndarray) and line.size > given[0] else None
    return int(given.size), first


def gold_weights_note(path: str, n: int, line: int | None) -> str | None:
    """The warning for weights in a gold key: gold tags are disjunctive (scorer2.md), any one is
    right, so weights in it change nothing, and the user must not think they did."""
    if not n:
        return None
    where = f"{path}:{line}" if line is not None else path
    return (f"the gold {path} gives weights on {n} tag(s) (first at {where}); gold tags are disjunctive "
            "(any of them is correct), so these weights are ignored. Is this an answer file?")
