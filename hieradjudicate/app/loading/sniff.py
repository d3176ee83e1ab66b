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

            src = read_annotations(path, columns=dict(columns) if columns else None)
            out.format, out.sets = src.format, list(src.set_names)
        elif kind == "inventory":
            from hieradjudicate.io.inventories.read import detect_inventory_format

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
    from hieradjudicate.io.annotations.labelstudio import field_candidates, looks_like_labelstudio
    from hieradjudicate.io.annotations.uima import is_uima, survey

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
