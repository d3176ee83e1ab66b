"""Read annotation sets (human annotators and systems) from every supported format.

Formats (``AnnotationSource.format``), detected from the content:

``senseval``
    Key/answer lines ``lexelt instance tag[/weight] ... [!! comment]``; one
    set, named ``name`` or after the file (without extension).
``wsd-key``
    The WSD evaluation framework's keys ``instance_id sense_key [sense_key ...]``
    (Raganato et al. 2017); the lexelt is the first key's lemma + POS; see
    :mod:`hieradjudicate.io.annotations.wsdkey`.
``long-table``
    CSV/TSV with a header, one row per label: ``lexelt, instance,
    annotator, tag[, weight]``; one set per annotator.
``wsbest``
    The WSbest long table (``item_id, lemma, annotator_id,
    selected_sense_keys``, tags joined by ``;``).
``wide-table``
    CSV/TSV with a header, one row per instance: ``lexelt, instance`` and one
    column per annotator; a cell holds tags separated by ``;`` or ``,``.
``masc``
    The MASC crowd file (``word_pos, form_id, sentence_id, labels`` with
    ``labels = worker:sense,...``); one set per worker.
``jsonl``
    One object per line: ``{"lexelt", "instance", "set", "tags"}``.
``labelstudio``, ``prodigy``
    Label Studio's JSON export and Prodigy's JSONL, one set per annotator; see
    :mod:`hieradjudicate.io.annotations.tools.labelstudio`.
``webanno-tsv``
    WebAnno TSV 3 (WebAnno's and INCEpTION's tab-separated export), by layer and feature; see
    :mod:`hieradjudicate.io.annotations.tools.webanno_tsv`.
``uima-xmi``
    INCEpTION/WebAnno UIMA CAS XMI: one file, a zip of files, or a whole project export
    (one set per annotator); see :mod:`hieradjudicate.io.annotations.tools.uima`.

Detection: the first non-blank line starting with ``{`` means JSON Lines; a
first line whose cells (split at a tab, else the commonest of ``, ; |``)
name known columns means a table (WSbest and MASC by their exact headers;
an annotator and a tag column make a long table, lexelt and instance
columns alone a wide table); anything else is read as Senseval.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from hieradjudicate.core.errors import FormatError, Problem, ProblemLog
from hieradjudicate.core.records import AnnotationSource
from hieradjudicate.io import jsonsafe
from hieradjudicate.core.gc_policy import gc_paused
from hieradjudicate.io.annotations.build import Parsed, build_source
from hieradjudicate.io.annotations.tables import (
    first_line,
    guess_separator,
    header_kind,
    parse_long,
    split_header,
)
from hieradjudicate.io.textfile import decode_text, display_path, read_bytes

FORMATS = ("senseval", "wsd-key", "long-table", "wsbest", "wide-table", "masc", "jsonl", "uima-xmi", "labelstudio", "prodigy", "webanno-tsv")
_EXPECTED = {
    # senseval.EXPECTED_LINE without its "expected", written out so that reading a table does not import the Senseval
    # reader (tests/io/test_ann_packed_columnwise.py checks they agree)
    "senseval": "'lexelt instance_id tag[/weight] ... [!! comment]' lines",
    "wsd-key": "'instance_id sense_key [sense_key ...]' lines (the WSD evaluation framework's keys)",
    "jsonl": 'JSON objects {"lexelt", "instance", "set", "tags"}, one per line',
    "long-table": "rows 'lexelt, instance, annotator, tag[, weight]' under a header",
    "wsbest": "rows 'item_id, lemma, annotator_id, selected_sense_keys' under a header",
    "wide-table": "rows 'lexelt, instance, <one column per annotator>' under a header",
    "masc": "rows 'word_pos, form_id, sentence_id, labels' under a header",
    "uima-xmi": "spans of the chosen layer with a value of the chosen feature",
    "labelstudio": "Label Studio tasks with annotations whose results are choices or taxonomy paths",
    "prodigy": "Prodigy tasks with 'accept' lists, one per line",
    "webanno-tsv": "token lines with a value in the chosen layer's feature column",
}


def default_set_name(path: str) -> str:
    """The file name without directory, ``.gz`` and extension (undecodable bytes escaped)."""
    base = display_path(os.path.basename(path))
    if base.lower().endswith(".gz"):
        base = base[:-3]
    stem, _ = os.path.splitext(base)
    return stem or base or "annotations"


def detect_annotation_format(
    text: str, path: str = "", *, columns: Mapping[str, str] | None = None, sep: str | None = None
) -> str:
    """Name the annotation format of ``text`` (one of :data:`FORMATS`); see the module docstring.

    ``path`` is only a hint: a ``.jsonl`` name is JSON Lines whatever the first line says.
    """
    line = first_line(text)
    name = path.lower().removesuffix(".gz")
    from hieradjudicate.io.annotations.sniffing import is_webanno_tsv

    if is_webanno_tsv(text[:200]):
        return "webanno-tsv"
    from hieradjudicate.io.annotations.sniffing import looks_like_labelstudio, looks_like_prodigy

    if looks_like_labelstudio(text) or text.lstrip("\ufeff \t\r\n")[:1] == "[":
        # a JSON array is no table: read as Label Studio, whose reader says what it expected
        # (as one table line, a 60 MB array was split into 20 million "columns")
        return "labelstudio"
    if line.lstrip().startswith("{") or name.endswith(".jsonl"):
        try:
            first = jsonsafe.loads(line)
        except ValueError:
            first = None
        if isinstance(first, dict) and looks_like_prodigy(first):
            return "prodigy"
        return "jsonl"
    delimiter = sep or guess_separator(line)
    if delimiter is not None:
        kind = header_kind(split_header(line, delimiter), columns)
        if kind is not None:
            return kind
    if columns:
        return "wide-table" if "annotator" not in columns and "tag" not in columns else "long-table"
    from hieradjudicate.io.annotations.wsdkey import looks_like_wsd_key

    if looks_like_wsd_key(line):
        return "wsd-key"
    return "senseval"


def read_annotations(
    path: str | os.PathLike,
    *,
    format: str | None = None,
    name: str | None = None,
    columns: Mapping[str, str] | None = None,
    sep: str | None = None,
) -> AnnotationSource:
    """Read one annotation file (gzip, BOM and CRLF accepted) into an :class:`AnnotationSource`.

    Parameters
    ----------
    path
        The file.
    format
        One of :data:`FORMATS`; detected from the content when ``None``.
    name
        Set name for formats holding one set (Senseval; JSON lines without
        ``"set"``); default: the file name without extension.
    columns
        Tables only: our field (``lexelt``, ``instance``, ``annotator``,
        ``tag``, ``weight``; ``labels`` for a packed ``annotator:tag,...``
        column) -> the file's column name.
    sep
        Tables only: the column delimiter (sniffed when ``None``).

    Returns
    -------
    AnnotationSource
        With ``problems`` (errors and warnings, by line), ``skipped_lines``
        (lines rejected by an error) and ``duplicates`` (answers dropped
        because an earlier line answered the same instance for the same set).

    Raises
    ------
    FormatError
        When the file cannot be read or yields no valid label; it carries
        every problem found.  No other exception escapes.
    """
    p = os.fspath(path)
    try:
        with gc_paused():
            return _read(p, format, name, columns, sep)
    except FormatError:
        raise
    except MemoryError:
        raise FormatError("not enough memory to read this file", file=p) from None
    except Exception as exc:  # a defect of ours: still never a traceback in front of a user
        raise FormatError(
            f"internal error while reading ({type(exc).__name__}: {exc}); please report it", file=p
        ) from exc


def _read(
    path: str, fmt: str | None, name: str | None, columns: Mapping[str, str] | None, sep: str | None
) -> AnnotationSource:
    if fmt is not None and fmt not in FORMATS:
        raise FormatError(f"unknown annotation format {fmt!r}; expected one of {', '.join(FORMATS)}", file=path)
    log = ProblemLog(path)
    set_name = name or default_set_name(path)
    contexts: list = []
    parsed: Parsed
    if fmt is None or fmt == "uima-xmi":
        from hieradjudicate.io.annotations.sniffing import inflated_head, is_uima

        try:
            if not os.path.isfile(path):  # a FIFO would block open(); read_bytes names it
                raise OSError
            with open(path, "rb") as fh:
                head = fh.read(4096)
        except OSError:
            head = b""  # read_bytes below names the problem (missing, a folder, unreadable)
        head = inflated_head(head)
        if fmt is None and not is_uima(head) and head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"<":
            # XML but no XMI: no text format starts with '<', and as a table line a 500 MB
            # document reached 5 GB; refused before it is read
            raise FormatError("an XML document, but not UIMA CAS XMI (no <xmi:XMI> in its first "
                              "4 KB); expected an INCEpTION/WebAnno .xmi file or a zip of them, or "
                              "one of the text formats", file=path, line=1)
        if fmt == "uima-xmi" or is_uima(head):
            from hieradjudicate.io.annotations.tools.uima import parse_uima

            fmt = "uima-xmi"
            result = parse_uima(path, set_name, log, columns)
            parsed, contexts = result.parsed, result.contexts
    if fmt != "uima-xmi":
        text = decode_text(read_bytes(path), path)
        fmt = fmt or detect_annotation_format(text, path, columns=columns, sep=sep)
    if fmt == "uima-xmi":
        pass
    elif fmt == "senseval":
        from hieradjudicate.io.annotations.senseval import parse_senseval  # each reader where used

        parsed = parse_senseval(text, set_name, log)
    elif fmt == "wsd-key":
        from hieradjudicate.io.annotations.wsdkey import parse_wsd_key

        parsed = parse_wsd_key(text, set_name, log)
    elif fmt == "jsonl":
        from hieradjudicate.io.annotations.tools.jsonl import parse_jsonl

        parsed = parse_jsonl(text, set_name, log)
    elif fmt == "webanno-tsv":
        from hieradjudicate.io.annotations.tools.webanno_tsv import parse_webanno_tsv

        parsed, contexts = parse_webanno_tsv(text, path, set_name, log, columns)
    elif fmt in ("labelstudio", "prodigy"):
        from hieradjudicate.io.annotations.tools.labelstudio import parse_labelstudio, parse_prodigy

        parsed = (parse_labelstudio(text, log, columns) if fmt == "labelstudio"
                  else parse_prodigy(text, set_name, log, columns))
    elif fmt in ("long-table", "wsbest"):
        parsed = parse_long(text, fmt, columns, sep, log)
    else:
        from hieradjudicate.io.annotations.wide import parse_wide
        parsed = parse_wide(text, fmt, columns, sep, log)
    source = build_source(parsed, path, fmt, log, merge_units=fmt in ("long-table", "wsbest"))
    if source.n_labels == 0:
        summary = Problem(path, None, f"no annotation could be read as {fmt} ({log.summary()}); "
                          f"expected {_EXPECTED[fmt]}")
        raise FormatError([summary, *source.problems])
    source.contexts = contexts
    source.set_roles = {n: r for n, r in parsed.set_roles.items() if n in source.set_names}
    return source
