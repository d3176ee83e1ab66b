"""When each annotation was made: the dates inside the inputs (issue 32).

Label Studio gives each annotation ``created_at``/``updated_at`` (ISO 8601) and ``lead_time``
(seconds spent); Prodigy gives ``_timestamp`` (seconds since 1970, UTC); a long table may have a
date column (``time``, ``date``, ``timestamp``, ``created_at``, ``annotated_at``, or ``columns``
``time=COLUMN``).  The readers keep, per label row of the
:class:`~hieradjudicate.core.records.AnnotationSource`, ``time`` (UTC seconds, float; NaN when absent)
and ``lead_time`` (seconds; NaN when absent).

A date is an ISO 8601 date or date-time (``2024-03-01``, ``2024-03-01T12:30:00.5Z``, with or
without an offset; one without an offset is read as UTC) or a number of seconds since 1970 (an
integer of 13 digits or more is read as milliseconds, as JavaScript writes them).
"""

from __future__ import annotations

import math
from datetime import datetime, timezone

import numpy as np

EXPECTED_DATE = ("expected an ISO 8601 date or date-time (2024-03-01, 2024-03-01T12:30:00Z) or seconds "
                 "since 1970")
_MS_FROM = 1e12  # 13 digits: milliseconds (year 2001 onwards); seconds reach it in the year 33658


def date_seconds(value: object) -> float:
    """UTC seconds of a date value; NaN for ``None`` or an empty string.

    Raises :class:`ValueError` with a message naming the value and what is expected."""
    if value is None:
        return math.nan
    if isinstance(value, bool):
        raise ValueError(f"date {value!r} is not a date; {EXPECTED_DATE}")
    if isinstance(value, (int, float)):
        return _number(float(value), value)
    if not isinstance(value, str):
        raise ValueError(f"date {value!r} is not a date; {EXPECTED_DATE}")
    t = value.strip()
    if not t:
        return math.nan
    try:  # the common case first: ISO 8601, as Label Studio writes it (no exception raised and caught)
        d = datetime.fromisoformat(t)
    except ValueError:
        try:
            return _number(float(t), value)
        except ValueError:
            raise ValueError(f"date {value!r} is not a date; {EXPECTED_DATE}") from None
    if d.tzinfo is None:
        d = d.replace(tzinfo=timezone.utc)
    return d.timestamp()


def _number(x: float, value: object) -> float:
    if not math.isfinite(x) or x < 0:
        raise ValueError(f"date {value!r} is not a date; {EXPECTED_DATE}")
    return x / 1000.0 if x >= _MS_FROM else x


def seconds_problem(value: object) -> str | None:
    """What is wrong with a duration in seconds (Label Studio's ``lead_time``); ``None`` when valid."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        return f"lead_time {value!r} is not a number of seconds >= 0"
    return None


def nan_array(values: list[float] | None, n: int) -> np.ndarray | None:
    """``values`` as float64, or ``None`` when every value is NaN (the input carries no such field)."""
    if values is None:
        return None
    arr = np.asarray(values, dtype=np.float64)
    if arr.size != n:
        raise ValueError(f"{arr.size} times for {n} units")
    return None if not np.isfinite(arr).any() else arr
