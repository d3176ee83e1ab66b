"""Hierarchical sense inventories: a forest of senses per lexelt, compiled to arrays.

Nodes of all lexelts share one global index space.  A tag names a node of its
own lexelt only (``U`` of ``bank.n`` and ``U`` of ``art.n`` are different
nodes).  Leaves of a lexelt have *local* indices ``0..n_leaves-1``; a leaf
vector is a row of length ``K = max(n_leaves)``.  The leaf distribution
``D(t)`` of every node is computed once and stored as a CSR matrix (nodes x
local leaves): ``d_ptr``, ``d_leaf``, ``d_prob``.

Reference: Melamed & Resnik, "Tagger evaluation given hierarchical tag sets"
(downward probabilities, leaf distributions); Senseval sense maps for
branching factors and the group head's own "self" leaf.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from hieradjudicate.core.errors import Problem

SELF_SUFFIX = "#self"
_WN_POS = {"1": "n", "2": "v", "3": "a", "4": "r", "5": "a"}


@dataclass
class _Node:
    lexelt: str
    sense: str
    parent: str | None = None
    gloss: str = ""
    weight: float | None = None
    branching: int | None = None
    aliases: set[str] = field(default_factory=set)
    where: str = ""  # "file:line" of the first statement
    outside: bool = False  # a tag used by annotations but absent from the inventory
    self_of: str | None = None  # for a self leaf: the sense it is the self of


def wordnet_lexelt(sense: str) -> str | None:
    """``art%1:06:00::`` -> ``art.n`` (WordNet sense keys start with the lemma)."""
    lemma, pct, rest = sense.partition("%")
    if not pct or not lemma or not rest:
        return None
    pos = _WN_POS.get(rest[:1])
    return f"{lemma}.{pos}" if pos else None


def pos_of_lexelt(lexelt: str) -> str:
    """Part of speech from the lexelt suffix (``interest.n``, ``add-v``); ``?`` if none."""
    for sep in (".", "-", "#", "_"):
        head, s, tail = lexelt.rpartition(sep)
        if s and head and tail in ("n", "v", "a", "r", "j", "adj", "adv", "noun", "verb"):
            return {"j": "a", "adj": "a", "adv": "r", "noun": "n", "verb": "v"}.get(tail, tail)
    return "?"


class Inventory:
    """A compiled inventory.  Build it with :class:`InventoryBuilder`.

    Attributes (all numpy arrays indexed by global node id unless stated)
    ----------
    lexelts : list[str]            lexelt names, sorted
    node_id : list[str]            the sense id (tag string) of each node
    node_lexelt, node_parent       int (parent -1 at top level)
    node_depth                     int, top level = 1
    node_leaf                      local leaf index, -1 for internal nodes
    node_outside                   bool, tag absent from the inventory files
    node_gloss : list[str]
    lexelt_nodes : list[np.ndarray] nodes of each lexelt in tree (pre-)order
    lexelt_leaf_nodes : list[np.ndarray] global node of each local leaf
    n_leaves : np.ndarray (X,)
    d_ptr, d_leaf, d_prob          CSR leaf distributions
    """

    def __init__(self, nodes_by_lexelt: dict[str, list[_Node]], problems: list[Problem]):
        self.problems = problems
        self.lexelts: list[str] = sorted(nodes_by_lexelt)
        self._lexelt_index = {name: i for i, name in enumerate(self.lexelts)}
        self.known_lexelts: set[str] = set()
        ids: list[str] = []
        lex: list[int] = []
        parent: list[int] = []
        gloss: list[str] = []
        outside: list[bool] = []
        weight: list[float] = []
        self_of: list[int] = []
        self._lookup: list[dict[str, int]] = []
        self.lexelt_nodes: list[np.ndarray] = []
        for x, name in enumerate(self.lexelts):
            nodes = _preorder(nodes_by_lexelt[name])
            if any(not n.outside for n in nodes):
                self.known_lexelts.add(name)
            base = len(ids)
            local = {n.sense: base + i for i, n in enumerate(nodes)}
            look: dict[str, int] = {}
            for n in nodes:
                for a in n.aliases:
                    look.setdefault(a, local[n.sense])
            for n in nodes:
                if n.self_of is None:
                    look[n.sense] = local[n.sense]
            self._lookup.append(look)
            for n in nodes:
                ids.append(n.sense)
                lex.append(x)
                parent.append(local[n.parent] if n.parent is not None else -1)
                gloss.append(n.gloss)
                outside.append(n.outside)
                weight.append(float("nan") if n.weight is None else float(n.weight))
                self_of.append(local[n.self_of] if n.self_of is not None else -1)
            self.lexelt_nodes.append(np.arange(base, len(ids), dtype=np.int64))
        self.node_id = ids
        self.node_gloss = gloss
        self.node_lexelt = np.asarray(lex, dtype=np.int64)
        self.node_parent = np.asarray(parent, dtype=np.int64)
        self.node_outside = np.asarray(outside, dtype=bool)
        self.node_self_of = np.asarray(self_of, dtype=np.int64)
        self._raw_weight = np.asarray(weight, dtype=np.float64)
        n = len(ids)
        depth = np.ones(n, dtype=np.int64)
        for i in range(n):  # pre-order: parents come first
            if parent[i] >= 0:
                depth[i] = depth[parent[i]] + 1
        self.node_depth = depth
        n_children = np.bincount(self.node_parent[self.node_parent >= 0], minlength=n)
        self.node_is_leaf = n_children == 0
        self.node_leaf = np.full(n, -1, dtype=np.int64)
        self.lexelt_leaf_nodes = []
        for x in range(len(self.lexelts)):
            nodes = self.lexelt_nodes[x]
            leaves = nodes[self.node_is_leaf[nodes]]
            self.node_leaf[leaves] = np.arange(leaves.size)
            self.lexelt_leaf_nodes.append(leaves)
        self.n_leaves = np.asarray([a.size for a in self.lexelt_leaf_nodes], dtype=np.int64)
        self.K = int(self.n_leaves.max()) if self.n_leaves.size else 0
        self.set_downward(self._uniform_downward())

    # -- look-ups -------------------------------------------------------------
    @property
    def n_nodes(self) -> int:
        return len(self.node_id)

    def lexelt_index(self, lexelt: str) -> int:
        """Index of a lexelt, or -1."""
        return self._lexelt_index.get(lexelt, -1)

    def lookup(self, lexelt: int | str, tag: str) -> int:
        """Global node of ``tag`` within ``lexelt`` (id or alias), or -1."""
        x = lexelt if isinstance(lexelt, (int, np.integer)) else self.lexelt_index(lexelt)
        if x < 0:
            return -1
        return self._lookup[x].get(tag, -1)

    def children(self, node: int) -> np.ndarray:
        nodes = self.lexelt_nodes[int(self.node_lexelt[node])]
        return nodes[self.node_parent[nodes] == node]

    def label(self, node: int) -> str:
        """Display label: self leaves read ``38204 (itself)``."""
        s = self.node_self_of[node]
        return f"{self.node_id[s]} (itself)" if s >= 0 else self.node_id[node]

    def distribution(self, node: int) -> dict[str, float]:
        """``D(node)`` as {leaf label: probability} (for display and tests)."""
        a, b = self.d_ptr[node], self.d_ptr[node + 1]
        leaves = self.lexelt_leaf_nodes[int(self.node_lexelt[node])]
        return {self.label(int(leaves[j])): float(p) for j, p in zip(self.d_leaf[a:b], self.d_prob[a:b])}

    def max_depth(self) -> int:
        return int(self.node_depth.max()) if self.n_nodes else 0

    # -- downward probabilities and D(t) ---------------------------------------
    def _uniform_downward(self) -> np.ndarray:
        """Uniform by default; explicit weights normalised per parent; branching factors."""
        n = self.n_nodes
        down = np.ones(n, dtype=np.float64)
        par = self.node_parent
        has_parent = par >= 0
        kids = np.bincount(par[has_parent], minlength=n).astype(np.float64)
        w = self._raw_weight.copy()
        explicit = has_parent & ~np.isnan(w)
        # parents where some child has an explicit weight: children without one get weight 1
        w_par = np.zeros(n, dtype=bool)
        w_par[par[explicit]] = True
        w = np.where(np.isnan(w), 1.0, w)
        wsum = np.bincount(par[has_parent], weights=w[has_parent], minlength=n)
        down[has_parent] = np.where(
            w_par[par[has_parent]], w[has_parent] / wsum[par[has_parent]], 1.0 / kids[par[has_parent]]
        )
        return down

    def set_downward(self, down: np.ndarray) -> None:
        """Set ``P(node | parent)`` for every node and recompute every ``D(t)``."""
        self.downward = np.asarray(down, dtype=np.float64)
        n = self.n_nodes
        # D(t): leaf ancestors walk. Each leaf contributes prod of downward probs up to each ancestor.
        rows: list[np.ndarray] = []
        cols: list[np.ndarray] = []
        vals: list[np.ndarray] = []
        leaves = np.flatnonzero(self.node_is_leaf)
        cur = leaves.copy()
        prob = np.ones(leaves.size)
        local = self.node_leaf[leaves]
        while cur.size:
            rows.append(cur)
            cols.append(local)
            vals.append(prob)
            up = self.node_parent[cur]
            keep = up >= 0
            prob = prob[keep] * self.downward[cur[keep]]
            cur, local = up[keep], local[keep]
        r = np.concatenate(rows) if rows else np.zeros(0, np.int64)
        c = np.concatenate(cols) if cols else np.zeros(0, np.int64)
        v = np.concatenate(vals) if vals else np.zeros(0)
        order = np.lexsort((c, r))
        self.d_leaf = c[order]
        self.d_prob = v[order]
        self.d_ptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(r, minlength=n), out=self.d_ptr[1:])

    def estimate_downward(self, leaf_counts: np.ndarray) -> None:
        """Downward probabilities from corpus counts of leaves, add-one smoothed.

        ``P(c | p) = (N(c) + 1) / sum_{c' child of p} (N(c') + 1)`` with ``N`` the
        number of leaf tags at or below a node.  ``leaf_counts`` is per node.
        """
        sub = np.asarray(leaf_counts, dtype=np.float64).copy()
        order = np.argsort(-self.node_depth, kind="stable")
        for i in order:  # deepest first: accumulate subtree counts (loop over nodes, not instances)
            p = self.node_parent[i]
            if p >= 0:
                sub[p] += sub[i]
        par = self.node_parent
        has = par >= 0
        num = sub + 1.0
        den = np.bincount(par[has], weights=num[has], minlength=self.n_nodes)
        down = np.ones(self.n_nodes)
        down[has] = num[has] / den[par[has]]
        self.set_downward(down)

    # -- granularity and distances --------------------------------------------
    def ancestor_at_depth(self, depth: int | None) -> np.ndarray:
        """For every node its ancestor at ``depth`` (itself when shallower; None = itself)."""
        anc = np.arange(self.n_nodes)
        if depth is None:
            return anc
        d = self.node_depth.copy()
        while True:
            deep = d > depth
            if not deep.any():
                return anc
            anc = np.where(deep, self.node_parent[anc], anc)
            d = np.where(deep, d - 1, d)

    def leaf_groups(self, depth: int | None) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
        """Map local leaves to groups at a cut of the tree.

        Returns ``leaf_group`` (X, K) int (-1 for padding), ``n_groups`` (X,) and,
        per lexelt, the global node of each group.  ``depth=None`` = leaves.
        """
        X, K = len(self.lexelts), self.K
        group = np.full((X, K), -1, dtype=np.int64)
        n_groups = np.zeros(X, dtype=np.int64)
        group_nodes: list[np.ndarray] = []
        anc = self.ancestor_at_depth(depth)
        for x in range(X):
            leaves = self.lexelt_leaf_nodes[x]
            nodes, inv = np.unique(anc[leaves], return_inverse=True)
            group[x, : leaves.size] = inv
            n_groups[x] = nodes.size
            group_nodes.append(nodes)
        return group, n_groups, group_nodes

    def leaf_distance(self) -> np.ndarray:
        """Tree distance between leaves per lexelt, (X, K, K), normalised to max 1.

        Edges on the path between two leaves through their lowest common
        ancestor (a virtual root joins the top-level senses), divided by the
        largest such distance between the lexelt's *inventory* senses.

        Tags outside the inventory (``U``, typos) are leaves of their own but do
        not enter the normaliser: they come from whichever sets were loaded, and
        a system's distance cost must depend only on itself, the gold and the
        inventory, not on another system's stray tag (metrics.md, distance
        cost).  A distance to or from such a leaf is capped at 1, "as far as
        anything in the lexelt"; with fewer than two inventory leaves every
        distinct pair is 1.
        """
        X, K = len(self.lexelts), self.K
        out = np.zeros((X, K, K))
        for x in range(X):
            leaves = self.lexelt_leaf_nodes[x]
            paths = []
            for leaf in leaves:
                p, node = [], int(leaf)
                while node >= 0:
                    p.append(node)
                    node = int(self.node_parent[node])
                paths.append(p[::-1])
            k = len(paths)
            dist = np.zeros((k, k))
            for i in range(k):
                for j in range(i + 1, k):
                    a, b = paths[i], paths[j]
                    c = 0
                    while c < min(len(a), len(b)) and a[c] == b[c]:
                        c += 1
                    dist[i, j] = dist[j, i] = len(a) + len(b) - 2 * c
            inside = ~self.node_outside[leaves]
            m = dist[np.ix_(inside, inside)].max() if inside.any() else 0.0
            dist = np.minimum(dist / m, 1.0) if m > 0 else (dist > 0).astype(float)
            out[x, :k, :k] = dist
        return out

    # -- serialisation (project file cache) -------------------------------------
    def summary(self) -> dict:
        inner = ~self.node_is_leaf
        branching = np.bincount(self.node_parent[self.node_parent >= 0], minlength=self.n_nodes)[inner]
        return {
            "lexelts": len(self.lexelts),
            "senses": int((~self.node_outside & (self.node_self_of < 0)).sum()),
            "leaves": int(self.n_leaves.sum()),
            "max_depth": self.max_depth(),
            "max_branching": int(branching.max()) if branching.size else 0,
            "outside_tags": int(self.node_outside.sum()),
        }


def _preorder(nodes: list[_Node]) -> list[_Node]:
    by_parent: dict[str | None, list[_Node]] = {}
    for n in nodes:
        by_parent.setdefault(n.parent, []).append(n)
    out: list[_Node] = []
    stack = list(reversed(by_parent.get(None, [])))
    while stack:
        n = stack.pop()
        out.append(n)
        stack.extend(reversed(by_parent.get(n.sense, [])))
    return out
