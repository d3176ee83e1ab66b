"""Whole documents of WebAnno TSV 3 files (``#FORMAT=WebAnno TSV 3.x``): each file is one document, its
sentences the ``#Text=`` lines, placed in the document's text by the offsets of their first and last
tokens.  The instances the annotation reader made of the file (``document:begin-end``, the document
named after the file as :func:`~hieradjudicate.io.annotations.tools.webanno_tsv.document_name` names it)
are marked where their offsets fall.  Read on demand, one pass over the file's lines."""

from __future__ import annotations

import bisect
import re
from collections import defaultdict
from collections.abc import Iterable

from hieradjudicate.io.annotations.tools.webanno_tsv import _unescape, document_name
from hieradjudicate.io.contexts.document import DocumentIndex, Mark, Sentence

_SPAN = re.compile(r"(\d+)-(\d+)")


def _sentences(text: str) -> list[tuple[int, str]]:
    """``(begin offset, text)`` of every sentence that has a token with readable offsets."""
    out: list[tuple[int, str]] = []
    pending: str | None = None
    for line in text.splitlines():
        if line.startswith("#Text="):
            pending = _unescape(line[len("#Text="):])
        elif pending is not None and line and not line.startswith("#"):
            b, sep, _e = line.split("\t", 2)[1].partition("-") if line.count("\t") >= 2 else ("", "", "")
            if sep and b.isdigit():
                out.append((int(b), pending))
                pending = None
    return out


def index_webanno_tsv(text: str, path: str, instances: Iterable[tuple[str, str]]) -> DocumentIndex:
    """Index the document in the WebAnno TSV ``text`` read from ``path``, marking those of ``instances``
    ((lexelt, id) pairs of the project) that lie in it; an empty index when none does."""
    doc = document_name(path)
    wanted = []
    for lexelt, inst in instances:
        d, _, span = inst.rpartition(":")
        m = _SPAN.fullmatch(span)
        if d == doc and m:
            wanted.append((int(m.group(1)), int(m.group(2)), lexelt, inst))
    index = DocumentIndex()
    if not wanted:
        return index
    sentences = _sentences(text)
    if not sentences:
        return index
    starts = [b for b, _ in sentences]
    per_sentence: dict[int, list[Mark]] = defaultdict(list)
    for b, e, lexelt, inst in sorted(set(wanted)):
        k = max(0, bisect.bisect_right(starts, b) - 1)
        s0, s_text = sentences[k]
        per_sentence[k].append(Mark(inst, lexelt, b - s0, min(e - s0, len(s_text))))
    out = []
    for k, (_s0, s_text) in enumerate(sentences):
        marks = tuple(per_sentence.get(k, ()))
        for m_i, mark in enumerate(marks):
            index.where[mark.instance] = (doc, k, m_i)
            index.by_lemma.setdefault((doc, mark.lexelt), []).append(mark.instance)
        out.append(Sentence(f"{doc}#{k + 1}", s_text, marks))
    index.documents[doc] = tuple(out)
    return index
