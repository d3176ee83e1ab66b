"""What ``agree``, ``score`` and ``compare`` check before a figure gets its label (issue #35; no Qt).

* :func:`need_tree`: a granularity above the leaves needs a sense tree with parents.
* :func:`lexelt_policy`: an inventory that lacks lexelts of the input is refused as ``validate``
  calls it "NOT valid" (their senses would be scored as groups of their own: the coarse figure
  there is the fine one), unless ``--skip-bad-lines``, which goes on and says how much was not
  covered.
* :func:`gold_absent_lexelts`: those lexelts for the scorer2 route, which builds no corpus.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from hieradjudicate.core.errors import HieradjError


def need_tree(args: argparse.Namespace, inventory=None) -> None:
    """Refuse ``--granularity top|depth=N`` without an inventory, or with one that has no parent
    relations: every tag would be its own top sense and the "top" figure the leaf one."""
    what = f"--granularity {args.granularity}"
    if not args.inventory:
        raise HieradjError(f"{what} needs a sense tree, and no --inventory was given: without one every tag is "
                           "its own top sense and the figures would be the leaf figures under another label. "
                           "Give --inventory (a tree with parents, e.g. the demo's inventory.txt or a "
                           "Senseval sense map), or use --granularity leaf")
    if inventory is not None and inventory.n_nodes and int(inventory.node_parent.max()) < 0:
        given = ", ".join(str(p) for p in args.inventory)
        raise HieradjError(f"{what} needs a sense tree; the inventory given ({given}) has no parent relations, "
                           "so every sense is its own top sense and the figures would be the leaf figures "
                           "under another label. Give a tree with parents, or use --granularity leaf")


def lexelt_policy(args: argparse.Namespace, absent: list[str], *, of: str, consequence: str,
                  share: tuple[int, int] | None = None) -> None:
    """Refuse (exit 1) when ``absent`` lexelts of ``of`` (the annotations, the gold) are missing from
    the inventory given, as ``validate`` does; with ``--skip-bad-lines`` warn saying how much."""
    if not args.inventory or not absent:
        return
    text = (f"{len(absent)} lexelt(s) of {of} are absent from the inventory: " + ", ".join(absent[:20])
            + (" ..." if len(absent) > 20 else ""))
    if not getattr(args, "skip_bad_lines", False):
        raise HieradjError(f"{text}; {consequence}. `hieradjudicate validate` calls these inputs NOT valid; "
                           "give the inventory of these lexelts, or --skip-bad-lines to go on anyway")
    how_much = f"; {share[0]} of {share[1]} {of.removeprefix('the ')} instances are in them" if share else ""
    print(f"hieradjudicate: warning: {text}{how_much}; {consequence} (--skip-bad-lines)", file=sys.stderr)


def corpus_absent(corpus) -> list[str]:
    """The corpus's lexelts that no inventory file names (validate's ``unknown_lexelts``)."""
    inv = corpus.inventory
    return sorted(set(inv.lexelts) - inv.known_lexelts)


def gold_absent_lexelts(lexelts: list[str], label_lexelt: np.ndarray, label_tag: np.ndarray, tags: list[str],
                        records) -> tuple[list[str], np.ndarray]:
    """The gold's lexelts the inventory records do not cover, and a mask over ``lexelts``.

    A record names its lexelt, or (a Senseval sense map) none: it then belongs to the lexelt whose
    tags use its sense, as :class:`~hieradjudicate.core.inventory.inventory.Inventory` attaches it."""
    named = {r.lexelt for r in records if r.lexelt is not None}
    free = {r.sense for r in records if r.lexelt is None}
    covered = np.asarray([x in named for x in lexelts], dtype=bool)
    if free and label_tag.size:
        tag_free = np.asarray([t in free for t in tags], dtype=bool)
        hit = np.asarray(label_lexelt)[tag_free[np.asarray(label_tag)]]  # (int32 codes index as they are)
        covered[hit] = True  # a scatter, not np.unique: no sort of every label (nor numpy.ma's import)
    return sorted(x for x, c in zip(lexelts, covered) if not c), ~covered
