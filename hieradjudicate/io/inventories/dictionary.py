"""Senseval dictionary "XML": lexelts holding flat sense lists, read tolerantly.

The distributed ``EnglishLS.dictionary.xml`` is not one well-formed XML
document (several top-level elements, unescaped quotes inside ``gloss``
values), so it is read line by line with regular expressions: a ``gloss``
value runs to the last ``"`` before the closing ``/>``.
"""

from __future__ import annotations

import html
import re

from hieradjudicate.core.errors import ProblemLog
from hieradjudicate.core.records import SenseRecord

_LEXELT_OPEN = re.compile(r"<lexelt\b([^>]*)>")
_SENSE = re.compile(r"<sense\b(.*)/>", re.DOTALL)
_ATTR = re.compile(r"([A-Za-z_][\w.\-]*)\s*=\s*\"([^\"]*)\"")


_ELEMENT = re.compile(r"<lexelt\b[^>]*>|</lexelt\s*>|<sense\b")


def _elements(line: str) -> list[tuple[str, int, str]]:
    """Split a line into ``(kind, column, text)`` elements: open, close or sense.

    A sense element runs to the next element on the line (or its end), so
    that a gloss may hold any character.
    """
    hits = list(_ELEMENT.finditer(line))
    out = []
    for i, m in enumerate(hits):
        tag = m.group(0)
        if tag.startswith("</"):
            out.append(("close", m.start(), tag))
        elif tag.startswith("<lexelt"):
            out.append(("open", m.start(), tag))
        else:
            end = hits[i + 1].start() if i + 1 < len(hits) else len(line)
            out.append(("sense", m.start(), line[m.start():end].rstrip()))
    return out


def _attrs(text: str) -> dict[str, str]:
    return {k: html.unescape(v) for k, v in _ATTR.findall(text)}


def _sense_attrs(body: str) -> dict[str, str]:
    """Attributes of a ``<sense .../>`` body; ``gloss`` runs to the last quote."""
    m = re.search(r"\bgloss\s*=\s*\"", body)
    if m is None:
        return _attrs(body)
    attrs = _attrs(body[: m.start()])
    end = body.rfind('"')
    gloss = body[m.end(): end] if end >= m.end() else body[m.end():]
    attrs["gloss"] = html.unescape(gloss).strip()
    return attrs


def parse_dictionary(text: str, log: ProblemLog) -> tuple[list[SenseRecord], int]:
    """Read a Senseval dictionary into flat records (lexelt, sense, gloss).

    The gloss is the ``gloss`` attribute; when it is empty the ``synset``
    words stand in for it.

    Returns
    -------
    senses : list of SenseRecord
    n_structural : int
        Number of duplicate sense ids within a lexelt (structural errors).
    """
    senses: list[SenseRecord] = []
    first: dict[tuple[str, str], int] = {}
    n_bad = 0
    lexelt: str | None = None
    lexelt_line = 0
    for lineno, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if not line or line.startswith("<?") or line.startswith("<!--"):
            continue
        matched = False
        for kind, start, frag in _elements(line):
            matched = True
            if kind == "open":
                m_open = _LEXELT_OPEN.match(frag)
                item = _attrs(m_open.group(1)).get("item", "").strip() if m_open else ""
                if lexelt is not None:
                    log.warning(lineno, f"lexelt {item!r} starts before lexelt {lexelt!r} "
                                f"(line {lexelt_line}) was closed; expected </lexelt>")
                if not item:
                    log.error(lineno, "lexelt without an item name; expected "
                              "<lexelt item=\"NAME\">", start + 1)
                    lexelt = None
                else:
                    lexelt, lexelt_line = item, lineno
            elif kind == "close":
                if lexelt is None:
                    log.warning(lineno, "</lexelt> without an open lexelt")
                lexelt = None
            else:
                n_bad += _sense(frag, lineno, lexelt, senses, first, log)
        if not matched:
            log.error(lineno, "unrecognised line; expected <lexelt item=\"..\">, <sense id=\"..\" "
                      "gloss=\"..\"/> or </lexelt>")
    if lexelt is not None:
        log.warning(lexelt_line, f"lexelt {lexelt!r} is not closed at the end of the file; "
                    "expected </lexelt>")
    return senses, n_bad


def _sense(fragment: str, lineno: int, lexelt: str | None, senses: list[SenseRecord],
           first: dict[tuple[str, str], int], log: ProblemLog) -> int:
    m = _SENSE.match(fragment)
    if m is None:
        log.error(lineno, "sense element is not closed on its line; expected <sense id=\"..\" "
                  "gloss=\"..\"/>")
        return 0
    attrs = _sense_attrs(m.group(1))
    sid = attrs.get("id", "").strip()
    if not sid:
        log.error(lineno, "sense without an id; expected <sense id=\"..\" .../>")
        return 0
    if any(c.isspace() for c in sid):
        log.error(lineno, f"sense id {sid!r} contains spaces; expected an id without spaces")
        return 0
    if lexelt is None:
        log.error(lineno, f"sense {sid!r} outside a lexelt; expected it inside "
                  "<lexelt item=\"..\"> ... </lexelt>")
        return 0
    key = (lexelt, sid)
    if key in first:
        log.error(lineno, f"duplicate sense id {sid!r} in lexelt {lexelt!r} (first at line "
                  f"{first[key]}); expected each id once per lexelt")
        return 1
    first[key] = lineno
    gloss = attrs.get("gloss", "") or attrs.get("synset", "").strip()
    senses.append(SenseRecord(lexelt=lexelt, sense=sid, gloss=gloss, line=lineno, file=log.file))
    return 0
