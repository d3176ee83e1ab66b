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

import re

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")

# A cell is prefixed when, after any leading quotes, it starts like a formula.
_NEEDS_PREFIX = re.compile(r"'*[=+\-@\t\r]")
_PREFIXED = re.compile(r"'+[=+\-@\t\r]")


def safe_csv_cell(value: object) -> str:
    """Return ``value`` as text that a spreadsheet will not run as a formula.

    >>> safe_csv_cell("=1+2")
    "'=1+2"
    >>> safe_csv_cell("-1"), safe_csv_cell("plain"), safe_csv_cell(None)
    ("'-1", 'plain', '')
    """
    text = "" if value is None else str(value)
    return "'" + text if _NEEDS_PREFIX.match(text) else text


def restore_csv_cell(text: str) -> str:
    """Undo :func:`safe_csv_cell`: ``restore_csv_cell(safe_csv_cell(s)) == s`` for every ``s``.

    >>> restore_csv_cell("'=1+2"), restore_csv_cell("'quoted")
    ('=1+2', "'quoted")
    """
    return text[1:] if _PREFIXED.match(text) else text
