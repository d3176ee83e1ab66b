"""INCEpTION / WebAnno annotations: UIMA CAS XMI files and whole INCEpTION project exports.

Read with dkpro-cassis, the DKPro project's own reader of the UIMA CAS (type systems,
XMI, subtypes, offsets in Unicode code points as Python counts them): the XMI is an object
graph, not a flat list, and hand-written XML walking gets inheritance and views wrong.

What is read (``path``):

* one ``.xmi`` file, its type system ``TypeSystem.xml`` beside it: one annotation set;
* a zip of XMI files with a ``TypeSystem.xml`` (INCEpTION's "export document" archive): one set;
* an INCEpTION **project export** (zip with ``annotation/<document>/<user>.xmi``, or a
  ``<user>.zip`` holding the XMI and its type system, and ``curation/<document>/CURATION_USER.*``):
  one set per annotator (named after the user) and a set ``curation`` for the curated files,
  all in one step.  INCEpTION's ``INITIAL_CAS`` copies are the unannotated source and are skipped.

An **instance** is a span of the chosen layer: id ``<document>:<begin>-<end>`` (character
offsets), so two annotators' spans on the same characters are the same instance.  Its **lexelt**
is the lemma of that span where a DKPro ``Lemma`` covers exactly the same characters, else its
text lower-cased with spaces collapsed (the choice is ``lexelt="text"``; ``"layer"`` puts every
span into one lexelt named after the layer).  The **tag** is the chosen feature's string value;
a span without a value is not an answer and is reported as a warning with its element.  Its
**context** is the covering sentence, with the span highlighted.

Options travel in ``columns`` (stored with the project): ``layer`` (type name, or its last
part), ``feature`` and ``lexelt``.  Without a layer, DKPro's ``WordSense``/``value`` is taken
when the files have such spans; otherwise the reader lists every layer and string feature it
found, with counts, and asks for a choice.
"""

from __future__ import annotations

import bisect
import io
import itertools
import os
import re
import zipfile
import zlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from hieradjudicate.core.errors import FormatError, ProblemLog
from hieradjudicate.core.records import Context
from hieradjudicate.io.annotations.build import Parsed
from hieradjudicate.io.textfile import max_input_bytes, read_bytes
from hieradjudicate.io.annotations.sniffing import is_uima  # noqa: F401 (its home before)

SENTENCE = "de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.Sentence"
LEMMA = "de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.Lemma"
WORD_SENSE = "de.tudarmstadt.ukp.dkpro.core.api.semantics.type.WordSense"
#: Users whose files are not an annotator's work.
NOT_ANNOTATORS = {"INITIAL_CAS"}
CURATION_USER = "CURATION_USER"
MAX_MEMBER = 512 * 2**20  # a member that inflates past this is refused (zip bombs)
#: XML elements one document may hold: a CAS costs about 0.6 KB per element (600 MB at this limit)
DEFAULT_MAX_XML_ELEMENTS = 1_000_000
LEXELT_MODES = ("text", "lemma", "layer")


@dataclass
class CasFile:
    """One XMI document of one user, with where it came from (for messages)."""

    user: str | None  # None: a single file, named by the set
    document: str
    where: str  # path, or path!member
    xmi: bytes
    typesystem: bytes | None


@dataclass
class LayerCount:
    """A span layer and one of its string features, as found in the files."""

    layer: str
    feature: str
    spans: int
    with_value: int

    def __str__(self) -> str:
        return f"{self.layer.rsplit('.', 1)[-1]} / {self.feature} ({self.spans} spans, {self.with_value} with a value)"


@dataclass
class UimaResult:
    parsed: Parsed
    contexts: list[Context] = field(default_factory=list)
    layer: str = ""
    feature: str = ""


# ------------------------------------------------------------------ finding the documents
class _Budget:
    """Bytes inflated so far from one archive (all members, nested zips included)."""

    def __init__(self) -> None:
        self.total = 0
        self.limit = max_input_bytes()


def _read_member(z: zipfile.ZipFile, info: zipfile.ZipInfo, where: str, budget: _Budget) -> bytes:
    """A member's bytes, counted as they inflate: its header may lie about its size."""
    if info.file_size > MAX_MEMBER:
        raise FormatError(f"{info.filename}: {info.file_size} bytes uncompressed, more than the "
                          f"{MAX_MEMBER >> 20} MB a document may have", file=where)
    out: list[bytes] = []
    n = 0
    elements = max_xml_elements() if info.filename.lower().endswith(".xmi") else None
    try:
        with z.open(info) as fh:
            while chunk := fh.read(1 << 20):
                n += len(chunk)
                budget.total += len(chunk)
                if elements is not None:  # counted as it inflates: refused after megabytes
                    elements -= chunk.count(b"<")
                    if elements < 0:
                        raise FormatError(f"{info.filename}: more than {max_xml_elements():,} XML "
                                          "elements in one document, more than fit in memory safely; "
                                          "expected a smaller document (raise HIERADJ_MAX_XML_ELEMENTS "
                                          "if it is genuine)", file=where)
                if n > MAX_MEMBER:
                    raise FormatError(f"{info.filename}: inflates past the {MAX_MEMBER >> 20} MB a "
                                      "document may have (its header says less)", file=where)
                if budget.total > budget.limit:
                    raise FormatError(f"the archive inflates to more than {budget.limit:,} bytes in all "
                                      f"(stopped in {info.filename}); expected an input below that size "
                                      "(raise HIERADJ_MAX_INPUT_BYTES if it is genuine)", file=where)
                out.append(chunk)
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError, OSError,
            ValueError) as exc:
        raise FormatError(f"{info.filename}: a damaged or unreadable zip member ({exc}); expected an "
                          "intact archive", file=where) from None
    return b"".join(out)


def _check_elements(cf: CasFile) -> None:
    """Refuse a document with more XML elements than parse in bounded memory (about 0.6 KB each)."""
    limit = max_xml_elements()
    if len(cf.xmi) > limit and cf.xmi.count(b"<") > limit:
        raise FormatError(f"more than {limit:,} XML elements in one document, more than fit in memory "
                          "safely; expected a smaller document (raise HIERADJ_MAX_XML_ELEMENTS if it is "
                          "genuine)", file=cf.where)


def max_xml_elements() -> int:
    """The most XML elements one XMI document may hold (env ``HIERADJ_MAX_XML_ELEMENTS``)."""
    raw = os.environ.get("HIERADJ_MAX_XML_ELEMENTS", "").strip().replace("_", "")
    return int(raw) if raw.isdigit() and int(raw) > 0 else DEFAULT_MAX_XML_ELEMENTS


def _typesystem_in(z: zipfile.ZipFile, where: str, budget: _Budget, folder: str = "") -> bytes | None:
    best = None
    for info in z.infolist():
        name = PurePosixPath(info.filename)
        if name.name.lower() == "typesystem.xml":
            if str(name.parent).strip(".") == folder.strip("/").strip("."):
                return _read_member(z, info, where, budget)
            best = best or info
    return _read_member(z, best, where, budget) if best is not None else None


def iter_cas_files(path: str) -> Iterator[CasFile]:
    """Every XMI document in ``path`` (see the module docstring), in a stable order."""
    if not os.path.isfile(path):
        read_bytes(path)  # names the problem: missing, a folder, a pipe
    with open(path, "rb") as fh:
        head = fh.read(4)
    if head != b"PK\x03\x04":
        ts_path = next((os.path.join(os.path.dirname(path) or ".", n)
                        for n in ("TypeSystem.xml", "typesystem.xml")
                        if os.path.isfile(os.path.join(os.path.dirname(path) or ".", n))), None)
        # bounded and regular files only; XML is exempt from the line limit (often one line); its
        # elements are counted as it is read (refused after megabytes, not after 512 MiB)
        xmi = read_bytes(path, line_limit=False, xml_elements=max_xml_elements())
        ts = read_bytes(ts_path, line_limit=False) if ts_path is not None else None
        yield CasFile(None, _doc_name(os.path.basename(path)), path, xmi, ts)
        return
    try:
        z = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as exc:
        raise FormatError(f"not a readable zip archive ({exc})", file=path) from None
    budget = _Budget()
    with z:
        shared_ts = _typesystem_in(z, path, budget)
        typesystems: dict[str, bytes | None] = {}
        infos = sorted(z.infolist(), key=lambda i: i.filename)
        project = any(PurePosixPath(i.filename).parts[:1] in (("annotation",), ("curation",))
                      for i in infos)
        for info in infos:
            p = PurePosixPath(info.filename)
            if info.is_dir() or p.suffix.lower() not in (".xmi", ".zip"):
                continue
            where = f"{path}!{info.filename}"
            if project:
                if len(p.parts) < 3 or p.parts[0] not in ("annotation", "curation"):
                    continue
                document, user = p.parts[-2], p.stem
                if p.parts[0] == "curation" or user == CURATION_USER:
                    user = "curation"
                elif user in NOT_ANNOTATORS:
                    continue
            else:
                document, user = _doc_name(p.name), None
            data = _read_member(z, info, path, budget)
            if p.suffix.lower() == ".zip":  # INCEpTION wraps each exported file with its type system
                try:
                    inner = zipfile.ZipFile(io.BytesIO(data))
                except zipfile.BadZipFile as exc:
                    raise FormatError(f"{info.filename}: not a readable zip ({exc})", file=path) from None
                with inner:
                    xmis = [i for i in inner.infolist() if i.filename.lower().endswith(".xmi")]
                    if not xmis:
                        continue
                    yield CasFile(user, document, where, _read_member(inner, xmis[0], where, budget),
                                  _typesystem_in(inner, where, budget) or shared_ts)
            else:
                folder = str(p.parent)
                if folder not in typesystems:  # read once per folder, not once per document
                    typesystems[folder] = _typesystem_in(z, path, budget, folder)
                yield CasFile(user, document, where, data, typesystems[folder] or shared_ts)


def _doc_name(filename: str) -> str:
    for suffix in (".xmi", ".zip", ".gz"):
        if filename.lower().endswith(suffix):
            filename = filename[: -len(suffix)]
    return filename


# ------------------------------------------------------------------ reading one CAS
def load_cas(cf: CasFile, log: ProblemLog | None = None):
    """The CAS of one document; elements of types the type system lacks are skipped (lenient
    reading, as INCEpTION does) and each kind is reported once as a warning in ``log``."""
    import warnings

    from cassis import load_cas_from_xmi, load_typesystem

    _check_elements(cf)
    if cf.typesystem is None:
        raise FormatError("no type system: put INCEpTION's TypeSystem.xml beside the XMI file "
                          "(or in the zip)", file=cf.where)
    try:
        ts = load_typesystem(io.BytesIO(cf.typesystem))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            cas = load_cas_from_xmi(io.BytesIO(cf.xmi), typesystem=ts, lenient=True)
        if log is not None:
            for message in dict.fromkeys(str(w.message) for w in caught):
                log.warning(None, f"{cf.where}: {message} (its elements were skipped)")
        return cas
    except FormatError:
        raise
    except Exception as exc:  # cassis raises plain exceptions for malformed XML and types
        raise FormatError(f"not a UIMA CAS XMI document that its type system describes "
                          f"({type(exc).__name__}: {exc})", file=cf.where) from None


def _span_types(ts) -> list:
    """Annotation types that mark spans of the text (not document metadata or tag sets)."""
    base = ts.get_type("uima.tcas.Annotation")
    doc = ts.get_type("uima.tcas.DocumentAnnotation")
    return [t for t in ts.get_types() if t is not base and ts.subsumes(base, t)
            and not ts.subsumes(doc, t) and not t.name.endswith(".TagsetDescription")]


def survey(path: str) -> list[LayerCount]:
    """Every span layer and string feature in the files, with how many spans have a value
    (the mapping step of the wizard and the message that asks for a choice)."""
    counts: dict[tuple[str, str], list[int]] = {}
    for cf in iter_cas_files(path):
        cas = load_cas(cf)
        for t in _span_types(cas.typesystem):
            feats = [f.name for f in t.all_features if f.rangeType.name == "uima.cas.String"
                     and f.name not in ("sofa",)]
            if not feats:
                continue
            spans = cas.select(t.name)
            if not spans:
                continue
            for f in feats:
                c = counts.setdefault((t.name, f), [0, 0])
                c[0] += len(spans)
                c[1] += sum(1 for a in spans if a.get(f) not in (None, ""))
    out = [LayerCount(layer, feat, n, v) for (layer, feat), (n, v) in counts.items()]
    return sorted(out, key=lambda c: (-c.with_value, c.layer, c.feature))


def resolve_layer(ts, layer: str, where: str, cas=None) -> str:
    """The full name of span layer ``layer`` (or its last part); else an error listing the layers
    that have spans in ``cas`` (when given), then the type system's, saying how many are not shown."""
    names = [t.name for t in _span_types(ts)]
    if layer in names:
        return layer
    short = [n for n in names if n.rsplit(".", 1)[-1] == layer]
    if len(short) == 1:
        return short[0]
    used = sorted({n.rsplit(".", 1)[-1] for n in names if cas.select(n)}) if cas is not None else []
    every = sorted({n.rsplit(".", 1)[-1] for n in names})
    listed = (f"layers with spans in this file: {', '.join(used)}; " if used else "") + \
        f"{len(every)} span layers in the type system: {', '.join(every[:30])}" + \
        (f" and {len(every) - 30} more" if len(every) > 30 else "")
    raise FormatError(f"no span layer {layer!r} in the type system ({listed})", file=where)


def _line_index(xmi: bytes) -> Mapping[int, int]:
    """xmi:id -> 1-based line of its element, so messages can say file:line."""
    out: dict[int, int] = {}
    line = 1
    pos = 0
    for m in re.finditer(rb'xmi:id="(\d+)"', xmi):
        line += xmi.count(b"\n", pos, m.start())
        pos = m.start()
        out[int(m.group(1))] = line
    return out


def _norm(text: str) -> str:
    return " ".join(text.split()).lower()


def parse_uima(path: str, set_name: str, log: ProblemLog,
               columns: Mapping[str, str] | None = None) -> UimaResult:
    """Read ``path`` (see the module docstring) into rows for :func:`build_source`."""
    columns = dict(columns or {})
    layer, feature = columns.get("layer"), columns.get("feature")
    mode = columns.get("lexelt", "text")
    if mode not in LEXELT_MODES:
        raise FormatError(f"lexelt mode {mode!r}: expected one of {', '.join(LEXELT_MODES)}", file=path)
    found_files = iter_cas_files(path)  # one document's bytes in memory at a time
    first = next(found_files, None)
    files = itertools.chain([first], found_files) if first is not None else iter(())
    if first is None:
        raise FormatError("no XMI document found; expected an .xmi file, a zip of .xmi files with "
                          "TypeSystem.xml, or an INCEpTION project export (annotation/<doc>/<user>.*)",
                          file=path)
    if not layer:
        found = survey(path)
        if any(c.layer == WORD_SENSE and c.feature == "value" and c.with_value for c in found):
            layer, feature = WORD_SENSE, "value"
        else:
            listing = "; ".join(str(c) for c in found[:12]) or "none"
            raise FormatError("choose the layer and feature that hold the sense: --xmi-layer TYPE "
                              f"--xmi-feature FEATURE (found: {listing})", file=path)
    if not feature:
        raise FormatError(f"layer {layer}: give the feature that holds the sense (--xmi-feature)", file=path)
    lexelts: list[str] = []
    instances: list[str] = []
    unit_set: list[int] = []
    unit_line: list[int] = []
    label_unit: list[int] = []
    label_tag: list[int] = []
    tags: dict[str, int] = {}
    set_names: dict[str, int] = {}
    contexts: dict[tuple[str, str], Context] = {}
    resolved = ""
    for cf in files:
        cas = load_cas(cf, log)
        resolved = resolve_layer(cas.typesystem, layer, cf.where, cas)
        t = cas.typesystem.get_type(resolved)
        if feature not in {f.name for f in t.all_features}:
            raise FormatError(f"layer {resolved} has no feature {feature!r} (features: "
                              + ", ".join(f.name for f in t.all_features if f.name not in ("sofa", "begin", "end"))
                              + ")", file=cf.where)
        lines = _line_index(cf.xmi)
        user = cf.user or set_name
        k = set_names.setdefault(user, len(set_names))
        text = cas.sofa_string or ""
        lemmas = {}
        if mode == "lemma" or mode == "text":
            try:
                lemmas = {(a.begin, a.end): a.get("value") for a in cas.select(LEMMA)}
            except Exception:  # a type system without DKPro's Lemma
                lemmas = {}
        sentences = sorted(((s.begin, s.end) for s in cas.select(SENTENCE)), key=lambda x: x[0]) \
            if SENTENCE in {x.name for x in cas.typesystem.get_types()} else []
        seen: dict[tuple[int, int], int] = {}
        for a in cas.select(resolved):
            value = a.get(feature)
            line = lines.get(a.xmiID, 0)
            if value in (None, ""):
                log.warning(line or None, f"{cf.document}: span {a.begin}-{a.end} "
                            f"({_norm(text[a.begin:a.end])[:40]!r}, element xmi:id={a.xmiID}) has no "
                            f"{feature}; not an answer")
                continue
            if not isinstance(value, str):
                log.error(line or None, f"{cf.document}: span {a.begin}-{a.end}: {feature} is not a "
                          f"string ({type(value).__name__}); expected a sense label")
                continue
            if not (isinstance(a.begin, int) and isinstance(a.end, int)
                    and 0 <= a.begin <= a.end <= len(text)):
                log.error(line or None, f"{cf.document}: span {a.begin}-{a.end} (element xmi:id={a.xmiID}) "
                          f"is reversed, negative or past the end of the text ({len(text)} characters); "
                          "expected 0 <= begin <= end <= the text's length")
                continue
            span = (a.begin, a.end)
            unit = seen.get(span)
            if unit is None:  # stacked annotations on one span are one answer with several tags
                unit = seen[span] = len(unit_line)
                if mode == "layer":
                    lex = resolved.rsplit(".", 1)[-1]
                else:
                    lex = _norm(lemmas.get(span) or "") if mode == "lemma" or lemmas.get(span) else ""
                    lex = lex or _norm(text[a.begin:a.end]) or "(empty span)"
                inst = f"{cf.document}:{a.begin}-{a.end}"
                lexelts.append(lex)
                instances.append(inst)
                unit_set.append(k)
                unit_line.append(line)
                key = (lex, inst)
                if key not in contexts:
                    contexts[key] = _context(text, sentences, span, lex, inst, line)
            label_unit.append(unit)
            label_tag.append(tags.setdefault(value.strip(), len(tags)))
    parsed = Parsed.from_rows(lexelts, instances, unit_set, unit_line, label_unit, label_tag,
                              [float("nan")] * len(label_tag), list(set_names), list(tags))
    return UimaResult(parsed, list(contexts.values()), resolved, feature)


def _context(text: str, sentences: list[tuple[int, int]], span: tuple[int, int], lex: str,
             inst: str, line: int) -> Context:
    b, e = span
    k = bisect.bisect_right(sentences, (b, len(text) + 1)) - 1  # the last sentence starting at or before b
    if k >= 0 and sentences[k][1] >= e:
        s0, s1 = sentences[k]
    else:  # no sentence layer, or a span across sentences: a window around the span
        s0, s1 = max(0, b - 200), min(len(text), e + 200)
    return Context(lex, inst, text[s0:s1], (b - s0, e - s0), line or None)


def bundle_single_xmi(path: str) -> bytes | None:
    """A single ``.xmi`` file and the ``TypeSystem.xml`` beside it as one zip (what a project
    stores, so the copy can be read again without the folder it came from); ``None`` for a zip."""
    cf = next(iter_cas_files(path))
    if cf.user is not None or cf.where != path or cf.typesystem is None:
        return None
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(f"{cf.document}.xmi", cf.xmi)
        z.writestr("TypeSystem.xml", cf.typesystem)
    return out.getvalue()
