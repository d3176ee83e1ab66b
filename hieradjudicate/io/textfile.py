"""Open input files the way users have them: gzip, UTF-8 with or without BOM, CRLF."""

from __future__ import annotations

import gzip
import os
import zlib

from hieradjudicate.core.errors import FormatError, Problem

_BINARY_CONTROL = set(range(0, 9)) | {11, 12} | set(range(14, 32))


def read_bytes(path: str | os.PathLike) -> bytes:
    """Return the file's bytes, decompressed when it is gzip (by content, not name)."""
    p = os.fspath(path)
    try:
        with open(p, "rb") as fh:
            raw = fh.read()
    except FileNotFoundError:
        raise FormatError("file not found (expected a readable file)", file=p) from None
    except IsADirectoryError:
        raise FormatError("is a directory (expected a file)", file=p) from None
    except OSError as exc:
        raise FormatError(f"cannot read file: {exc.strerror}", file=p) from None
    if raw[:2] == b"\x1f\x8b":
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError, zlib.error) as exc:
            raise FormatError(f"damaged gzip data ({exc}); expected a complete .gz file", file=p) from None
    return raw


def decode_text(raw: bytes, path: str) -> str:
    """Decode UTF-8 (BOM allowed), normalise line ends to LF, reject binary data.

    A decoding failure names the line and column of the first bad byte.
    """
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    elif raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise FormatError("file is UTF-16; expected UTF-8 text (re-save it as UTF-8)", file=path, line=1)
    if not raw.strip():
        raise FormatError("file is empty; expected text", file=path)
    head = raw[:4096]
    if b"\x00" in head or sum(b in _BINARY_CONTROL for b in head) > max(8, len(head) // 50):
        raise FormatError("file looks binary; expected a text file", file=path, line=1)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise FormatError(
            [Problem(path, line, f"invalid UTF-8 byte 0x{raw[exc.start]:02x}; expected UTF-8 text "
                     "(re-save the file as UTF-8)", col)]
        ) from None
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def read_text(path: str | os.PathLike) -> str:
    """Read a text input file (gzip, BOM and CRLF handled)."""
    p = os.fspath(path)
    return decode_text(read_bytes(p), p)
