"""Read sense inventories in every supported format, detected from the content.

Formats (the names used in :attr:`InventorySource.format`):

``senseval-sensemap``
    ``senseid [b1 parent1 [b2 grandparent ...]]`` per line (no lexelt).
``senseval-dictionary``
    The tolerant Senseval dictionary "XML" (flat senses with glosses).
``tree-table``
    TSV/CSV with a header, ``lexelt, sense, parent, gloss[, weight,
    branching, alias]``, or the ``node_id, parent_id, node_type,
    wn_sense_key, label`` variant of the MASC and WSbest trees.
``outline``
    ``# lexelt NAME`` lines and indented ``id: gloss`` lines.
``json``
    ``{"lexelts": {NAME: [{"id": .., "children": [..]}]}}``.
"""

from __future__ import annotations

import os
import re

from hieradjudicate.core.errors import FormatError, InventoryError, ProblemLog
from hieradjudicate.core.records import InventorySource, SenseRecord
from hieradjudicate.io.inventories.common import lexelt_pos_map, validate_tree
from hieradjudicate.io.inventories.outline import looks_like_outline, parse_outline
from hieradjudicate.io.inventories.sensemap import looks_like_sensemap, parse_sensemap
from hieradjudicate.io.inventories.table import parse_tree_table
from hieradjudicate.io.textfile import check_name_lengths, read_text

INVENTORY_FORMATS = ("senseval-sensemap", "senseval-dictionary", "tree-table", "outline", "json")
_ALIASES = {
    "sensemap": "senseval-sensemap",
    "dictionary": "senseval-dictionary",
    "table": "tree-table",
    "tsv": "tree-table",
    "csv": "tree-table",
}
_EXTENSIONS = {
    ".sensemap": "senseval-sensemap",
    ".xml": "senseval-dictionary",
    ".tsv": "tree-table",
    ".csv": "tree-table",
    ".json": "json",
    ".outline": "outline",
}


def _extension(path: str) -> str:
    name = os.path.basename(path).lower()
    if name.endswith(".gz"):
        name = name[:-3]
    return os.path.splitext(name)[1]


def _key_shaped(lines: list[str]) -> bool:
    """Lines of a Senseval key (``lexelt instance tag``: the lexelt repeats) or of the WSD framework's
    key (``instance sense%key``), which no inventory format has."""
    rows = [ln.split() for ln in lines]
    if not rows or any(len(r) < 2 for r in rows):
        return False
    if all("%" in r[1] for r in rows):
        return True
    return all(len(r) >= 3 for r in rows) and len({r[0] for r in rows}) < len(rows)


def detect_inventory_format(text: str, path: str = "") -> str:
    """Say which inventory format ``text`` is in, from its content (the name only breaks ties).

    Raises
    ------
    FormatError
        When the content matches no inventory format (the message says
        which formats were expected), or is a context file.
    """
    stripped = text.lstrip()
    sample = [ln for ln in text.split("\n", 400)[:400] if ln.strip()]
    if stripped.startswith(("{", "[")):
        return "json"
    if "<instance" in text[:200_000] and "<context" in text[:200_000]:
        raise FormatError("this is a Senseval lexical-sample context file (instances), not a "
                          "sense inventory; expected a dictionary, sense map, tree table, outline "
                          "or JSON inventory", file=path)
    if re.search(r"<lexelt\b|<sense\b", text[:200_000]):
        return "senseval-dictionary"
    if looks_like_outline(sample[:200]):
        return "outline"
    first = sample[0] if sample else ""
    if "\t" in first or re.search(r"[,;]", first):
        return "tree-table"
    if looks_like_sensemap(sample[:200]):
        return "senseval-sensemap"
    by_name = _EXTENSIONS.get(_extension(path))
    if by_name is not None:
        return by_name
    if _key_shaped(sample[:50]):
        raise FormatError("this looks like annotations (key lines 'lexelt instance_id tag ...' or 'instance_id "
                          "sense_key ...'), not a sense inventory; give it with --annotations (score and compare: "
                          "--gold or --system); expected as the inventory a sense map, a Senseval dictionary, a "
                          "tree table, an outline, JSON or a WordNet folder", file=path, line=1)
    raise FormatError(
        "cannot tell the inventory format from the content; expected a sense map "
        "('sense [branching parent ...]' lines), a Senseval dictionary (<lexelt>/<sense>), a tree "
        "table with a header, an outline ('# lexelt NAME' lines) or JSON ({\"lexelts\": ...})",
        file=path, line=1)


def read_inventory(path: str | os.PathLike, *, format: str | None = None,
                   columns: dict[str, str] | None = None) -> InventorySource:
    """Read a sense inventory file.

    Parameters
    ----------
    path : str or path-like
        The file (gzip, BOM and CRLF are handled).
    format : str, optional
        One of ``INVENTORY_FORMATS`` (or ``sensemap``, ``dictionary``,
        ``table``); detected from the content when omitted.
    columns : dict, optional
        For tree tables: our field name (``lexelt``, ``sense``, ``parent``,
        ``gloss``, ``weight``, ``branching``, ``alias``) -> the file's
        column name.  Giving it implies ``tree-table`` when the format is
        not given.

    Returns
    -------
    InventorySource
        The records as stated, the detected format, and the problems found
        (warnings and non-fatal errors).

    Raises
    ------
    InventoryError
        When the tree is invalid: duplicate ids within a lexelt, unknown
        parents, cycles, contradictory parents or branching factors, a
        branching factor below the number of listed children.
    FormatError
        When nothing usable could be read.
    """
    p = os.fspath(path)
    text = read_text(p)
    fmt = _resolve_format(format, columns, text, p)
    log = ProblemLog(p)
    if columns and fmt != "tree-table":
        log.warning(None, f"the column mapping was ignored: it applies to tree tables, and this "
                    f"file was read as {fmt}")
    try:
        senses, n_bad, note = _parse(fmt, text, log, columns)
    except RecursionError:
        raise FormatError("input nested too deeply to read", file=p) from None
    if n_bad:
        raise InventoryError(log.errors)
    if not senses:
        if not log.errors:
            log.error(None, f"no senses found; expected a {fmt} inventory", skipped=False)
        raise FormatError(log.errors)
    check_name_lengths(p, "sense id", [r.sense for r in senses], lambda i: senses[i].line)
    check_name_lengths(p, "lexelt", [r.lexelt or "" for r in senses], lambda i: senses[i].line)
    if note:
        log.warning(None, note)
    src = InventorySource(path=p, format=fmt, senses=senses, problems=list(log.problems),
                          skipped_lines=log.skipped_lines, lexelt_pos=lexelt_pos_map(senses))
    return src


def _resolve_format(format: str | None, columns: dict[str, str] | None, text: str,
                    path: str) -> str:
    if format is None:
        return "tree-table" if columns else detect_inventory_format(text, path)
    name = _ALIASES.get(format.strip().lower(), format.strip().lower())
    if name not in INVENTORY_FORMATS:
        raise FormatError(f"unknown inventory format {format!r}; expected one of "
                          + ", ".join(INVENTORY_FORMATS), file=path)
    return name


def _parse(fmt: str, text: str, log: ProblemLog, columns: dict[str, str] | None
           ) -> tuple[list[SenseRecord], int, str]:
    """Run the parser of ``fmt``; return records, structural error count and a note."""
    note = ""
    if fmt == "senseval-sensemap":
        senses, n_bad = parse_sensemap(text, log)
        return senses, n_bad, note
    if fmt == "senseval-dictionary":
        from hieradjudicate.io.inventories.dictionary import parse_dictionary  # XML: only when it is one

        senses, n_bad = parse_dictionary(text, log)
        return senses, n_bad, note
    if fmt == "tree-table":
        senses, variant, n_bad = parse_tree_table(text, log, columns)
        if variant == "node-id":
            note = ("tree table in the node_id/parent_id/node_type layout: lemma nodes taken as "
                    "lexelts, wn_sense_key as aliases, label as glosses")
    elif fmt == "outline":
        senses, n_bad = parse_outline(text, log), 0
    else:
        from hieradjudicate.io.inventories.json_tree import parse_json_inventory

        senses, n_bad = parse_json_inventory(text, log), 0
    senses, n_tree = validate_tree(senses, log)
    return senses, n_bad + n_tree, note
