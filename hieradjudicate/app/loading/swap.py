"""Whether ``--gold`` and ``--system`` were given the other way round (no Qt).

A swapped pair is scored without complaint and gives a plausible figure, so the command says so
where the files themselves tell (issue #35):

* a *role*: the gold given as ``PATH:system``, a system as ``PATH:gold``;
* a *name*: the gold's file name marks a system's output (``lesk``, ``baseline``, ``responses``,
  ``*.ans``, the WSD framework's ``*_example.key.txt``), a system's marks a gold (``*gold*``);
* *several tags*: a system's lines carry several tags without weights -- the disjunctive
  alternatives of a key -- while the gold has none;
* *coverage*, said only beside one of those: a system answers every instance of the gold and a
  tenth as many again that the gold lacks.  Alone it is no sign: a gold still being adjudicated
  (or exported with its decided instances only) is smaller than a system's answers too.

Weights in the gold are told apart by :func:`~hieradjudicate.app.loading.notes.gold_weights_note`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from hieradjudicate.app.loading.roles import guess_role


class Shape:
    """What one file of a scoring run shows of its nature.  (A plain class: ``score`` imports it
    at every start, and a dataclass costs about a millisecond to make.)"""

    def __init__(self, path: str, role: str | None = None, multi_unweighted: int = 0, answers_all: bool = False,
                 beyond_gold: int = 0, gold_total: int = 0) -> None:
        self.path = path
        self.role = role  # the role written after the path (``PATH:system``), if any
        self.multi_unweighted = multi_unweighted  # lines (instances) with several tags and no weight
        self.answers_all = answers_all  # a system: every gold instance answered ...
        self.beyond_gold = beyond_gold  # ... and this many instances the gold does not have
        self.gold_total = gold_total  # the gold's instances

    def __repr__(self) -> str:
        return (f"Shape(path={self.path!r}, role={self.role!r}, multi_unweighted={self.multi_unweighted!r}, "
                f"answers_all={self.answers_all!r}, beyond_gold={self.beyond_gold!r}, gold_total={self.gold_total!r})")


def multi_unweighted(item: np.ndarray, weight: np.ndarray, n_items: int) -> int:
    """Items with several labels none of which has a weight (``weight`` NaN = none given)."""
    item = np.asarray(item)
    if item.size == 0 or item.size <= n_items and bool((item[1:] > item[:-1]).all()):
        return 0  # no item twice (one label a line, in order: the usual answer file)
    n = np.bincount(item, minlength=n_items)
    given = ~np.isnan(np.asarray(weight, dtype=np.float64))
    if not given.any():  # no weight anywhere (the usual key): every item with several labels
        return int(np.count_nonzero(n > 1))
    weighted = np.bincount(item, weights=given, minlength=n_items)
    return int(((n > 1) & (weighted == 0)).sum())


def _named(path: str, role: str) -> bool:
    got, why = guess_role(path, content=False)  # the name and folder only: the scan read the content
    return got == role and "name" in why or got == role == "system" and "folder" in why


def swap_warning(gold: Shape, systems: list[Shape]) -> str | None:
    """One sentence naming every sign that the gold and a system were swapped, or ``None``."""
    signs: list[str] = []
    if gold.role == "system":
        signs.append(f"the gold is given the role system ({Path(gold.path).name}:system)")
    signs += [f"a system is given the role gold ({Path(s.path).name}:gold)" for s in systems if s.role == "gold"]
    if gold.role is None and _named(gold.path, "system"):
        signs.append(f"the gold's file name marks a system's output ({Path(gold.path).name})")
    signs += [f"a system's file name marks a gold ({Path(s.path).name})"
              for s in systems if s.role is None and _named(s.path, "gold")]
    if gold.multi_unweighted == 0:
        signs += [f"{Path(s.path).name} gives several tags without weights on {s.multi_unweighted} "
                  "instance(s), as a key lists the alternatives, while the gold gives one tag everywhere"
                  for s in systems if s.multi_unweighted]
    if not signs:
        return None
    signs += [f"{Path(s.path).name} answers every instance of the gold and {s.beyond_gold} the gold lacks"
              for s in systems if s.answers_all and s.beyond_gold and s.beyond_gold * 10 >= s.gold_total]
    names = ", ".join(Path(s.path).name for s in systems)
    return (f"--gold {Path(gold.path).name} and --system {names} look swapped: " + "; ".join(signs)
            + ". --gold takes the reference key, --system the answers to score")
