"""Whole documents of WebAnno TSV 3 files (``#FORMAT=WebAnno TSV 3.x``): each file is one document, its
sentences the ``#Text=`` lines, placed in the document's text by the offsets of their first and last
tokens.  The instances the annotation reader made of the file (``document:begin-end``, the document
named after the file as :func:`~hieradjudicate.io.annotations.tools.webanno_tsv.document_name` names it)
are marked where their offsets fall.  Read on demand, one pass over the file's lines."""

from __future__ import annotations

from collections.abc import Iterable

from hieradjudicate.io.annotations.tools.webanno_tsv import _unescape, document_name
from hieradjudicate.io.contexts.document import DocumentIndex, spans_by_document


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
    wanted = spans_by_document(instances).get(doc)
    index = DocumentIndex()
    if not wanted:
        return index
    sentences = _sentences(text)
    if not sentences:
        return index
    index.add_document(doc, [(s0, s0 + len(s_text), s_text) for s0, s_text in sentences], wanted)
    return index
