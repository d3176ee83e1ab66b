"""Open input files the way users have them: gzip, UTF-8 with or without BOM, CRLF — with limits.

Every input is read in chunks and refused, naming the file and line, when it
breaks one of two limits, so a hostile or damaged file can neither fill the
memory nor make a parser do unbounded work:

* ``HIERADJ_MAX_INPUT_BYTES`` (default 512 MiB): the most bytes a file may
  hold *after* gzip decompression (a 1 MB ``.gz`` of zeros expands to 1 GB).
* ``HIERADJ_MAX_LINE_BYTES`` (default 1 MiB): the longest line of a
  line-oriented file.  XML and JSON documents (first byte ``<``, ``{`` or
  ``[``) are exempt: they are often written on one line and their parsers are
  linear in the input.

Both are environment variables so that a user with an unusual file can raise
them without a new release.  Only regular files are opened (a FIFO would block
forever).  NUL bytes and other control characters (except TAB, LF and CR) are
refused with their line and column: they are never part of an id, a tag or a
sentence, and they would reach the terminal and the project file otherwise.
"""

from __future__ import annotations

import os
import re
import stat
import zlib

import numpy as np

from hieradjudicate.core.errors import FormatError, Problem
from hieradjudicate.io.jsonsafe import ValueCounter, max_values as max_json_values

_BINARY_CONTROL = set(range(0, 9)) | {11, 12} | set(range(14, 32))
#: C0 controls except TAB/LF/CR, and DEL.  C1 controls (U+0080..U+009F) are not refused:
#: real files carry them as mojibake of Windows-1252 quotes; the terminal output escapes them.
_CONTROL_BYTES = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
#: every byte that is *not* such a control byte: deleting them all leaves only the control bytes, a
#: C-speed pass (13 ms for 18 MB, against 65 ms for the regex search; the regex then says where)
_NOT_CONTROL = bytes(b for b in range(256) if not _CONTROL_BYTES.match(bytes([b])))
_CHUNK = 1 << 20
DEFAULT_MAX_INPUT_BYTES = 512 * 1024 * 1024
DEFAULT_MAX_LINE_BYTES = 1024 * 1024


def _limit(name: str, default: int) -> int:
    """An integer limit from the environment (``name``), ``default`` when unset or unusable."""
    raw = os.environ.get(name, "").strip().replace("_", "")
    try:
        value = int(raw)
    except ValueError:
        return default
    return value if value > 0 else default


def max_input_bytes() -> int:
    """The most (decompressed) bytes an input file may hold (env ``HIERADJ_MAX_INPUT_BYTES``)."""
    return _limit("HIERADJ_MAX_INPUT_BYTES", DEFAULT_MAX_INPUT_BYTES)


def max_line_bytes() -> int:
    """The longest line a line-oriented input may hold (env ``HIERADJ_MAX_LINE_BYTES``)."""
    return _limit("HIERADJ_MAX_LINE_BYTES", DEFAULT_MAX_LINE_BYTES)


def display_path(path: str | os.PathLike | bytes) -> str:
    """A file name as text whatever its encoding (undecodable bytes become ``\\udcXX`` escapes).

    ``os.fsdecode`` keeps undecodable bytes as lone surrogates, which no
    encoder accepts; ``backslashreplace`` turns them into visible text.
    """
    p = os.fsdecode(os.fspath(path))
    return p.encode("utf-8", "backslashreplace").decode("utf-8")


class _LineGuard:
    """Tracks line numbers and the current line's length across chunks (vectorised per chunk)."""

    def __init__(self, path: str, limit: int | None) -> None:
        self.path, self.limit = path, limit
        self.lines = 0  # newlines seen so far
        self.run = 0  # bytes since the last newline

    def feed(self, chunk: bytes) -> None:
        if self.limit is None:
            self.lines += chunk.count(b"\n")
            return
        nl = np.flatnonzero(np.frombuffer(chunk, dtype=np.uint8) == 10)
        if nl.size == 0:
            self.run += len(chunk)
            self._check(self.run, self.lines)
            return
        # line lengths: the carried run + up to the first newline, then the gaps, then the tail
        first = self.run + int(nl[0])
        self._check(first, self.lines)
        if nl.size > 1:
            gaps = np.diff(nl) - 1
            worst = int(np.argmax(gaps))
            self._check(int(gaps[worst]), self.lines + 1 + worst)
        self.lines += int(nl.size)
        self.run = len(chunk) - int(nl[-1]) - 1
        self._check(self.run, self.lines)

    def _check(self, length: int, newlines_before: int) -> None:
        if self.limit is not None and length > self.limit:
            raise FormatError(
                f"line longer than {self.limit:,} bytes; expected lines of a text file (raise "
                "HIERADJ_MAX_LINE_BYTES if the file really has such lines)",
                file=self.path, line=newlines_before + 1)


def _too_big(path: str, limit: int, guard: _LineGuard, gz: bool) -> FormatError:
    what = "decompresses to" if gz else "holds"
    return FormatError(f"file {what} more than {limit:,} bytes (stopped here); expected an input "
                       "below that size (raise HIERADJ_MAX_INPUT_BYTES if it is genuine)",
                       file=path, line=guard.lines + 1)


def read_bytes(path: str | os.PathLike | bytes, *, line_limit: bool = True,
               xml_elements: int | None = None) -> bytes:
    """Return the file's bytes, decompressed when it is gzip (by content, not name).

    Reads in chunks and stops with a :class:`FormatError` naming the line
    when the data passes :func:`max_input_bytes`, or (``line_limit`` and not
    an XML/JSON document) a line passes :func:`max_line_bytes`, or a JSON
    document (first byte ``{`` or ``[``) passes ``HIERADJ_MAX_JSON_VALUES``
    values, or (``xml_elements`` given) an XML document holds more ``<``
    than that: each counted as the bytes arrive, so that the refusal comes
    after megabytes, not after the whole file is in memory.
    """
    p = display_path(path)
    try:
        st = os.stat(path)
        if stat.S_ISDIR(st.st_mode):
            raise FormatError("is a directory (expected a file)", file=p)
        if not stat.S_ISREG(st.st_mode):
            raise FormatError("is not a regular file (a pipe, socket or device); expected a file",
                              file=p)
        fh = open(path, "rb")
    except FileNotFoundError:
        raise FormatError("file not found (expected a readable file)", file=p) from None
    except IsADirectoryError:
        raise FormatError("is a directory (expected a file)", file=p) from None
    except OSError as exc:
        raise FormatError(f"cannot read file: {exc.strerror}", file=p) from None
    limit = max_input_bytes()
    with fh:
        try:
            first = fh.read(_CHUNK)
            gz = first[:2] == b"\x1f\x8b"
            chunks = _gunzip(fh, first, p, limit) if gz else _plain(fh, first)
            return _collect(chunks, p, limit, gz, line_limit, xml_elements)
        except OSError as exc:
            raise FormatError(f"cannot read file: {exc.strerror or exc}", file=p) from None


def _plain(fh, first: bytes):
    chunk = first
    while chunk:
        yield chunk
        chunk = fh.read(_CHUNK)


def _gunzip(fh, first: bytes, path: str, limit: int):
    """Decompress every gzip member, never holding more than one chunk of output at a time."""
    d = zlib.decompressobj(16 + zlib.MAX_WBITS)
    data = first
    started = False  # has the current member received any input?
    try:
        while True:
            while data:
                started = True
                yield d.decompress(data, _CHUNK)
                data = d.unconsumed_tail
                if d.eof:  # another member may follow (``cat a.gz b.gz``)
                    rest = d.unused_data
                    d = zlib.decompressobj(16 + zlib.MAX_WBITS)
                    data, started = rest, False
                    if rest and rest[:2] != b"\x1f\x8b":
                        if rest.strip(b"\x00"):
                            raise FormatError("trailing data after the gzip stream; expected a "
                                              "complete .gz file", file=path)
                        return  # zero padding (tape archives) is allowed
            data = fh.read(_CHUNK)
            if not data:
                break
        if started and not d.eof:
            raise FormatError("damaged gzip data (the file ends inside a member); expected a "
                              "complete .gz file", file=path)
    except zlib.error as exc:
        raise FormatError(f"damaged gzip data ({exc}); expected a complete .gz file",
                          file=path) from None


def _collect(chunks, path: str, limit: int, gz: bool, line_limit: bool,
             xml_elements: int | None = None) -> bytes:
    out: list[bytes] = []
    total = 0
    guard: _LineGuard | None = None
    values: ValueCounter | None = None
    values_limit = max_json_values()
    tags = 0
    try:
        for chunk in chunks:
            if not chunk:
                continue
            if guard is None:
                start = chunk.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
                doc = start in (b"<", b"{", b"[")
                guard = _LineGuard(path, max_line_bytes() if line_limit and not doc else None)
                # a JSON document is parsed whole: its values are counted as it is read, so that
                # a bomb is refused after megabytes, not gigabytes (JSON Lines: the first line only)
                values = ValueCounter() if start in (b"[", b"{") else None
            total += len(chunk)
            if total > limit:
                raise _too_big(path, limit, guard, gz)
            if xml_elements is not None:
                tags += chunk.count(b"<")
                if tags > xml_elements:
                    raise FormatError(f"more than {xml_elements:,} XML elements in one document "
                                      "(stopped here), more than fit in memory safely; expected a "
                                      "smaller document (raise HIERADJ_MAX_XML_ELEMENTS if it is "
                                      "genuine)", file=path, line=guard.lines + 1)
            if values is not None:
                if values.feed(chunk) > values_limit:
                    raise FormatError(f"the document holds more than {values_limit:,} JSON values "
                                      "(stopped here), more than fit in memory safely; expected a "
                                      "smaller document (raise HIERADJ_MAX_JSON_VALUES if it is genuine)",
                                      file=path, line=guard.lines + 1)
            guard.feed(chunk)
            out.append(chunk)
    except FormatError as exc:  # damaged gzip: say where in the decompressed text it broke
        first = exc.problems[0] if exc.problems else None
        if first is not None and first.line is None:
            line = guard.lines + 1 if guard is not None else 1
            raise FormatError([Problem(first.file, line, first.message), *exc.problems[1:]]) \
                from None
        raise
    return b"".join(out)


def _position(raw: bytes, at: int) -> tuple[int, int]:
    line = raw.count(b"\n", 0, at) + 1
    return line, at - (raw.rfind(b"\n", 0, at) + 1) + 1


#: what to do with a spreadsheet given where text was expected
SAVE_AS_CSV = "save the sheet as CSV (UTF-8) or tab-separated text and give that file"


def project_given(raw: bytes) -> bool:
    """Whether ``raw`` (a file's first bytes) is a hieradjudicate project (SQLite, application id HADJ)."""
    return raw.startswith(b"SQLite format 3\x00") and raw[68:72] == b"HADJ"


#: what to do with a project given where an input file was expected
PROJECT_GIVEN = ("this is a hieradjudicate project, not an input file; its adjudicated gold is written by "
                 "'project export P.hadj --format senseval -o gold.key' (and compare takes the project itself "
                 "as --gold)")


def spreadsheet_kind(raw: bytes) -> str | None:
    """What office file ``raw`` (a file's bytes, or its first ones) is, when it is a spreadsheet or
    another office document rather than text: "an Excel workbook (.xlsx)", ...; else ``None``."""
    if raw.startswith(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"):
        return "an Excel 97-2003 workbook (.xls) or another old Office file"
    if not raw.startswith(b"PK\x03\x04"):
        return None
    head = raw[:65536]  # a zip's first entries: [Content_Types].xml, xl/..., or ODF's mimetype
    if b"application/vnd.oasis.opendocument.spreadsheet" in head:
        return "an OpenDocument spreadsheet (.ods)"
    if b"application/vnd.oasis.opendocument.text" in head:
        return "a word-processor document (.odt)"
    if b"[Content_Types].xml" not in head:  # Office Open XML's first entry; an XMI zip has none
        return None
    if b"xl/" in head:
        return "an Excel workbook (.xlsx)"
    if b"word/" in head:
        return "a word-processor document (.docx)"
    return None


def decode_text(raw: bytes, path: str) -> str:
    """Decode UTF-8 (BOM allowed), normalise line ends to LF, reject binary data.

    A decoding failure or a control character names the line and column of
    the first bad byte.
    """
    path = display_path(path)
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    elif raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise FormatError("file is UTF-16; expected UTF-8 text (re-save it as UTF-8)", file=path, line=1)
    if not raw or raw.isspace():  # as ``not raw.strip()``, without copying the file
        raise FormatError("file is empty; expected text", file=path, line=1)
    if project_given(raw):
        raise FormatError(PROJECT_GIVEN, file=path, line=1)
    office = spreadsheet_kind(raw)
    if office is not None:
        raise FormatError(f"this is {office}, not text; {SAVE_AS_CSV}", file=path, line=1)
    head = raw[:4096]
    # many control bytes at the start: a binary file; a few: reported with their position below
    if sum(b in _BINARY_CONTROL for b in head) > max(8, len(head) // 50):
        raise FormatError("file looks binary; expected a text file", file=path, line=1)
    bad = _CONTROL_BYTES.search(raw) if raw.translate(None, _NOT_CONTROL) else None
    if bad is not None:
        line, col = _position(raw, bad.start())
        name = "a NUL byte" if raw[bad.start()] == 0 else f"control character 0x{raw[bad.start()]:02x}"
        raise FormatError([Problem(path, line, f"{name}; expected text (ids, tags and sentences "
                                   "hold no control characters)", col)])
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, col = _position(raw, exc.start)
        raise FormatError(
            [Problem(path, line, f"invalid UTF-8 byte 0x{raw[exc.start]:02x}; expected UTF-8 text "
                     "(re-save the file as UTF-8)", col)]
        ) from None
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def read_text(path: str | os.PathLike | bytes) -> str:
    """Read a text input file (gzip, BOM and CRLF handled, limits applied)."""
    return decode_text(read_bytes(path), display_path(path))


#: The longest id, tag, lexelt or set name accepted (env ``HIERADJ_MAX_ID_CHARS``).  Names are
#: shown in every table and stored per row: a 200 KB id made a 306 MB project.
DEFAULT_MAX_ID_CHARS = 1000


def max_id_chars() -> int:
    """The longest id or tag accepted (env ``HIERADJ_MAX_ID_CHARS``, default 1,000)."""
    return _limit("HIERADJ_MAX_ID_CHARS", DEFAULT_MAX_ID_CHARS)


def check_name_lengths(path: str, kind: str, names, line_of) -> None:
    """Raise a :class:`FormatError` naming the line of the first name longer than the limit.

    ``names`` is a sequence of strings, ``line_of(i)`` the line (or None) of ``names[i]``.
    The scan is one C-speed pass (``map(len, ...)``); lines are looked up only on failure.
    """
    limit = max_id_chars()
    if not len(names):
        return
    lengths = np.fromiter(map(len, names), dtype=np.int64, count=len(names))
    bad = np.flatnonzero(lengths > limit)
    if bad.size == 0:
        return
    problems = []
    for i in bad[:5].tolist():
        problems.append(Problem(display_path(path), line_of(i),
                                f"{kind} of {int(lengths[i]):,} characters ({str(names[i])[:30]!r}...); "
                                f"expected at most {limit:,} (raise HIERADJ_MAX_ID_CHARS if needed)"))
    raise FormatError(problems)
