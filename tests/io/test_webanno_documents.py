"""WebAnno TSV 3 documents: the same sentences, marks and same-lemma lists as the XMI export of the same
real INCEpTION document gives (the TSV written from it by the test-only writer of test_uima)."""

from __future__ import annotations

from hieradjudicate.io.annotations.read import read_annotations
from hieradjudicate.io.contexts.cas_documents import index_uima
from hieradjudicate.io.contexts.webanno_documents import index_webanno_tsv
from tests.io.test_uima import NE, _tsv_from_xmi, inception  # noqa: F401  (the fixture)


def test_a_webanno_tsv_document_is_indexed_as_its_xmi(inception, tmp_path):  # noqa: F811
    text = _tsv_from_xmi(inception / "moralistik.xmi", inception / "TypeSystem.xml")
    tsv = tmp_path / "moralistik.tsv"
    tsv.write_text(text, encoding="utf-8")
    src = read_annotations(tsv, name="a", columns=NE)
    pairs = list(zip(src.item_lexelt, src.item_instance, strict=True))
    from_tsv = index_webanno_tsv(text, str(tsv), pairs)
    from_xmi = index_uima(str(inception / "moralistik.xmi"), pairs)
    assert len(from_tsv) == len(pairs) > 50 and from_tsv.where == from_xmi.where
    assert from_tsv.by_lemma == from_xmi.by_lemma
    for inst in src.item_instance:
        v, w = from_tsv.view(inst), from_xmi.view(inst)
        t, u = v.sentences[v.at], w.sentences[w.at]
        assert t.text[v.target.start:v.target.end] == u.text[w.target.start:w.target.end]
        assert t.text.strip() == u.text.strip() and v.same_lemma == w.same_lemma
    # another document's instances are not marked in this one
    assert len(index_webanno_tsv(text, str(tmp_path / "other.tsv"), pairs)) == 0
