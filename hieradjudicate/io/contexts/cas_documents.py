"""Whole documents of an INCEpTION/UIMA export (XMI with its type system, or a project zip): each
document's text cut at its sentence layer, with the instances the annotation reader made of it
marked (their ids are ``document:begin-end``, character offsets into the document's text; see
:mod:`hieradjudicate.io.annotations.tools.uima`).  Read on demand; cassis is imported only here."""

from __future__ import annotations

from collections.abc import Iterable

from hieradjudicate.io.contexts.document import DocumentIndex, spans_by_document

SENTENCE = "de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.Sentence"


def index_uima(path: str, instances: Iterable[tuple[str, str]]) -> DocumentIndex:
    """Index the documents of the export at ``path`` that hold some of ``instances`` ((lexelt, id)
    pairs of the project).  A document annotated by several users is read once (its text is one)."""
    from hieradjudicate.io.annotations.tools.uima import iter_cas_files, load_cas

    wanted = spans_by_document(instances)
    index = DocumentIndex()
    for cf in iter_cas_files(path):
        if cf.document not in wanted or cf.document in index.documents:
            continue
        cas = load_cas(cf)
        text = cas.sofa_string or ""
        types = {t.name for t in cas.typesystem.get_types()}
        bounds = sorted((s.begin, s.end) for s in cas.select(SENTENCE)) if SENTENCE in types else []
        bounds = bounds or [(0, len(text))]
        index.add_document(cf.document, [(s0, s1, text[s0:s1]) for s0, s1 in bounds], wanted[cf.document])
    return index
