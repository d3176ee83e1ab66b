"""Keep CSV cells from running as spreadsheet formulas.

A spreadsheet treats a cell starting with ``=``, ``+``, ``-`` or ``@`` (and,
in some programs, a tab or carriage return) as a formula: a note such as
``=HYPERLINK(...)`` in an exported file would run when a project lead opens
it.  :func:`safe_csv_cell` prefixes such cells with ``'`` (OWASP's advice),
which spreadsheets show as text.  The prefix is reversible:
:func:`restore_csv_cell` undoes it exactly, also for text that itself starts
with quotes (``'=x`` is written ``''=x``), so an exported CSV can be
imported again without changing a note or a tag.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")

# A cell (or a line inside a cell) is prefixed when, after any leading quotes, it starts like a
# formula.  Lines inside a cell count: a program that splits rows at a bare CR (or a user pasting
# the text) would otherwise see "see\r=HYPERLINK(1)" as a row that starts with a live formula.
_NEEDS_PREFIX = re.compile(r"'*[=+\-@\t\r]")
_PREFIXED = re.compile(r"'+[=+\-@\t\r]")
_LINE_BREAK = re.compile(r"(\r\n|\r|\n)")
# A plain number ("-1.0", "2e-5") is data, not a formula: it stays numeric in a spreadsheet.
_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def _safe_line(text: str) -> str:
    return "'" + text if _NEEDS_PREFIX.match(text) and not _NUMBER.fullmatch(text) else text


def _restore_line(text: str) -> str:
    return text[1:] if _PREFIXED.match(text) and not _NUMBER.fullmatch(text[1:]) else text


def safe_csv_cell(value: object) -> str:
    r"""Return ``value`` as text that a spreadsheet will not run as a formula.

    Numbers stay numbers; every line of a multi-line cell is guarded.

    >>> safe_csv_cell("=1+2")
    "'=1+2"
    >>> safe_csv_cell("-1"), safe_csv_cell("plain"), safe_csv_cell(None), safe_csv_cell(-1.5)
    ('-1', 'plain', '', '-1.5')
    >>> safe_csv_cell("see\r=HYPERLINK(1)")
    "see\r'=HYPERLINK(1)"
    """
    if value is None:
        return ""
    if isinstance(value, int | float) and not isinstance(value, bool):
        # numpy scalars too: their repr reads np.float64(0.25) since numpy 2
        return repr(float(value)) if isinstance(value, float) else str(int(value))
    text = _safe_line(str(value))  # the cell's start, a leading line break included
    if "\r" not in text and "\n" not in text:
        return text
    parts = _LINE_BREAK.split(text)  # text, break, text, break, ...: guard every later line
    return "".join(part if k % 2 or k == 0 else _safe_line(part) for k, part in enumerate(parts))


def restore_csv_cell(text: str) -> str:
    """Undo :func:`safe_csv_cell`: ``restore_csv_cell(safe_csv_cell(s)) == s`` for every string ``s``.

    >>> restore_csv_cell("'=1+2"), restore_csv_cell("'quoted"), restore_csv_cell("-2")
    ('=1+2', "'quoted", '-2')
    """
    if "\r" in text or "\n" in text:
        parts = _LINE_BREAK.split(text)
        text = "".join(part if k % 2 or k == 0 else _restore_line(part) for k, part in enumerate(parts))
    return _restore_line(text)


_QUOTE = re.compile(r'[,"\r\n]')


def csv_line(values: Iterable[object]) -> str:
    """One CSV row (LF-terminated) of guarded cells, for every CSV this program writes.

    Python's ``csv.writer`` with ``lineterminator="\\n"`` leaves a bare CR in a
    cell unquoted, so a reader (ours included) split ``see\\r=HYPERLINK(1)``
    into two rows; here a cell holding a comma, a quote, CR or LF is always
    quoted.  ``None`` is an empty cell; numbers are written as numbers.
    """
    out = []
    for v in values:
        t = type(v)
        if v is None:
            out.append("")
        elif t is float:  # repr: round-trips, never needs quoting or guarding
            out.append(repr(v))
        elif t is int:
            out.append(str(v))
        else:
            out.append(_text_cell(v if t is str else str(v)) if t is not bool and not isinstance(v, int | float)
                       else safe_csv_cell(v))
    return ",".join(out) + "\n"


@functools.lru_cache(maxsize=1 << 16)
def _text_cell(text: str) -> str:
    """A guarded, quoted-when-needed text cell (cached: a crowd's tables repeat the same names)."""
    cell = safe_csv_cell(text)
    return '"' + cell.replace('"', '""') + '"' if _QUOTE.search(cell) else cell
