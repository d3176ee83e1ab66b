"""Whole documents of an INCEpTION/UIMA export (XMI with its type system, or a project zip): each
document's text cut at its sentence layer, with the instances the annotation reader made of it
marked (their ids are ``document:begin-end``, character offsets into the document's text; see
:mod:`hieradjudicate.io.annotations.tools.uima`).  Read on demand; cassis is imported only here."""

from __future__ import annotations

import bisect
import re
from collections import defaultdict
from collections.abc import Iterable

from hieradjudicate.io.contexts.document import DocumentIndex, Mark, Sentence

_SPAN = re.compile(r"(\d+)-(\d+)")
SENTENCE = "de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.Sentence"


def index_uima(path: str, instances: Iterable[tuple[str, str]]) -> DocumentIndex:
    """Index the documents of the export at ``path`` that hold some of ``instances`` ((lexelt, id)
    pairs of the project).  A document annotated by several users is read once (its text is one)."""
    from hieradjudicate.io.annotations.tools.uima import iter_cas_files, load_cas

    wanted: dict[str, list[tuple[int, int, str, str]]] = defaultdict(list)
    for lexelt, inst in instances:
        doc, _, span = inst.rpartition(":")
        m = _SPAN.fullmatch(span)
        if doc and m:
            wanted[doc].append((int(m.group(1)), int(m.group(2)), lexelt, inst))
    index = DocumentIndex()
    for cf in iter_cas_files(path):
        if cf.document not in wanted or cf.document in index.documents:
            continue
        cas = load_cas(cf)
        text = cas.sofa_string or ""
        types = {t.name for t in cas.typesystem.get_types()}
        bounds = sorted((s.begin, s.end) for s in cas.select(SENTENCE)) if SENTENCE in types else []
        bounds = bounds or [(0, len(text))]
        starts = [b for b, _ in bounds]
        per_sentence: dict[int, list[Mark]] = defaultdict(list)
        for b, e, lexelt, inst in sorted(set(wanted[cf.document])):
            k = max(0, bisect.bisect_right(starts, b) - 1)
            s0, s1 = bounds[k]
            per_sentence[k].append(Mark(inst, lexelt, b - s0, min(e, s1) - s0))
        doc = cf.document
        sentences = []
        for k, (s0, s1) in enumerate(bounds):
            marks = tuple(per_sentence.get(k, ()))
            for m_i, mark in enumerate(marks):
                index.where[mark.instance] = (doc, k, m_i)
                index.by_lemma.setdefault((doc, mark.lexelt), []).append(mark.instance)
            sentences.append(Sentence(f"{doc}#{k + 1}", text[s0:s1], marks))
        index.documents[doc] = tuple(sentences)
    return index
