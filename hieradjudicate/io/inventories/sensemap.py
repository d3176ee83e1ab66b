"""Senseval sense maps: ``senseid [b1 parent1 [b2 grandparent ...]]`` per line."""

from __future__ import annotations

import re
from collections import defaultdict

from hieradjudicate.core.errors import ProblemLog
from hieradjudicate.core.records import SenseRecord
from hieradjudicate.io.inventories.common import parse_branching, shorten

_INT = re.compile(r"[+-]?\d+")


def parse_sensemap(text: str, log: ProblemLog) -> tuple[list[SenseRecord], int]:
    """Read a sense map into records, reporting contradictions inside the file.

    Every line yields a record for its sense (``parent`` = ``parent1``) and
    one for every ancestor on the line (``parent`` = the next ancestor, or
    None at the end of the line; ``branching`` = the factor stated before
    it).  Records are emitted as stated; the model merges repeated senses.

    A sense given two different parents, a parent given two different
    branching factors, a sense on two lines of its own that say different
    things, cycles and branching factors below the number of listed children
    are structural errors; an exact repeat of a line is a warning.

    Returns
    -------
    senses : list of SenseRecord
    n_structural : int
        The number of structural errors reported.
    """
    senses: list[SenseRecord] = []
    n_bad = 0
    # Definite parent statements: sense -> (parent or None, line).  The last
    # ancestor on a line says nothing about its own parent.
    parent_of: dict[str, tuple[str | None, int]] = {}
    branching_of: dict[str, tuple[int, int]] = {}
    own_line: dict[str, tuple[tuple[str, ...], int]] = {}
    children: dict[str, set[str]] = defaultdict(set)
    for lineno, raw in enumerate(text.split("\n"), start=1):
        tokens = tuple(raw.split())
        if not tokens or tokens[0].startswith("#"):
            continue
        if len(tokens) % 2 == 0:
            log.error(lineno, f"{len(tokens)} fields; expected a sense id followed by pairs of "
                      "'branching-factor parent' (an odd number of fields)")
            continue
        chain = [tokens[0]]
        factors: list[int] = []
        bad = False
        for k in range(1, len(tokens), 2):
            b, parent = tokens[k], tokens[k + 1]
            value, msg = parse_branching(b)
            if value is None:  # the column only on error: computing it per token is n^2
                log.error(lineno, f"{msg} before parent {shorten(parent)}", _column(raw, k))
                bad = True
                break
            factors.append(value)
            chain.append(parent)
        if bad:
            continue
        if len(set(chain)) != len(chain):
            shown = " -> ".join(chain)
            shown = shown if len(shown) <= 200 else shown[:200] + "..."
            log.error(lineno, "a sense appears twice in its own ancestry ("
                      + shown + "); expected a chain of distinct senses (a tree)")
            n_bad += 1
            continue
        sense = chain[0]
        if sense in own_line:
            prev_tokens, prev_line = own_line[sense]
            if prev_tokens == tokens:
                log.warning(lineno, f"sense {sense!r} repeats line {prev_line} exactly; "
                            "the repeat was ignored")
                log.skipped_lines += 1
                continue
            log.error(lineno, f"sense {sense!r} already has its own line (line {prev_line}); "
                      "expected each sense to start one line only", skipped=False)
            n_bad += 1
        else:
            own_line[sense] = (tokens, lineno)
        for i, node in enumerate(chain):
            parent = chain[i + 1] if i + 1 < len(chain) else None
            definite = i + 1 < len(chain) or i == 0
            if definite:
                n_bad += _note_parent(parent_of, node, parent, lineno, log)
            branching = factors[i - 1] if i > 0 else None
            if branching is not None:
                n_bad += _note_branching(branching_of, node, branching, lineno, log)
            if parent is not None:
                children[parent].add(node)
            senses.append(SenseRecord(lexelt=None, sense=node, parent=parent,
                                      branching=branching, line=lineno, file=log.file))
    n_bad += _check_cycles(parent_of, log)
    for parent, (b, lineno) in branching_of.items():
        k = len(children[parent])
        if b < k:
            log.error(lineno, f"branching factor {b} of {parent!r} is smaller than its {k} listed "
                      f"members; expected at least {k}", skipped=False)
            n_bad += 1
    return senses, n_bad


def _column(raw: str, token_index: int) -> int:
    """1-based column of the whitespace-separated token ``token_index`` of ``raw``."""
    for i, m in enumerate(re.finditer(r"\S+", raw)):
        if i == token_index:
            return m.start() + 1
    return 1


def _note_parent(parent_of: dict[str, tuple[str | None, int]], node: str, parent: str | None,
                 lineno: int, log: ProblemLog) -> int:
    prev = parent_of.get(node)
    if prev is None:
        parent_of[node] = (parent, lineno)
        return 0
    if prev[0] == parent:
        return 0
    said = lambda p: "no parent" if p is None else f"parent {p!r}"  # noqa: E731
    log.error(lineno, f"sense {node!r} is given {said(parent)} here but {said(prev[0])} at line "
              f"{prev[1]}; expected one parent per sense (the map is a tree)", skipped=False)
    return 1


def _note_branching(branching_of: dict[str, tuple[int, int]], node: str, b: int, lineno: int,
                    log: ProblemLog) -> int:
    prev = branching_of.get(node)
    if prev is None:
        branching_of[node] = (b, lineno)
        return 0
    if prev[0] == b:
        return 0
    log.error(lineno, f"parent {node!r} is given branching factor {b} here but {prev[0]} at line "
              f"{prev[1]}; expected the same factor on every line", skipped=False)
    return 1


def _check_cycles(parent_of: dict[str, tuple[str | None, int]], log: ProblemLog) -> int:
    state: dict[str, int] = {}
    n = 0
    for start in parent_of:
        path: list[str] = []
        node: str | None = start
        while node is not None and node not in state:
            state[node] = 1
            path.append(node)
            entry = parent_of.get(node)
            node = entry[0] if entry else None
        if node is not None and state.get(node) == 1:
            cyc = path[path.index(node):] + [node]
            log.error(parent_of[node][1], "cycle: " + " -> ".join(cyc)
                      + "; expected a tree (no sense may be its own ancestor)", skipped=False)
            n += 1
        for p in path:
            state[p] = 2
    return n


def looks_like_sensemap(lines: list[str]) -> bool:
    """True when most of these non-blank lines have the sense-map shape."""
    good = 0
    for raw in lines:
        tokens = raw.split()
        if len(tokens) % 2 == 1 and all(_INT.fullmatch(t) for t in tokens[1::2]):
            good += 1
    return bool(lines) and good >= 0.8 * len(lines)
