"""The cheap tests that recognise an annotation format from a file's first bytes or lines.

Kept apart from the readers they lead to (UIMA XMI, WebAnno TSV, Label Studio, Prodigy), so that
detecting the format of a file that is none of these imports none of them.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping
from typing import Any

#: The first line of a WebAnno TSV 3 file.
WEBANNO_MAGIC = "#FORMAT=WebAnno TSV 3"
#: Keys only a Prodigy task carries.
PRODIGY_KEYS = ("_annotator_id", "_session_id", "_task_hash", "_input_hash", "accept", "answer")


def inflated_head(head: bytes) -> bytes:
    """The first bytes of a gzip file's content (every input may be gzip), else ``head`` itself."""
    if head[:2] != b"\x1f\x8b":
        return head
    try:
        return zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, 4096)
    except zlib.error:
        return head  # the reader names the damage


def is_uima(head: bytes) -> bool:
    """Whether the first bytes of a file look like XMI (gzip or not) or a zip (of XMI files)."""
    if head.startswith(b"PK\x03\x04"):
        return True
    head = inflated_head(head)
    return b"<xmi:XMI" in head[:4096] or b"http://www.omg.org/XMI" in head[:4096]


def is_webanno_tsv(text_head: str) -> bool:
    return text_head.lstrip("\ufeff").startswith(WEBANNO_MAGIC)


def looks_like_labelstudio(text: str) -> bool:
    head = text.lstrip()[:4096]
    return head.startswith("[") and ('"annotations"' in head or '"data"' in head)


def looks_like_prodigy(first_object: Mapping[str, Any]) -> bool:
    return any(k in first_object for k in PRODIGY_KEYS)
