"""Tree tables (TSV/CSV with a header): the program's own layout and the node-id variant.

Own layout: ``lexelt, sense, parent, gloss`` plus optional ``weight``,
``branching`` and ``alias``.  Node-id variant (the MASC and WSbest trees):
``node_id, parent_id, node_type, wn_sense_key, label`` where ``lemma`` nodes
are the lexelt roots.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from hieradjudicate.core.errors import ProblemLog
from hieradjudicate.core.records import SenseRecord
from hieradjudicate.io.inventories.common import (
    cell,
    parse_branching,
    parse_weight,
    read_delimited,
    resolve_columns,
)

TABLE_FIELDS: dict[str, tuple[str, ...]] = {
    "lexelt": ("lexelt", "lemma", "item", "word"),
    "sense": ("sense", "sense_id", "id"),
    "parent": ("parent", "parent_id", "parent_sense"),
    "gloss": ("gloss", "label", "definition"),
    "weight": ("weight",),
    "branching": ("branching", "branching_factor"),
    "alias": ("alias", "aliases", "wn_sense_key"),
}
NODE_COLUMNS = ("node_id", "parent_id", "node_type")
_ALIAS_SPLIT = re.compile(r"[;|]")


def is_node_variant(header: list[str]) -> bool:
    """True for the ``node_id, parent_id, node_type, ...`` layout of the MASC/WSbest trees."""
    names = {h.strip().lower() for h in header}
    return all(c in names for c in NODE_COLUMNS)


def parse_tree_table(text: str, log: ProblemLog, columns: dict[str, str] | None = None
                     ) -> tuple[list[SenseRecord], str, int]:
    """Read a tree table into records (not yet validated as a tree).

    Returns
    -------
    senses : list of SenseRecord
    variant : str
        ``"lexelt-sense"`` or ``"node-id"``, for the detection message.
    n_structural : int
        Structural errors found while reading (node-id variant: duplicate
        nodes, unknown parents, cycles); tree validation adds its own.
    """
    header, rows, _ = read_delimited(text, log)
    if columns is None and is_node_variant(header):
        senses, n_bad = _node_rows(header, rows, log)
        return senses, "node-id", n_bad
    idx = resolve_columns(header, fields=TABLE_FIELDS, required=("lexelt", "sense"),
                          columns=columns, log=log, mapping="a column mapping (--tree-columns FIELD=COLUMN,..., "
                                                            "or the new-project wizard's column mapping page)")
    senses: list[SenseRecord] = []
    width = len(header)
    for lineno, row in rows:
        if len(row) > width and any(c.strip() for c in row[width:]):
            log.error(lineno, f"{len(row)} fields; expected {width} as in the header "
                      "(quote fields that contain the delimiter)")
            continue
        lexelt, sense = cell(row, idx["lexelt"]), cell(row, idx["sense"])
        if not lexelt or not sense:
            what = "lexelt" if not lexelt else "sense"
            log.error(lineno, f"empty {what} cell; expected a {what} in column "
                      f"{header[idx[what]]!r}", idx[what] + 1)
            continue
        if any(c.isspace() for c in sense):
            log.error(lineno, f"sense id {sense!r} contains spaces; expected an id without spaces",
                      idx["sense"] + 1)
            continue
        rec = SenseRecord(lexelt=lexelt, sense=sense, parent=cell(row, idx.get("parent")) or None,
                          gloss=cell(row, idx.get("gloss")), line=lineno, file=log.file)
        if "weight" in idx:
            rec.weight, msg = parse_weight(cell(row, idx["weight"]))
            if msg:
                log.error(lineno, f"{msg} (sense {sense!r}); the weight was ignored",
                          idx["weight"] + 1, skipped=False)
        if "branching" in idx:
            rec.branching, msg = parse_branching(cell(row, idx["branching"]))
            if msg:
                log.error(lineno, f"{msg} (sense {sense!r}); the factor was ignored",
                          idx["branching"] + 1, skipped=False)
        if "alias" in idx:
            rec.aliases = tuple(a.strip() for a in _ALIAS_SPLIT.split(cell(row, idx["alias"]))
                                if a.strip() and a.strip() != sense)
        senses.append(rec)
    return senses, "lexelt-sense", 0


def _node_rows(header: list[str], rows: Iterable[tuple[int, list[str]]], log: ProblemLog
               ) -> tuple[list[SenseRecord], int]:
    """Turn node-id rows into records; lemma nodes become lexelts, not senses."""
    lower = {h.strip().lower(): i for i, h in reversed(list(enumerate(header)))}
    i_id, i_par, i_type = lower["node_id"], lower["parent_id"], lower["node_type"]
    i_key, i_label = lower.get("wn_sense_key"), lower.get("label")
    n_bad = 0
    nodes: dict[str, tuple[int, str, str, list[str]]] = {}  # id -> (line, parent, type, row)
    order: list[str] = []
    for lineno, row in rows:
        nid = cell(row, i_id)
        if not nid:
            log.error(lineno, f"empty node_id cell; expected a node id in column {i_id + 1}",
                      i_id + 1)
            continue
        if any(c.isspace() for c in nid):  # as the lexelt-sense form: an id is one token
            log.error(lineno, f"node_id {nid!r} contains spaces; expected an id without spaces", i_id + 1)
            continue
        if nid in nodes:
            n_bad += 1
            log.error(lineno, f"duplicate node_id {nid!r} (first at line {nodes[nid][0]}); "
                      "expected each node once", i_id + 1, skipped=False)
            continue
        nodes[nid] = (lineno, cell(row, i_par), cell(row, i_type).lower(), row)
        order.append(nid)
    root_of: dict[str, str | None] = {}
    for nid in order:
        _find_root(nid, nodes, root_of)
    senses: list[SenseRecord] = []
    for nid in order:
        lineno, parent, ntype, row = nodes[nid]
        if ntype == "lemma":
            if parent:
                log.warning(lineno, f"lemma node {nid!r} has parent {parent!r}; a lemma node is a "
                            "lexelt root and its parent was ignored")
            continue
        lexelt = root_of.get(nid)
        if lexelt is None:
            n_bad += 1
            if not parent:
                log.error(lineno, f"node {nid!r} has no parent but is not a lemma node; expected "
                          "node_type 'lemma' for a root, or a parent_id")
            elif parent not in nodes:
                log.error(lineno, f"parent {parent!r} of node {nid!r} does not exist; expected the "
                          "node_id of a node in the file", i_par + 1)
            else:
                log.error(lineno, f"node {nid!r} does not descend from a lemma node (or its "
                          "ancestry has a cycle); expected every chain of parents to end at a "
                          "node of type 'lemma'")
            continue
        par_rec = None
        if parent and nodes[parent][2] != "lemma":
            par_rec = _short_id(parent, lexelt)
        sense = _short_id(nid, lexelt)
        key = cell(row, i_key)
        senses.append(SenseRecord(
            lexelt=lexelt, sense=sense, parent=par_rec, gloss=cell(row, i_label),
            aliases=(key,) if key and key != sense else (), line=lineno, file=log.file))
    return senses, n_bad


def _find_root(nid: str, nodes: dict[str, tuple[int, str, str, list[str]]],
               root_of: dict[str, str | None]) -> str | None:
    """The lemma node ``nid`` descends from (iteratively, so deep chains are safe)."""
    path: list[str] = []
    seen: set[str] = set()
    cur: str | None = nid
    result: str | None = None
    while cur is not None:
        if cur in root_of:
            result = root_of[cur]
            break
        if cur in seen or cur not in nodes:
            result = None
            break
        seen.add(cur)
        path.append(cur)
        _, parent, ntype, _ = nodes[cur]
        if ntype == "lemma":
            result = cur
            break
        cur = parent or None
    for p in path:
        root_of[p] = result
    return result


def _short_id(nid: str, lexelt: str) -> str:
    """``add-v#4`` -> ``4`` and ``add-v/verb.change`` -> ``verb.change`` under lexelt ``add-v``."""
    for sep in ("#", "/"):
        prefix = lexelt + sep
        if nid.startswith(prefix) and len(nid) > len(prefix):
            return nid[len(prefix):]
    return nid
