"""The document context of a project: its documents indexed from the stored input copies (read when
first asked for, once), or a plain sentence saying why the inputs carry none; and the senses of an
instance's lexelt with their definitions, examples and the sets that chose them."""

from __future__ import annotations

import gzip
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hieradjudicate.app.session.stored_inputs import safe_name
from hieradjudicate.core.inventory.gloss_parts import split_gloss
from hieradjudicate.core.inventory.labels import node_short_labels
from hieradjudicate.io.annotations.tools.webanno_tsv import document_name
from hieradjudicate.io.contexts.cas_documents import index_uima
from hieradjudicate.io.store.inputs import effective_files
from hieradjudicate.io.contexts.document import DocumentIndex, index_wsd_xml
from hieradjudicate.io.contexts.webanno_documents import index_webanno_tsv
from hieradjudicate.io.textfile import decode_text

#: Why a project's inputs carry no documents, by the format of what it holds.
_NO_DOCUMENT = {
    "senseval-xml": "The Senseval lexical-sample file carries one passage per instance, not whole documents",
    "table": "The contexts table carries one context per instance, not whole documents",
    "wsbest-uses": "The WSbest uses table carries one sentence per instance, not whole documents",
    "masc": "MASC's crowd file carries no sentences",
    "wide-table": "The wide table of labels carries no sentences",
    "uima-xmi": "The INCEpTION/UIMA export holds none of this project's instances",
    "webanno-tsv": "The WebAnno TSV files hold none of this project's instances",
}


@dataclass
class DocumentContext:
    """``index`` (None when the inputs hold no whole documents) and ``reason``: why not, in words."""

    index: DocumentIndex | None
    reason: str = ""
    sources: list[str] = field(default_factory=list)


def document_context(store: Any, instances: Callable[[], Iterable[tuple[str, str]]] | None = None
                     ) -> DocumentContext:
    """Index every stored WSD-framework XML copy of ``store`` (or, without one, every INCEpTION/UIMA
    export and WebAnno TSV file, marking the project's ``instances()``, (lexelt, id) pairs); else say
    why there are none.

    Raises
    ------
    FormatError
        When a stored copy cannot be read (it was read when the project was made, so only a damaged
        project does this).
    """
    files = effective_files(store.files())
    xml = [f for f in files if f.kind == "contexts" and f.format == "wsd-xml"]
    if xml:
        index = DocumentIndex()
        for f in xml:
            index.merge(index_wsd_xml(store.file_bytes(f.id), f.source_path))
        return DocumentContext(index, "", [f.source_path for f in xml])
    cas = [f for f in files if f.kind == "annotations" and f.format == "uima-xmi"]
    tsv = [f for f in files if f.kind == "annotations" and f.format == "webanno-tsv"]
    if (cas or tsv) and instances is not None:
        pairs = list(instances())
        index = DocumentIndex()
        with tempfile.TemporaryDirectory(prefix="hadj-doc-") as tmp:
            for k, f in enumerate(cas):
                target = Path(tmp) / safe_name(f.source_path, k)
                target.write_bytes(store.file_bytes(f.id))
                index.merge(index_uima(str(target), pairs))
        for f in tsv:  # one document per file; several sets of one document are one document
            if document_name(f.source_path) not in index.documents:
                raw = store.file_bytes(f.id)
                if raw[:2] == b"\x1f\x8b":
                    raw = gzip.decompress(raw)
                index.merge(index_webanno_tsv(decode_text(raw, f.source_path), f.source_path, pairs))
        if len(index):
            return DocumentContext(index, "", [f.source_path for f in cas + tsv])
    for f in files:
        if f.format in _NO_DOCUMENT and f.kind in ("contexts", "annotations"):
            return DocumentContext(None, _NO_DOCUMENT[f.format] + ": no surrounding sentences to show.")
    if not any(f.kind == "contexts" for f in files):
        return DocumentContext(None, "This project was made without a contexts file: its inputs carry no "
                                     "sentences (add the WSD framework's .data.xml with --contexts to see whole "
                                     "documents).")
    return DocumentContext(None, "This project's contexts file carries no whole documents.")


@dataclass(frozen=True)
class SenseInfo:
    """One sense of an instance's lexelt: label, full id, definition, examples, the sets choosing it."""

    label: str
    key: str
    definition: str
    examples: list[str]
    chosen_by: list[str]


def senses_in_question(wb: Any, i: int) -> list[SenseInfo]:
    """Every sense (leaf) of instance ``i``'s lexelt, and any group a set chose, the ones some set chose
    first (in the order of the inventory otherwise), each with its gloss split into definition and
    examples."""
    inv = wb.corpus.inventory
    x = int(wb.cols.lexelt[i])
    short = node_short_labels(inv)
    chosen: dict[str, list[str]] = {}
    for a in wb.answers(i):
        for t in a.tags:
            chosen.setdefault(t, []).append(a.name)
    out = []
    leaves = set(inv.lexelt_leaf_nodes[x].tolist())
    for n in inv.lexelt_nodes[x].tolist():
        if n not in leaves and inv.label(n) not in chosen:  # a group (WordNet's lexicographer file)
            continue
        definition, examples = split_gloss(inv.node_gloss[n] or "")
        out.append(SenseInfo(short[n], inv.node_id[n], definition, examples, chosen.get(inv.label(n), [])))
    out.sort(key=lambda s: not s.chosen_by)  # stable: the chosen first, each group in inventory order
    return out
