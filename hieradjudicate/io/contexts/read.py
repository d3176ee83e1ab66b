"""Read instance contexts (what the lexicographer reads), with the head word located.

Formats (the names used in :attr:`ContextSource.format`):

``senseval-xml``
    The Senseval lexical-sample file: ``<lexelt item=..>`` holding
    ``<instance id=..><context> ... <head>word</head> ... </context></instance>``,
    read tolerantly with regular expressions.
``wsd-xml``
    The WSD evaluation framework's ``<corpus><text><sentence>`` XML; see
    :mod:`hieradjudicate.io.contexts.wsdxml`.
``table``
    TSV/CSV ``lexelt, instance, context`` with the target marked by
    ``<head>..</head>`` in the context or by ``start``, ``end`` columns.
``wsbest-uses``
    The WSbest ``uses.tsv``: ``dataID, context, indices_target_token
    (start:end), indices_target_sentence, lemma``.

Every context text is tidied (entities unescaped, runs of whitespace
collapsed, ends stripped) and ``head`` gives the ``(start, end)`` character
offsets of the target in the tidied text.
"""

from __future__ import annotations

import bisect
import html
import os
import re

from hieradjudicate.core.errors import FormatError, ProblemLog
from hieradjudicate.core.records import Context, ContextSource
from hieradjudicate.io.inventories.common import (
    cell,
    read_delimited,
    resolve_columns,
    shorten,
    to_int,
)
from hieradjudicate.io.textfile import check_name_lengths, read_text

CONTEXT_FORMATS = ("senseval-xml", "wsd-xml", "table", "wsbest-uses")
TABLE_FIELDS: dict[str, tuple[str, ...]] = {
    "lexelt": ("lexelt", "lemma", "item", "word"),
    "instance": ("instance", "instance_id", "id", "item_id", "dataid"),
    "context": ("context", "text", "sentence"),
    "start": ("start", "head_start"),
    "end": ("end", "head_end"),
}
_START, _END = "\x01", "\x02"
_HEAD = re.compile(r"<head\b[^>]*>(.*?)</head\s*>", re.DOTALL | re.IGNORECASE)
_TAG = re.compile(r"</?[A-Za-z][^<>]*>")
_XML_TOKEN = re.compile(
    r"<lexelt\b([^>]*)>|</lexelt\s*>|<instance\b([^>]*)>|</instance\s*>"
    r"|<context\b[^>]*>|</context\s*>")
_ATTR = re.compile(r"([A-Za-z_][\w.\-]*)\s*=\s*\"([^\"]*)\"")
_SPAN = re.compile(r"\s*(\d+)\s*:\s*(\d+)\s*")


def tidy(pieces: list[str], head_index: int | None) -> tuple[str, tuple[int, int] | None]:
    """Join text pieces, collapse whitespace and locate piece ``head_index``.

    Each piece is already unescaped; the head piece's own surrounding
    whitespace is moved outside the head.  Returns the text and the head
    offsets (None when there is no head or it is empty).
    """
    clean = [p.replace(_START, " ").replace(_END, " ") for p in pieces]
    if head_index is not None:
        clean[head_index] = _START + clean[head_index] + _END
    s = re.sub(r"\s+", " ", "".join(clean))
    s = s.replace(_START + " ", " " + _START).replace(" " + _END, _END + " ")
    s = re.sub(" +", " ", s).strip()
    a, b = s.find(_START), s.find(_END)
    if a < 0 or b < 0:
        return s.replace(_START, "").replace(_END, ""), None
    if b - 1 <= a:  # empty head: drop the markers and tidy again
        return tidy(pieces, None)[0], None
    return s.replace(_START, "").replace(_END, ""), (a, b - 1)


def _strip_markup(text: str) -> str:
    return html.unescape(_TAG.sub(" ", text))


def split_head(raw: str) -> tuple[str, tuple[int, int] | None, int]:
    """Tidy a context marked with ``<head>..</head>``; return text, head, number of heads."""
    parts = _HEAD.split(raw)
    if len(parts) == 1:
        return tidy([_strip_markup(raw)], None)[0], None, 0
    pieces = [_strip_markup(parts[0]), _strip_markup(parts[1]),
              _strip_markup("".join(parts[2:]))]
    text, head = tidy(pieces, 1)
    return text, head, (len(parts) - 1) // 2


def detect_context_format(text: str, path: str = "") -> str:
    """Say which context format ``text`` is in, from its content."""
    head = text[:200_000]
    from hieradjudicate.io.contexts.wsdxml import looks_like_wsd_xml

    if looks_like_wsd_xml(head[:20_000]):
        return "wsd-xml"
    if "<instance" in head:
        return "senseval-xml"
    first = next((ln for ln in text.split("\n", 50) if ln.strip()), "")
    names = {h.strip().lower() for h in re.split(r"[\t,;]", first)}
    if {"dataid", "indices_target_token"} <= names:
        return "wsbest-uses"
    if "\t" in first or re.search(r"[,;]", first):
        return "table"
    raise FormatError("cannot tell the context format from the content; expected Senseval "
                      "lexical-sample XML (<instance>), a table with a header (lexelt, instance, "
                      "context) or the WSbest uses table", file=path, line=1)


def read_contexts(path: str | os.PathLike, *, format: str | None = None,
                  columns: dict[str, str] | None = None) -> ContextSource:
    """Read instance contexts.

    Parameters
    ----------
    path : str or path-like
        The file (gzip, BOM and CRLF are handled).
    format : str, optional
        One of ``CONTEXT_FORMATS``; detected from the content when omitted.
    columns : dict, optional
        For tables: our field name (``lexelt``, ``instance``, ``context``,
        ``start``, ``end``) -> the file's column name.

    Returns
    -------
    ContextSource
        The contexts (``head`` None where the target could not be located,
        with a warning) and the problems found.

    Raises
    ------
    FormatError
        When no context could be read.
    """
    p = os.fspath(path)
    text = read_text(p)
    if format is None:
        fmt = "table" if columns else detect_context_format(text, p)
    else:
        fmt = format.strip().lower()
        if fmt not in CONTEXT_FORMATS:
            raise FormatError(f"unknown context format {format!r}; expected one of "
                              + ", ".join(CONTEXT_FORMATS), file=p)
    log = ProblemLog(p)
    if fmt == "senseval-xml":
        contexts = _read_xml(text, log)
    elif fmt == "wsd-xml":
        from hieradjudicate.io.contexts.wsdxml import read_wsd_xml

        contexts = read_wsd_xml(text, log)
    else:
        contexts = _read_table(text, log, columns, wsbest=fmt == "wsbest-uses")
    if not contexts:
        if not log.errors:
            log.error(None, f"no contexts found; expected a {fmt} file", skipped=False)
        raise FormatError(log.errors)
    check_name_lengths(p, "instance id", [c.instance for c in contexts], lambda i: contexts[i].line)
    check_name_lengths(p, "lexelt", [c.lexelt for c in contexts], lambda i: contexts[i].line)
    missing = sum(c.head is None for c in contexts)
    if missing:
        log.warning(None, f"{missing} of {len(contexts)} context(s) have no located target word")
    return ContextSource(path=p, format=fmt, contexts=contexts, problems=list(log.problems),
                         skipped_lines=log.skipped_lines)


def _read_xml(text: str, log: ProblemLog) -> list[Context]:
    """Scan the lexical-sample XML token by token (it need not be well formed)."""
    starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line_of(pos: int) -> int:
        return bisect.bisect_right(starts, pos)

    out: list[Context] = []
    seen: dict[tuple[str, str], int] = {}
    lexelt: str | None = None
    inst: dict | None = None  # id, line, ctx_start, body

    def finish() -> None:
        nonlocal inst
        cur, inst = inst, None
        if cur is None:
            return
        if cur["body"] is None:
            log.error(cur["line"], f"instance {cur['id']!r} has no complete "
                      "<context>...</context>; expected one inside <instance>")
            return
        if lexelt is None:
            log.error(cur["line"], f"instance {cur['id']!r} is outside a lexelt; expected it "
                      "inside <lexelt item=\"..\">")
            return
        key = (lexelt, cur["id"])
        if key in seen:
            log.error(cur["line"], f"duplicate instance {cur['id']!r} in lexelt {lexelt!r} (first "
                      f"at line {seen[key]}); the first was kept")
            return
        seen[key] = cur["line"]
        ctext, head, n_heads = split_head(cur["body"])
        if n_heads == 0:
            log.warning(cur["line"], f"instance {cur['id']!r} has no <head>..</head>; expected the "
                        "target word marked")
        elif n_heads > 1:
            log.warning(cur["line"], f"instance {cur['id']!r} marks {n_heads} head words; "
                        "the first was taken as the target")
        out.append(Context(lexelt=lexelt, instance=cur["id"], text=ctext, head=head,
                           line=cur["line"]))

    for m in _XML_TOKEN.finditer(text):
        tok = m.group(0)
        if tok.startswith("<lexelt"):
            if inst is not None:
                log.error(inst["line"], f"instance {inst['id']!r} is not closed; expected "
                          "</instance>", skipped=False)
                finish()
            item = html.unescape(dict(_ATTR.findall(m.group(1) or "")).get("item", "")).strip()
            if not item:
                log.error(line_of(m.start()), "lexelt without an item name; expected "
                          "<lexelt item=\"NAME\">")
            lexelt = item or None
        elif tok.startswith("</lexelt"):
            if inst is not None:
                log.error(inst["line"], f"instance {inst['id']!r} is not closed; expected "
                          "</instance>", skipped=False)
                finish()
            lexelt = None
        elif tok.startswith("<instance"):
            if inst is not None:
                log.error(inst["line"], f"instance {inst['id']!r} is not closed; expected "
                          "</instance>", skipped=False)
                finish()
            iid = html.unescape(dict(_ATTR.findall(m.group(2) or "")).get("id", "")).strip()
            if not iid:
                log.error(line_of(m.start()),
                          "instance without an id; expected <instance id=\"..\">")
                continue
            inst = {"id": iid, "line": line_of(m.start()), "ctx": None, "body": None}
        elif tok.startswith("<context"):
            if inst is not None:
                inst["ctx"] = m.end()
        elif tok.startswith("</context"):
            if inst is not None and inst["ctx"] is not None:
                inst["body"] = text[inst["ctx"]: m.start()]
        elif inst is not None:  # </instance>
            finish()
    if inst is not None:
        log.error(inst["line"], f"instance {inst['id']!r} is not closed at the end of the file; "
                  "expected </instance>", skipped=False)
        finish()
    return out


def _read_table(text: str, log: ProblemLog, columns: dict[str, str] | None, *, wsbest: bool
                ) -> list[Context]:
    """Read a context table or the WSbest uses table."""
    header, rows, _ = read_delimited(text, log)
    if wsbest:
        fields = {"lexelt": ("lemma",), "instance": ("dataID",), "context": ("context",),
                  "span": ("indices_target_token",)}
        idx = resolve_columns(header, fields=fields, required=tuple(fields), columns=columns,
                              log=log)
    else:
        idx = resolve_columns(header, fields=TABLE_FIELDS, required=("lexelt", "instance",
                              "context"), columns=columns, log=log)
        if ("start" in idx) != ("end" in idx):
            log.warning(1, "only one of the 'start' and 'end' columns is present; expected both "
                        "(the offsets were ignored)")
            idx.pop("start", None)
            idx.pop("end", None)
    out: list[Context] = []
    seen: dict[tuple[str, str], int] = {}
    for lineno, row in rows:
        lexelt, inst = cell(row, idx["lexelt"]), cell(row, idx["instance"])
        raw = row[idx["context"]] if idx["context"] < len(row) else ""
        if not lexelt or not inst or not raw.strip():
            what = [n for n, v in (("lexelt", lexelt), ("instance", inst), ("context", raw.strip()))
                    if not v]
            log.error(lineno, f"empty {', '.join(what)} cell(s); expected lexelt, instance and "
                      "context in every row")
            continue
        key = (lexelt, inst)
        if key in seen:
            log.error(lineno, f"duplicate instance {inst!r} of lexelt {lexelt!r} (first at line "
                      f"{seen[key]}); the first was kept")
            continue
        if wsbest:
            span = _span(cell(row, idx["span"]), len(raw), lineno, "indices_target_token", log)
            if span is None:
                text_, head = tidy([html.unescape(raw)], None)
            else:
                a, b = span
                text_, head = tidy([html.unescape(raw[:a]), html.unescape(raw[a:b]),
                                    html.unescape(raw[b:])], 1)
        elif "start" in idx:
            span = _span(cell(row, idx["start"]) + ":" + cell(row, idx["end"]), len(raw), lineno,
                         "start/end", log)
            if span is None:
                text_, head = tidy([raw], None)
            else:
                a, b = span
                text_, head = tidy([raw[:a], raw[a:b], raw[b:]], 1)
        else:
            text_, head, _n = split_head(raw)
        seen[key] = lineno
        out.append(Context(lexelt=lexelt, instance=inst, text=text_, head=head, line=lineno))
    return out


def _span(value: str, length: int, lineno: int, column: str, log: ProblemLog
          ) -> tuple[int, int] | None:
    """Parse ``start:end`` (end exclusive) and check it lies inside a text of ``length``."""
    m = _SPAN.fullmatch(value)
    a = to_int(m.group(1)) if m else None
    b = to_int(m.group(2)) if m else None
    if a is None or b is None:
        log.warning(lineno, f"target offsets {shorten(value)} in {column}; expected 'start:end' "
                    "(non-negative integers), so the target was not located")
        return None
    if not a < b <= length:
        log.warning(lineno, f"target offsets {a}:{b} in {column} fall outside the context of "
                    f"{length} characters; expected 0 <= start < end <= {length}")
        return None
    return a, b
