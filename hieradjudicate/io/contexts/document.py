"""Whole documents around an instance: its document, the sentences before and after it, and the other
instances of its lemma in that document (what a lexicographer reads before deciding).

Built from the WSD evaluation framework's ``<corpus><text id><sentence id>`` XML (see
:mod:`hieradjudicate.io.contexts.wsdxml`; sentences are joined exactly as that reader joins them, so
a sentence here is the instance's context there).  The index is built once per file, in one pass over
the tokens; every question after that is a dictionary look-up and a slice (no loop over instances).
"""

from __future__ import annotations

import bisect
import gzip
import re
import xml.etree.ElementTree as ET
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from hieradjudicate.core.errors import FormatError
from hieradjudicate.io.contexts.wsdxml import POS
from hieradjudicate.io.textfile import decode_text


@dataclass(frozen=True)
class Mark:
    """An instance inside a sentence: its id, lexelt (``lemma.pos``) and character span."""

    instance: str
    lexelt: str
    start: int
    end: int


@dataclass(frozen=True)
class Sentence:
    id: str
    text: str
    marks: tuple[Mark, ...]


@dataclass(frozen=True)
class DocumentView:
    """One instance's document: ``sentences`` (the whole document, in order), ``at`` (the index of the
    target's sentence in it), the target's mark and the other instances of its lexelt, in order."""

    document: str
    sentences: tuple[Sentence, ...]
    at: int
    target: Mark
    same_lemma: tuple[str, ...]

    def window(self, before: int = 2, after: int = 2) -> tuple[int, int]:
        """The sentence range ``[first, last)`` of ``before`` sentences before the target's and
        ``after`` after it (clipped to the document)."""
        return max(0, self.at - before), min(len(self.sentences), self.at + after + 1)


@dataclass
class DocumentIndex:
    """Documents of one or more files, indexed by instance id."""

    #: document id -> its sentences
    documents: dict[str, tuple[Sentence, ...]] = field(default_factory=dict)
    #: instance id -> (document id, sentence index, mark index)
    where: dict[str, tuple[str, int, int]] = field(default_factory=dict)
    #: (document id, lexelt) -> instance ids in document order
    by_lemma: dict[tuple[str, str], list[str]] = field(default_factory=dict)

    def __contains__(self, instance: str) -> bool:
        return instance in self.where

    def __len__(self) -> int:
        return len(self.where)

    def document_of(self, instance: str) -> str | None:
        w = self.where.get(instance)
        return None if w is None else w[0]

    def view(self, instance: str) -> DocumentView | None:
        """The document around ``instance``; None when the index does not hold it."""
        w = self.where.get(instance)
        if w is None:
            return None
        doc, s, m = w
        sentences = self.documents[doc]
        target = sentences[s].marks[m]
        same = tuple(x for x in self.by_lemma[(doc, target.lexelt)] if x != instance)
        return DocumentView(doc, sentences, s, target, same)

    def add_document(self, doc: str, sentences: list[tuple[int, int, str]],
                     spans: Iterable[tuple[int, int, str, str]]) -> None:
        """Add document ``doc`` from its ``(start, end, text)`` sentences (character offsets in the
        document) and the instances' ``(begin, end, lexelt, instance)`` spans, each placed in the
        sentence it begins in and clipped to it."""
        starts = [b for b, _, _ in sentences]
        per_sentence: dict[int, list[Mark]] = defaultdict(list)
        for b, e, lexelt, inst in sorted(set(spans)):
            k = max(0, bisect.bisect_right(starts, b) - 1)
            s0, s1, _ = sentences[k]
            per_sentence[k].append(Mark(inst, lexelt, b - s0, min(e, s1) - s0))
        out = []
        for k, (_s0, _s1, s_text) in enumerate(sentences):
            marks = tuple(per_sentence.get(k, ()))
            for m_i, mark in enumerate(marks):
                self.where[mark.instance] = (doc, k, m_i)
                self.by_lemma.setdefault((doc, mark.lexelt), []).append(mark.instance)
            out.append(Sentence(f"{doc}#{k + 1}", s_text, marks))
        self.documents[doc] = tuple(out)

    def merge(self, other: DocumentIndex) -> None:
        """Add ``other``'s documents (a later file's document of the same id replaces the earlier)."""
        self.documents.update(other.documents)
        self.where.update(other.where)
        self.by_lemma.update(other.by_lemma)


def index_wsd_xml(raw: bytes | str, path: str = "") -> DocumentIndex:
    """Index the WSD framework's XML (bytes may be gzip-compressed).

    A sentence outside any ``<text>`` belongs to a document named after the sentence's own id prefix
    (``d000.s000`` -> ``d000``), so a file without ``<text>`` still groups its sentences.

    Raises
    ------
    FormatError
        When the XML is not well formed (with the line and column the parser names).
    """
    if isinstance(raw, bytes):
        if raw[:2] == b"\x1f\x8b":
            raw = gzip.decompress(raw)
        raw = decode_text(raw, path)
    try:
        root = ET.fromstring(raw.encode("utf-8"))
    except ET.ParseError as exc:
        line, column = exc.position
        raise FormatError(f"not well-formed XML ({str(exc).split(':')[0]}); expected the WSD evaluation "
                          "framework's <corpus><text><sentence> file", file=path, line=line) from None
    index = DocumentIndex()
    docs: dict[str, list[Sentence]] = {}
    parents = {s: t for t in root.iter("text") for s in t.iter("sentence")}
    for sentence in root.iter("sentence"):
        sid = sentence.get("id") or ""
        text_el = parents.get(sentence)
        doc = (text_el.get("id") if text_el is not None else None) or sid.rpartition(".")[0] or "(document)"
        words, marks, length = [], [], 0
        for tok in sentence:
            word = " ".join((tok.text or "").split())
            start = length + (1 if words else 0)
            words.append(word)
            length = start + len(word)
            if tok.tag == "instance":
                ident, lemma, pos = tok.get("id"), tok.get("lemma"), tok.get("pos")
                if ident and lemma and pos in POS:
                    marks.append(Mark(ident, f"{lemma.lower()}.{POS[pos]}", start, length))
        sentences = docs.setdefault(doc, [])
        for m, mark in enumerate(marks):
            index.where[mark.instance] = (doc, len(sentences), m)
            index.by_lemma.setdefault((doc, mark.lexelt), []).append(mark.instance)
        sentences.append(Sentence(sid, " ".join(words), tuple(marks)))
    index.documents = {d: tuple(s) for d, s in docs.items()}
    return index


#: an instance id ``DOCUMENT:BEGIN-END`` of an annotation tool's export
_SPAN = re.compile(r"(\d+)-(\d+)")


def spans_by_document(instances: Iterable[tuple[str, str]]) -> dict[str, list[tuple[int, int, str, str]]]:
    """The ``(begin, end, lexelt, instance)`` spans of the ``(lexelt, DOCUMENT:BEGIN-END)`` instances,
    by document (ids of another shape are left out)."""
    wanted: dict[str, list[tuple[int, int, str, str]]] = defaultdict(list)
    for lexelt, inst in instances:
        doc, _, span = inst.rpartition(":")
        m = _SPAN.fullmatch(span)
        if doc and m:
            wanted[doc].append((int(m.group(1)), int(m.group(2)), lexelt, inst))
    return wanted
