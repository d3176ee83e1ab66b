"""Where a project's inputs carry no whole documents, the document panel says why in words (#31)."""

from __future__ import annotations

from hieradjudicate.app.workbench.documents import document_context
from hieradjudicate.io.store.records import FileRecord
from tests.io.test_document_context import SMALL


class _Store:
    """The two calls :func:`document_context` makes of a project store."""

    def __init__(self, files: list[tuple[str, str | None, bytes]]) -> None:
        self.records = [FileRecord(k + 1, kind, None, (), fmt, {}, f"in{k}", len(data), "", "")
                        for k, (kind, fmt, data) in enumerate(files)]
        self.data = {k + 1: data for k, (_kind, _fmt, data) in enumerate(files)}

    def files(self, kind: str | None = None) -> list[FileRecord]:
        return [f for f in self.records if kind is None or f.kind == kind]

    def file_bytes(self, file_id: int) -> bytes:
        return self.data[file_id]


def test_masc_crowd_file_says_it_carries_no_sentences():
    ctx = document_context(_Store([("inventory", "tree-table", b""), ("annotations", "masc", b"")]))
    assert ctx.index is None and ctx.reason.startswith("MASC's crowd file carries no sentences")


def test_a_lexical_sample_says_one_passage_per_instance():
    ctx = document_context(_Store([("annotations", "senseval", b""), ("contexts", "senseval-xml", b"")]))
    assert ctx.index is None and "one passage per instance" in ctx.reason


def test_a_key_without_contexts_says_no_contexts_file():
    ctx = document_context(_Store([("annotations", "wsd-key", b"")]))
    assert ctx.index is None and "without a contexts file" in ctx.reason


def test_the_wsd_framework_xml_is_indexed_from_the_stored_copy():
    ctx = document_context(_Store([("annotations", "wsd-key", b""), ("contexts", "wsd-xml", SMALL.encode())]))
    assert ctx.reason == "" and len(ctx.index) == 7 and ctx.index.document_of("d001.s000.t000") == "d001"


def test_inception_export_documents_are_indexed_with_their_sentences(realdata, tmp_path):
    """The real INCEpTION export: every instance of the project lies in its document, its sentence
    holding its span (oracle: the id's own offsets into cassis's document text)."""
    from cassis import load_cas_from_xmi, load_typesystem

    from hieradjudicate.app.loading.load import AnnotationSpec
    from hieradjudicate.app.session.session import Session
    from tests.io.test_uima import NE

    d = realdata / "inception"
    with Session.create(tmp_path / "p.hadj", [], [AnnotationSpec(str(d / "moralistik.xmi"), columns=NE)]) as s:
        lex = s.corpus.inventory.lexelts
        pairs = list(zip([lex[x] for x in s.corpus.inst_lexelt.tolist()], s.corpus.inst_id, strict=True))
        ctx = document_context(s.store, lambda: pairs)
    with open(d / "TypeSystem.xml", "rb") as ts, open(d / "moralistik.xmi", "rb") as xmi:
        text = load_cas_from_xmi(xmi, typesystem=load_typesystem(ts)).sofa_string
    assert ctx.reason == "" and len(ctx.index) == len(pairs) > 0
    for lexelt, inst in pairs:
        v = ctx.index.view(inst)
        b, e = map(int, inst.rpartition(":")[2].split("-"))
        sentence = v.sentences[v.at].text
        assert sentence[v.target.start:v.target.end] == text[b:e] and v.target.lexelt == lexelt
        assert len(sentence) < len(text)  # a sentence, not the whole text
        assert all(ctx.index.view(x).target.lexelt == lexelt for x in v.same_lemma)
