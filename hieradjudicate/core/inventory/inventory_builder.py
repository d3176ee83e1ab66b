"""Merging inventory statements (from every file) into a compiled :class:`Inventory`.

Sense-map records carry no lexelt; the builder attaches them through senses of
known lexelts (the dictionary), the tags the annotations use in each lexelt,
or the lemma of a WordNet sense key, and reports contradictions (two parents,
two branching factors), unknown parents, cycles and bad weights.
"""

from __future__ import annotations

import numpy as np

from hieradjudicate.core.errors import InventoryError, Problem
from hieradjudicate.core.inventory.inventory import SELF_SUFFIX, Inventory, _Node, wordnet_lexelt


class InventoryBuilder:
    """Merges :class:`~hieradjudicate.core.records.SenseRecord` statements into an inventory.

    Sense-map records carry no lexelt; :meth:`build` attaches them through
    senses of known lexelts (the dictionary), the tags the annotations use in
    each lexelt, or the lemma of a WordNet sense key.
    """

    def __init__(self) -> None:
        self._nodes: dict[tuple[str, str], _Node] = {}
        self._loose: dict[str, _Node] = {}
        self.problems: list[Problem] = []
        self._fatal = 0

    def _err(self, where: str, msg: str, fatal: bool = True) -> None:
        file, _, line = where.rpartition(":")
        self.problems.append(Problem(file or where, int(line) if line.isdigit() else None, msg,
                                     severity="error" if fatal else "warning"))
        self._fatal += fatal

    def add(self, records) -> None:
        for r in records:
            where = f"{r.file}:{r.line}" if r.line is not None else r.file
            key = (r.lexelt, r.sense) if r.lexelt is not None else None
            node = self._nodes.get(key) if key else self._loose.get(r.sense)
            if node is None:
                node = _Node(r.lexelt or "", r.sense, r.parent, r.gloss, r.weight, r.branching,
                             set(r.aliases), where)
                if key:
                    self._nodes[key] = node
                else:
                    self._loose[r.sense] = node
                continue
            self._merge(node, r, where)

    def _merge(self, node: _Node, r, where: str) -> None:
        if r.parent is not None:
            if node.parent is None:
                node.parent = r.parent
            elif node.parent != r.parent:
                self._err(where, f"sense {r.sense!r} is given parent {r.parent!r} here but "
                          f"{node.parent!r} at {node.where}; expected one parent (the tree is IS-A)")
        if r.branching is not None:
            if node.branching is None:
                node.branching = r.branching
            elif node.branching != r.branching:
                self._err(where, f"sense {r.sense!r} has branching factor {r.branching} here but "
                          f"{node.branching} at {node.where}; expected one value")
        if r.gloss and not node.gloss:
            node.gloss = r.gloss
        if r.weight is not None:
            node.weight = r.weight
        node.aliases.update(r.aliases)

    def build(self, annotation_tags: dict[str, set[str]] | None = None) -> Inventory:
        """Compile.  ``annotation_tags`` maps lexelt -> tags the annotations use in it;
        tags not in the inventory become leaves of their own (``outside``)."""
        annotation_tags = annotation_tags or {}
        by_lex: dict[str, dict[str, _Node]] = {}
        for (lex, sense), n in self._nodes.items():
            by_lex.setdefault(lex, {})[sense] = n
        self._attach_loose(by_lex, annotation_tags)
        for lex, tags in annotation_tags.items():
            by_lex.setdefault(lex, {})
        for lex, nodes in by_lex.items():
            self._check_tree(lex, nodes)
        if self._fatal:
            raise InventoryError([p for p in self.problems if p.severity == "error"][:50])
        for lex, nodes in by_lex.items():
            kids = _child_counts(nodes)  # once per lexelt: counting per sense would be n^2
            for sense, n in list(nodes.items()):
                k = kids.get(sense, 0)
                if n.branching is not None and n.branching > k and k > 0:
                    self_id = sense + SELF_SUFFIX
                    nodes[self_id] = _Node(lex, self_id, sense, n.gloss, None, None, set(), n.where,
                                           self_of=sense)
            aliases = {a for n in nodes.values() for a in n.aliases}
            for tag in sorted(annotation_tags.get(lex, ())):
                if tag not in nodes and tag not in aliases:
                    nodes[tag] = _Node(lex, tag, None, "", None, None, set(), "", outside=True)
        inv = Inventory({lex: list(nodes.values()) for lex, nodes in by_lex.items()}, self.problems)
        # explicit weights with branching: listed children share k/b, the self leaf the rest
        down = inv.downward.copy()
        for i in np.flatnonzero(inv.node_self_of >= 0):
            p = int(inv.node_parent[i])
            node = by_lex[inv.lexelts[inv.node_lexelt[i]]][inv.node_id[p]]
            kids = inv.children(p)
            listed = kids[kids != i]
            b = float(node.branching)
            share = listed.size / b
            if np.isnan(inv._raw_weight[listed]).all():
                down[listed] = 1.0 / b
            else:
                w = np.where(np.isnan(inv._raw_weight[listed]), 1.0, inv._raw_weight[listed])
                down[listed] = share * w / w.sum()
            down[i] = 1.0 - share
        inv.set_downward(down)
        return inv

    def _attach_loose(self, by_lex: dict[str, dict[str, _Node]], annotation_tags: dict[str, set[str]]) -> None:
        if not self._loose:
            return
        owner: dict[str, set[str]] = {}
        for lex, nodes in by_lex.items():
            for s, n in nodes.items():
                owner.setdefault(s, set()).add(lex)
                for a in n.aliases:
                    owner.setdefault(a, set()).add(lex)
        for lex, tags in annotation_tags.items():
            for t in tags:
                owner.setdefault(t, set()).add(lex)
        # connected components of loose senses through parent links
        comp: dict[str, str] = {}

        def find(s: str) -> str:
            root = s
            while comp.get(root, root) != root:
                root = comp[root]
            while s != root:  # path compression: a chain 16,000 deep stays linear
                comp[s], s = root, comp[s]
            return root

        for s, n in self._loose.items():
            comp.setdefault(s, s)
            if n.parent is not None and n.parent in self._loose:
                comp.setdefault(n.parent, n.parent)
                ra, rb = find(s), find(n.parent)
                if ra != rb:
                    comp[ra] = rb
        groups: dict[str, list[str]] = {}
        for s in self._loose:
            groups.setdefault(find(s), []).append(s)
        for members in groups.values():
            lexes: set[str] = set()
            for s in members:
                lexes |= owner.get(s, set())
                wl = wordnet_lexelt(s)
                if wl and wl in by_lex:
                    lexes.add(wl)
            if not lexes:
                for s in members:
                    self._err(self._loose[s].where, f"sense {s!r} belongs to no lexelt (not in the "
                              "dictionary, the annotations or a WordNet key); it was left out", fatal=False)
                continue
            for lex in sorted(lexes):
                nodes = by_lex.setdefault(lex, {})
                for s in members:
                    loose = self._loose[s]
                    if s in nodes:
                        n = nodes[s]
                        if loose.parent and n.parent and loose.parent != n.parent:
                            self._err(loose.where, f"sense {s!r} of {lex} has two parents: "
                                      f"{n.parent!r} and {loose.parent!r}; expected one")
                        n.parent = n.parent or loose.parent
                        n.branching = n.branching if n.branching is not None else loose.branching
                    else:
                        nodes[s] = _Node(lex, s, loose.parent, loose.gloss, loose.weight,
                                         loose.branching, set(loose.aliases), loose.where)

    def _check_tree(self, lex: str, nodes: dict[str, _Node]) -> None:
        for s, n in nodes.items():
            if n.parent is not None and n.parent not in nodes:
                self._err(n.where, f"sense {s!r} of {lex} names parent {n.parent!r}, which does not "
                          "exist; expected a sense of the same lexelt")
                n.parent = None
            if n.weight is not None and not (np.isfinite(n.weight) and n.weight > 0):
                self._err(n.where, f"sense {s!r} of {lex} has weight {n.weight!r}; expected a positive number")
        kids = _child_counts(nodes)
        for s, n in nodes.items():
            if n.branching is not None:
                k = kids.get(s, 0)
                if n.branching < max(k, 1):
                    self._err(n.where, f"sense {s!r} of {lex} has branching factor {n.branching} but "
                              f"{k} listed children; expected at least {max(k, 1)}")
        # cycles: one walk per sense that stops at anything already visited (linear in senses)
        state: dict[str, int] = {}  # 1 = on the current walk, 2 = done
        for s in nodes:
            walk: list[str] = []
            cur: str | None = s
            while cur is not None and cur not in state:
                state[cur] = 1
                walk.append(cur)
                cur = nodes[cur].parent
            if cur is not None and state[cur] == 1:
                self._err(nodes[s].where, f"sense {s!r} of {lex} is its own ancestor (a cycle "
                          f"through {cur!r}); expected a tree")
                nodes[cur].parent = None  # break the cycle so that later steps terminate
            for c in walk:
                state[c] = 2


def _child_counts(nodes: dict[str, _Node]) -> dict[str, int]:
    """How many senses of one lexelt name each sense as their parent."""
    counts: dict[str, int] = {}
    for n in nodes.values():
        if n.parent is not None:
            counts[n.parent] = counts.get(n.parent, 0) + 1
    return counts
