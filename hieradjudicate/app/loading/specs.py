"""Command-line descriptions of input files (kept light: the ``score`` command imports it at start-up)."""

from __future__ import annotations

import os
from dataclasses import dataclass

from hieradjudicate.core.errors import HieradjError
from hieradjudicate.core.records import ROLES


@dataclass
class AnnotationSpec:
    """One ``--annotations [NAME=]PATH[:ROLE]`` argument."""

    path: str
    name: str | None = None
    role: str = "annotator"
    format: str | None = None
    columns: dict[str, str] | None = None

    @classmethod
    def parse(cls, text: str, default_role: str = "annotator") -> "AnnotationSpec":
        """Split ``[NAME=]PATH[:ROLE]``, preferring a reading whose PATH exists.

        File names may hold ``=`` and ``:`` (``run=3.key``, ``a:b.key``), so
        the readings are tried in this order and the first whose PATH is an
        existing file (or folder) wins:

        1. the whole text is the path;
        2. ``NAME=PATH:ROLE`` (NAME before the first ``=``, ROLE a known role
           after the last ``:``);
        3. ``NAME=PATH``;
        4. ``PATH:ROLE``.

        When no reading names an existing path, the most detailed one that
        parses is used (so the error names the file the user most likely
        meant).  ROLE must be one of the known roles, otherwise the colon is
        part of the path.
        """
        readings: list[tuple[str, str | None, str]] = [(text, None, default_role)]
        name, eq, rest = text.partition("=")
        head, colon, tail = text.rpartition(":")
        has_role = bool(colon) and tail in ROLES
        if eq and name:
            r_head, r_colon, r_tail = rest.rpartition(":")
            if r_colon and r_tail in ROLES and r_head:
                readings.append((r_head, name, r_tail))
            if rest:
                readings.append((rest, name, default_role))
        if has_role and head:
            readings.append((head, None, tail))
        for path, n, role in readings:
            if os.path.exists(path):
                return cls(path, n, role)
        for whole in ([rest] if eq and name and rest else []) + [text]:  # a mistyped role after an existing file
            w_head, w_colon, w_tail = whole.rpartition(":")
            if w_colon and w_head and w_tail not in ROLES and os.path.isfile(w_head):
                raise HieradjError(f"{text}: {w_tail!r} is not a role; expected [NAME=]PATH[:ROLE] with ROLE one "
                                   f"of {', '.join(ROLES)}")
        # nothing exists: the most detailed reading (name and role split off) names the file
        path, n, role = readings[1] if len(readings) > 1 else readings[0]
        return cls(path, n, role)
