"""Command-line descriptions of input files (kept light: the ``score`` command imports it at start-up)."""

from __future__ import annotations

import os
from dataclasses import dataclass

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
        name = None
        role = default_role
        if "=" in text and not os.path.exists(text):
            name, _, text = text.partition("=")
            name = name or None
        head, sep, tail = text.rpartition(":")
        if sep and tail in ROLES and not os.path.exists(text):
            text, role = head, tail
        return cls(text, name, role)
