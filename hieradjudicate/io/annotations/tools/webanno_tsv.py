"""WebAnno TSV 3 (``#FORMAT=WebAnno TSV 3.x``), the tab-separated export of WebAnno and INCEpTION.

The header declares the layers, one line each: ``#T_SP=<type>|<feature>|...`` (spans; also
``#T_CH`` chains and ``#T_RL`` relations, whose columns are counted but not read).  Each token
line is ``<sentence>-<token>  <begin>-<end>  <text>`` followed by one column per declared
feature.  A cell is ``_`` (nothing), ``*`` (a span without a value), or values separated by an
unescaped ``|`` for stacked spans, each ``value[N]`` where ``N`` ties the tokens of one
multi-token span together.  Escapes ``\\|``, ``\\_``, ``\\*``, ``\\[``, ``\\]``, ``\\;``,
``\\t``, ``\\n``, ``\\\\`` are undone.

The layer and feature are chosen as for XMI (``columns`` ``layer``/``feature``; the CLI's
``--xmi-layer``/``--xmi-feature``): without a layer, DKPro's ``WordSense`` where the header
declares it; without a feature, ``value`` where the layer has it, else the layer's only feature;
otherwise the declared layers are listed; an instance is ``<document>:<begin>-<end>`` with the same
offsets INCEpTION uses, so a TSV and an XMI export of one document give the same instances.
The lexelt is the span's text, lower-cased; the context is its sentence (``#Text=``).
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass

from hieradjudicate.core.errors import ProblemLog
from hieradjudicate.core.records import Context
from hieradjudicate.io.annotations.build import Parsed
from hieradjudicate.io.annotations.sniffing import WEBANNO_MAGIC, is_webanno_tsv  # noqa: F401

MAGIC = WEBANNO_MAGIC
_SPLIT_STACK = re.compile(r"(?<!\\)\|")
_ID = re.compile(r"^(?P<value>.*?)(?:\[(?P<id>\d+(?:_\d+)?)\])?$", re.S)
_ESCAPES = {"\\\\": "\\", "\\|": "|", "\\_": "_", "\\*": "*", "\\[": "[", "\\]": "]", "\\;": ";",
            "\\t": "\t", "\\n": "\n", "\\->": "->"}
_UNESCAPE = re.compile("|".join(re.escape(k) for k in sorted(_ESCAPES, key=len, reverse=True)))


def _unescape(s: str) -> str:
    return _UNESCAPE.sub(lambda m: _ESCAPES[m.group(0)], s)


@dataclass
class _Span:
    begin: int
    end: int
    value: str | None
    line: int
    sentence: int


def layers(text: str) -> list[tuple[str, str]]:
    """``(type, feature)`` of every span layer feature the header declares."""
    out = []
    for line in text.splitlines():
        if line.startswith("#T_SP="):
            typ, *feats = line[len("#T_SP="):].split("|")
            out.extend((typ, f) for f in feats)
        elif line.startswith("#Text=") or (line and not line.startswith("#")):
            break
    return out


def parse_webanno_tsv(text: str, path: str, set_name: str, log: ProblemLog,
                      columns: Mapping[str, str] | None = None) -> tuple[Parsed, list[Context]]:
    columns = dict(columns or {})
    lines = text.splitlines()
    if not lines or not is_webanno_tsv(lines[0]):
        raise log.fail(1, f"expected '{MAGIC}.x' on the first line")
    # the header: every declared column, in order
    cols: list[tuple[str, str]] = []
    k = 1
    while k < len(lines) and lines[k].startswith("#T_"):
        kind, _, decl = lines[k].partition("=")
        typ, *feats = decl.split("|")
        if kind == "#T_SP":
            cols.extend((typ, f) for f in feats)
        elif kind in ("#T_CH", "#T_RL"):
            cols.extend((typ, f) for f in feats)
        k += 1
    span_cols = layers(text)
    layer, feature = _choose(span_cols, columns.get("layer"), columns.get("feature"))
    if not layer or not feature:
        listing = ", ".join(f"{t.rsplit('.', 1)[-1]} / {f}" for t, f in span_cols) or "none"
        raise log.fail(None, "choose the layer and feature that hold the sense: --xmi-layer TYPE "
                       f"--xmi-feature FEATURE (declared span layers: {listing})")
    matches = [i for i, (t, f) in enumerate(cols) if f == feature and (t == layer or t.rsplit(".", 1)[-1] == layer)]
    if len(matches) != 1:
        raise log.fail(None, f"no span layer {layer!r} with feature {feature!r} declared in the header "
                       f"(declared: {', '.join(t.rsplit('.', 1)[-1] + ' / ' + f for t, f in span_cols) or 'none'})")
    col = 3 + matches[0]
    doc = document_name(path)
    spans: dict[tuple[str, int], _Span] = {}  # (id or line-unique key) -> span
    order: list[tuple[str, int]] = []
    tokens: list[tuple[int, int, str]] = []
    sentences: list[tuple[int, str, int]] = []  # (first token index, text, line)
    sentence = 0
    for lineno in range(k + 1, len(lines) + 1):
        line = lines[lineno - 1]
        if not line.strip():
            continue
        if line.startswith("#Text="):
            sentence += 1
            sentences.append((len(tokens), _unescape(line[len("#Text="):]), lineno))
            continue
        if line.startswith("#"):
            continue
        cells = line.split("\t")
        if len(cells) < col + 1:
            log.error(lineno, f"{len(cells)} column(s); the header declares {3 + len(cols)} "
                      "(token id, offsets, text, one per feature)")
            continue
        b, sep, e = cells[1].partition("-")
        if not sep or not b.isdigit() or not e.isdigit():
            log.error(lineno, f"offsets {cells[1]!r}: expected BEGIN-END", 2)
            continue
        tb, te = int(b), int(e)
        token = _unescape(cells[2])
        # a sub-token ("1-2.1") lies inside the token before it; only full tokens follow each other
        after = 0 if "." in cells[0] or not tokens else max(t[1] for t in tokens[-3:])
        problem = _bad_offsets(tb, te, token, after)
        if problem:
            log.error(lineno, f"offsets {cells[1]!r}: {problem}", 2)
            continue
        tokens.append((tb, te, token))
        cell = cells[col]
        if cell in ("_", ""):
            continue
        for n, entry in enumerate(_SPLIT_STACK.split(cell)):
            m = _ID.match(entry)
            value = m["value"] if m else entry
            key = (m["id"], 0) if m and m["id"] else (f"{lineno}.{n}", lineno)
            v = None if value in ("*", "_", "") else _unescape(value)
            if key in spans:
                s = spans[key]
                s.begin, s.end = min(s.begin, tb), max(s.end, te)
                s.value = s.value or v
            else:
                spans[key] = _Span(tb, te, v, lineno, sentence)
                order.append(key)
    lexelts, instances, unit_line, label_unit, label_tag = [], [], [], [], []
    tags: dict[str, int] = {}
    seen: dict[tuple[int, int], int] = {}
    contexts: dict[str, Context] = {}
    for key in order:
        s = spans[key]
        if s.value is None:
            log.warning(s.line, f"span {s.begin}-{s.end} has no {feature}; not an answer")
            continue
        unit = seen.get((s.begin, s.end))
        if unit is None:
            unit = seen[(s.begin, s.end)] = len(unit_line)
            covered = _covered(tokens, s.begin, s.end)
            lexelts.append(" ".join(covered.split()).lower() or "(empty span)")
            inst = f"{doc}:{s.begin}-{s.end}"
            instances.append(inst)
            unit_line.append(s.line)
            if 0 < s.sentence <= len(sentences):
                first, sent_text, sline = sentences[s.sentence - 1]
                s0 = tokens[first][0] if first < len(tokens) else s.begin
                contexts[inst] = Context(lexelts[-1], inst, sent_text, (s.begin - s0, s.end - s0), sline)
        label_unit.append(unit)
        label_tag.append(tags.setdefault(s.value, len(tags)))
    parsed = Parsed.from_rows(lexelts, instances, [0] * len(unit_line), unit_line, label_unit, label_tag,
                              [math.nan] * len(label_tag), [set_name], list(tags))
    return parsed, list(contexts.values())


def document_name(path: str) -> str:
    """The document an instance id names (``document:begin-end``): the file's name without its
    ``.gz``/``.tsv``/``.txt`` suffixes."""
    doc = os.path.basename(path)
    for suffix in (".gz", ".tsv", ".txt"):
        doc = doc.removesuffix(suffix)
    return doc


def _bad_offsets(begin: int, end: int, token: str, previous_end: int) -> str:
    """Why a token's offsets cannot be right ("" when they can): they would silently change spans."""
    if begin > end:
        return "reversed (begin after end); expected BEGIN-END with BEGIN <= END"
    if begin < previous_end:
        return (f"begin before the previous token's end ({previous_end}); expected tokens in text "
                "order, each after the one before")
    length = len(token.encode("utf-16-le")) // 2  # WebAnno counts UTF-16 units, as Java does
    if end - begin not in (length, len(token)):  # (code points, as some writers count, accepted)
        return (f"{end - begin} character(s) for the token {token[:30]!r} of {length}; expected "
                "offsets that cover the token")
    return ""


DEFAULT_LAYER, DEFAULT_FEATURE = "WordSense", "value"  # DKPro's, as the XMI reader takes them


def _choose(span_cols: list[tuple[str, str]], layer: str | None, feature: str | None) -> tuple[str | None, str | None]:
    """The layer and feature to read: those given, else the defaults where the header declares them
    (a layer by its type name or its last part); ``None`` where there is no choice to make."""
    def of(name: str) -> list[str]:
        return [f for t, f in span_cols if t == name or t.rsplit(".", 1)[-1] == name]

    layer = layer or (DEFAULT_LAYER if of(DEFAULT_LAYER) else None)
    if layer and not feature:
        feats = of(layer)
        feature = DEFAULT_FEATURE if DEFAULT_FEATURE in feats else (feats[0] if len(feats) == 1 else None)
    return layer, feature


def _covered(tokens: list[tuple[int, int, str]], begin: int, end: int) -> str:
    """The text of a span from its tokens (spaces where the offsets leave a gap)."""
    out, last = [], None
    for tb, te, text in tokens:
        if te <= begin or tb >= end:
            continue
        lo, hi = max(tb, begin) - tb, min(te, end) - tb
        if last is not None and tb > last:
            out.append(" ")
        out.append(text[lo:hi])
        last = te
    return "".join(out)

