"""What an input file looks like before a project is made of it (no Qt; used by the wizard).

:func:`sniff` names a file's format and, for annotation files, the sets it
holds (a long or wide table holds several); :func:`header_columns` lists a
table's header cells for the column-mapping step.  Failures are returned as
words, never raised: the wizard shows them next to the file.
"""

from __future__ import annotations

import errno
import gzip
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from hieradjudicate.core.errors import HieradjError

#: Fields a tree table's columns can be mapped to (``read_inventory(columns=...)``).
INVENTORY_FIELDS = ("lexelt", "sense", "parent", "gloss", "weight", "branching", "alias")
#: Fields an annotation table's columns can be mapped to (``read_annotations(columns=...)``).
ANNOTATION_FIELDS = ("lexelt", "instance", "annotator", "tag", "weight")
TABLE_FORMATS = {"inventory": ("tree-table",),
                 "annotations": ("long-table", "wide-table", "wsbest", "masc")}
_HEAD_BYTES = 1 << 16


@dataclass
class Sniffed:
    """One file as the wizard shows it."""

    path: str
    kind: str  # "inventory", "annotations", "contexts"
    format: str = ""
    sets: list[str] = field(default_factory=list)
    problem: str = ""  # why the file could not be read (empty when it could)
    columns: list[str] = field(default_factory=list)  # header cells of a table, else empty
    #: fields the mapping step offers for a non-table format (XMI layer, Label Studio keys); the
    #: choices for them are in ``columns``
    mapping_fields: tuple[str, ...] = ()

    @property
    def suspect_table(self) -> bool:
        """Read as Senseval lines although it has a delimited header: its columns were not
        recognised, so a column mapping is probably needed."""
        return self.kind == "annotations" and self.format == "senseval" and len(self.columns) >= 3

    @property
    def is_table(self) -> bool:
        """Whether a column mapping applies: a table header, or a table that failed to read."""
        if self.mapping_fields:
            return bool(self.columns)
        return len(self.columns) >= 2 and (self.format in TABLE_FORMATS.get(self.kind, ())
                                           or self.suspect_table
                                           or (self.problem != "" and self.kind != "contexts"))


def head_text(path: str, limit: int = _HEAD_BYTES) -> str:
    """The first ``limit`` bytes of a file (gzip by content), decoded leniently.

    Raises ``OSError`` for anything but a regular file (opening a FIFO would block).
    """
    if not os.path.isfile(path):
        raise OSError(errno.ENOENT if not os.path.exists(path) else errno.EINVAL,
                      "not a regular file")
    with open(path, "rb") as fh:
        raw = fh.read(limit)
    if raw[:2] == b"\x1f\x8b":
        with gzip.open(path, "rb") as gz:
            raw = gz.read(limit)
    return _decoded(raw)


def _decoded(raw: bytes) -> str:
    return raw.decode("utf-8-sig", errors="replace").replace("\r\n", "\n")


def header_columns(path: str) -> list[str]:
    """The header cells of a delimited table (tab, ``,``, ``;`` or ``|``), or ``[]``."""
    from hieradjudicate.io.annotations.tables import first_line, guess_separator, split_header

    try:
        line = first_line(head_text(path))
    except OSError:
        return []
    sep = guess_separator(line)
    if sep is None or line.lstrip().startswith(("{", "<", "#")):
        return []
    return [c for c in split_header(line, sep) if c]


def sniff(path: str, kind: str, columns: Mapping[str, str] | None = None) -> Sniffed:
    """Read ``path`` as ``kind`` and say what it is (the whole file is read for annotations,
    to list its sets; inventories and contexts only have their format detected)."""
    out = Sniffed(path, kind, columns=header_columns(path))
    try:
        if kind == "annotations":
            from hieradjudicate.io.annotations.read import read_annotations

            _offer_fields(out)
            why = None if columns else annotation_misfit(path)
            if why:  # a contexts XML, a sense map...: said before the file is listed as "senseval"
                out.problem = f"{path}: {why}"
                return out
            src = read_annotations(path, columns=dict(columns) if columns else None)
            out.format, out.sets = src.format, list(src.set_names)
        elif kind == "inventory":
            from hieradjudicate.io.inventories.read import detect_inventory_format
            from hieradjudicate.io.inventories.wordnet import wordnet_folder

            if wordnet_folder(path) is not None:
                out.format = "wordnet"
            else:
                out.format = "tree-table" if columns else detect_inventory_format(head_text(path), path)
        elif kind == "contexts":
            from hieradjudicate.io.contexts.read import detect_context_format

            out.format = detect_context_format(head_text(path), path)
        else:
            raise ValueError(f"unknown kind of file {kind!r}")
    except HieradjError as exc:
        problems = getattr(exc, "problems", None)
        out.problem = str(problems[0]) if problems else str(exc)
    except OSError as exc:
        out.problem = f"{path}: cannot read the file ({exc.strerror or exc})"
    return out


#: The mapping step's field for an XMI file: one choice of "layer / feature (counts)".
XMI_FIELD = "sense layer"
JSON_FIELDS = ("lexelt", "instance", "choice")


def _offer_fields(out: Sniffed) -> None:
    """What the mapping step offers for formats that are not tables: the layers and string
    features of XMI files (with counts), the task keys and controls of Label Studio/Prodigy."""
    from hieradjudicate.io.annotations.tools.labelstudio import field_candidates, looks_like_labelstudio
    from hieradjudicate.io.annotations.tools.uima import is_uima, survey

    if not os.path.isfile(out.path):
        return  # reading it below names the problem (missing, a folder, a pipe)
    with open(out.path, "rb") as fh:
        head = fh.read(4096)
    if is_uima(head):
        out.columns = [xmi_choice(c.layer, c.feature, c.spans, c.with_value) for c in survey(out.path)]
        out.mapping_fields = (XMI_FIELD,)
        return
    text = head_text(out.path)
    first = text.lstrip().split("\n", 1)[0]
    if looks_like_labelstudio(text) or '"_annotator_id"' in first or '"accept"' in first:
        from hieradjudicate.io.textfile import read_text

        out.columns = field_candidates(read_text(out.path))
        out.mapping_fields = JSON_FIELDS


def xmi_choice(layer: str, feature: str, spans: int, with_value: int) -> str:
    return f"{layer} / {feature} ({spans} spans, {with_value} with a value)"


def mapping_to_columns(chosen: Mapping[str, str]) -> dict[str, str]:
    """The mapping step's choices as reader ``columns``: an XMI choice becomes layer + feature,
    a Label Studio control choice its name; table fields pass unchanged."""
    out = dict(chosen)
    if XMI_FIELD in out:
        layer, _, rest = out.pop(XMI_FIELD).partition(" / ")
        out["layer"], out["feature"] = layer, rest.rsplit(" (", 1)[0]
    if out.get("choice", "").startswith("control: "):
        out["choice"] = out["choice"].removeprefix("control: ")
    return out


def default_name(path: str) -> str:
    """The set name a one-set file gets when the user gives none (the file name's stem)."""
    from hieradjudicate.io.annotations.read import default_set_name

    return default_set_name(os.fspath(path))


#: What an annotation file (a key, answers, a table) is expected to be: said in every refusal.
ANNOTATION_EXPECTED = ("expected annotations: Senseval 'lexelt instance_id tag[/weight] ...' lines, a long table "
                       "(lexelt, instance, annotator, tag[, weight]), a wide table (lexelt, instance, one column "
                       "per annotator), JSON Lines, INCEpTION XMI or Label Studio/Prodigy JSON")
_HEADER_CELL = re.compile(r"[A-Za-z][A-Za-z0-9_ ()-]*")


def _sensemap_shaped(lines: list[str]) -> bool:
    """Sense-map lines, told apart from a key with numeric instance ids (``bank.n 1 bank%1`` has the
    same shape): a sense map has one-token lines (senses without a group) beside
    ``sense branching parent`` lines, and its first tokens are senses, each listed once, where a
    key repeats its lexelt."""
    from hieradjudicate.io.inventories.sensemap import looks_like_sensemap

    if not lines or not looks_like_sensemap(lines):
        return False
    tokens = [ln.split() for ln in lines]
    firsts = [t[0] for t in tokens]
    return (any(len(t) == 1 for t in tokens) and any(len(t) >= 3 for t in tokens)
            and len(set(firsts)) >= 0.9 * len(firsts))


def annotation_misfit(path: str, head: bytes | None = None) -> str | None:
    """Why ``path`` is recognisably *not* an annotation file, or ``None``.

    ``head``: the file's first :data:`_HEAD_BYTES` bytes (or all of a shorter file) when the caller
    has read them (``score``'s clean Senseval files are read once, whole): the file is then not
    opened again.

    Without this, a contexts XML given as a gold key had its ``<instance id=...>``
    lines taken as key lines (#13), a sense map's ``sense 2 parent`` lines as
    answers, and a table whose header names no annotation column (WordNet's
    ``senseID definition lemma``) as whitespace-separated Senseval lines.  Only
    shapes no annotation format can have are refused: XML other than XMI,
    sense-map lines (one-token lines among ``sense branching parent`` ones), a
    delimited header of words that matches no annotation column.
    """
    from hieradjudicate.io.annotations.read import detect_annotation_format
    from hieradjudicate.io.annotations.tables import first_line, guess_separator, split_header
    from hieradjudicate.io.annotations.sniffing import is_uima
    from hieradjudicate.io.inventories.outline import looks_like_outline
    from hieradjudicate.io.textfile import SAVE_AS_CSV, spreadsheet_kind

    if head is not None and head[:2] != b"\x1f\x8b":  # (a gzip file's head is read from the file)
        if spreadsheet_kind(head):
            return f"this is {spreadsheet_kind(head)}, not annotations; {SAVE_AS_CSV}; {ANNOTATION_EXPECTED}"
        if is_uima(head[:4096]):
            return None
        text = _decoded(head[:_HEAD_BYTES])
    else:
        if not os.path.isfile(path):
            return None  # the reader names a missing file, a folder, a pipe (opening a FIFO would block)
        try:
            with open(path, "rb") as fh:
                raw = fh.read(65536)
            if spreadsheet_kind(raw):
                return f"this is {spreadsheet_kind(raw)}, not annotations; {SAVE_AS_CSV}; {ANNOTATION_EXPECTED}"
            raw = raw[:4096]
            if is_uima(raw):
                return None
            text = head_text(path)
        except OSError:
            return None  # the reader names a missing or unreadable file
    head = text.lstrip("\ufeff \t\r\n")
    if head.startswith("<"):
        if "<instance" in text and "<context" in text:
            what = "a Senseval lexical-sample contexts file (<instance> and <context>: the sentences)"
            hint = "it belongs with --contexts (validate, report, project new)"
        elif re.search(r"<lexelt\b|<sense\b", text):
            what = "a Senseval dictionary (<lexelt>/<sense>: a sense inventory)"
            hint = "it belongs with --inventory"
        elif "<corpus" in text and "<sentence" in text:
            what = "an all-words corpus XML (<corpus>/<sentence>: the texts, not their senses)"
            hint = "its key is the matching .gold.key.txt file"
        else:
            what, hint = "XML of no annotation format", ""
        return f"this is {what}, not annotations" + (f"; {hint}" if hint else "") + f"; {ANNOTATION_EXPECTED}"
    lines = [ln for ln in text.split("\n", 400)[:400] if ln.strip()]
    if looks_like_outline(lines[:200]):
        return ("this is an indented outline ('# lexelt NAME' lines, then 'id: gloss': a sense inventory), not "
                f"annotations; give it with --inventory; {ANNOTATION_EXPECTED}")
    if re.match(r'\{\s*"lexelts"\s*:', head):
        return ("this is a JSON sense inventory ({\"lexelts\": ...}), not annotations; give it with --inventory; "
                f"{ANNOTATION_EXPECTED}")
    if _sensemap_shaped(lines[:200]):
        return ("this is a Senseval sense map ('sense [branching parent]' lines: a sense inventory), not "
                f"annotations; give it with --inventory; {ANNOTATION_EXPECTED}")
    first = first_line(text)
    sep = guess_separator(first)
    if sep is not None and sep != " ":
        cells = [c.strip() for c in split_header(first, sep)]
        if (len(cells) >= 2 and all(_HEADER_CELL.fullmatch(c) for c in cells)
                and detect_annotation_format(text, path) == "senseval"):
            return (f"this is a table whose header ({', '.join(cells)}) does not make an annotation table "
                    "(it needs lexelt and instance columns, and annotator + tag or one column per annotator); "
                    "rename its columns (or map them in the new-project wizard); "
                    f"{ANNOTATION_EXPECTED}")
    return None
