"""A project made without an inventory (an INCEpTION export's entity links, say): every tag the
annotations use becomes a sense of its own, with no tree and no gloss.  The window then names the
tags as tags and says so where a sense tree would be (#31)."""

from __future__ import annotations

from typing import Any

import numpy as np

#: what the window says where the sense tree would be
NO_INVENTORY = "No inventory: every tag is its own sense"


def tags_only(inv: Any) -> bool:
    """True when no node comes from an inventory file: every node is a tag of the annotations
    (``node_outside``), none is a sense the inventory lists (the same count as ``summary()['senses']``)."""
    if inv.n_nodes == 0:
        return False
    return not bool((~np.asarray(inv.node_outside, bool) & (np.asarray(inv.node_self_of) < 0)).any())


__all__ = ["NO_INVENTORY", "tags_only"]
