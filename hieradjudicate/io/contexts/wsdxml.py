"""Contexts from the WSD evaluation framework's XML (Raganato et al. 2017).

``<corpus><text><sentence>`` holding ``<wf lemma pos>word</wf>`` and ``<instance id lemma
pos>word</instance>``: every instance's context is its sentence, the instance's word the head.
The lexelt is the lemma and part of speech (``NOUN`` n, ``VERB`` v, ``ADJ`` a, ``ADV`` r), as the
framework's key files give it through their sense keys (``document.n``).  Parsed with the standard
library's ElementTree (no external entities are resolved); a malformed file is refused with the
line and column the parser names.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from hieradjudicate.core.errors import ProblemLog
from hieradjudicate.core.records import Context

POS = {"NOUN": "n", "VERB": "v", "ADJ": "a", "ADV": "r"}


def looks_like_wsd_xml(head: str) -> bool:
    return "<corpus" in head and "<sentence" in head and ("<wf" in head or "<instance" in head)


def read_wsd_xml(text: str, log: ProblemLog) -> list[Context]:
    try:
        root = ET.fromstring(text.encode("utf-8"))
    except ET.ParseError as exc:
        line, column = exc.position
        log.error(line, f"not well-formed XML ({str(exc).split(':')[0]}); expected the WSD evaluation "
                  "framework's <corpus><text><sentence> file", column=column + 1)
        return []
    out: list[Context] = []
    for sentence in root.iter("sentence"):
        words, spans, text_len = [], [], 0
        for tok in sentence:
            word = " ".join((tok.text or "").split())
            start = text_len + (1 if words else 0)
            words.append(word)
            spans.append((start, start + len(word)))
            text_len = start + len(word)
        joined = " ".join(words)
        for tok, (a, b) in zip(sentence, spans, strict=True):
            if tok.tag != "instance":
                continue
            ident, lemma, pos = tok.get("id"), tok.get("lemma"), tok.get("pos")
            if not ident or not lemma or pos not in POS:
                log.error(None, f"an <instance> needs id, lemma and pos (one of {', '.join(POS)}); "
                          f"found id={ident!r} lemma={lemma!r} pos={pos!r}")
                continue
            out.append(Context(f"{lemma.lower()}.{POS[pos]}", ident, joined, (a, b) if b > a else None))
    return out
