"""Which decision ids a follower still has to read (no Qt, no server: the follower feeds it).

Notifications are hints: any login of the database may send one on a project's channel with
any payload, so a payload never says what to read, only *whether* to look.  What to read is
decided here: the ids above the highest one read (``top``) and the gaps below it that may still
fill.

Ids are taken when a row is written, not when it commits, so a transaction that took id 10 may
commit after the one that took 11: "everything above the last id read" would miss 10.  Below
:attr:`Horizon.safe` no row can appear any more; between ``safe`` and ``top`` the ids read are
kept (:attr:`Horizon.seen`) and the others are gaps (a transaction still running, a rolled back
one, a row this login may not see).  ``safe`` moves up to a ``top`` once every transaction that
could hold a lower id has ended: the server's snapshot says so (``xmin``, the oldest transaction
still running, has passed ``xmax`` as it was when that ``top`` was read; twice over, for a
transaction that took its id just before it was given a transaction id).  A transaction left
open for long (anyone's ``BEGIN`` in ``psql``) holds ``safe`` back; :attr:`Horizon.LAG` bounds
how far, so the gaps to look at stay few (a row of a transaction that stays open while more than
``LAG`` later ids are read is then read only when the project is opened again).
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable

FAR = 2**62


class Horizon:
    """See the module."""

    #: at most this many ids between ``safe`` and ``top``
    LAG = 2000
    #: at most this many gap ranges in one query
    MAX_RANGES = 32

    def __init__(self, top: int, seen: Iterable[int] = (), *, safe: int | None = None) -> None:
        self.top = top
        self.safe = top if safe is None else safe
        self.seen = sorted(i for i in set(seen) if self.safe < i <= top)
        self._waiting: tuple[int, int] | None = None  # (a top, the xmax when it was read)
        self._confirming: tuple[int, int] | None = None  # its second round (see the module)

    # ------------------------------------------------------------------ looking
    def names_something_new(self, low: int, high: int) -> bool:
        """Whether a notification's range holds an id this follower has not read (free: no query)."""
        low = max(low, self.safe + 1)
        if high < low:
            return False
        if high > self.top:
            return True
        i, j = bisect.bisect_left(self.seen, low), bisect.bisect_right(self.seen, high)
        return j - i < high - low + 1

    @property
    def settling(self) -> bool:
        """Whether ``safe`` is waiting for the server to say a ``top`` is final (read again)."""
        return self._waiting is not None or self._confirming is not None

    def ranges(self) -> list[tuple[int, int]]:
        """The id ranges to read: the gaps between ``safe`` and ``top``, then above ``top``."""
        out, low = [], self.safe + 1
        for i in self.seen:
            if i > low:
                out.append((low, i - 1))
            low = i + 1
        if self.top >= low:
            out.append((low, self.top))
        if len(out) > self.MAX_RANGES:  # many small gaps: one range over them (rows read again)
            out = [(self.safe + 1, self.top)]
        out.append((self.top + 1, FAR))
        return out

    # ------------------------------------------------------------------ reading
    def read(self, ids: Iterable[int], xmin: int, xmax: int) -> None:
        """Ids just read, with the server's snapshot (``xmin``, ``xmax``) taken after the read."""
        new = [i for i in ids if i > self.safe]
        if new:
            self.seen = sorted(set(self.seen).union(new))
            self.top = max(self.top, self.seen[-1])
        if self._confirming is not None and xmin >= self._confirming[1]:
            self.safe = max(self.safe, self._confirming[0])
            self._confirming = None
        if self._waiting is not None and xmin >= self._waiting[1] and self._confirming is None:
            self._confirming = (self._waiting[0], xmax)
            self._waiting = None
        pending = max((c[0] for c in (self._waiting, self._confirming) if c is not None), default=self.safe)
        if self._waiting is None and self.top > pending:
            self._waiting = (self.top, xmax)
        self.safe = max(self.safe, self.top - self.LAG)
        for c in ("_waiting", "_confirming"):
            if getattr(self, c) is not None and getattr(self, c)[0] <= self.safe:
                setattr(self, c, None)
        self.seen = self.seen[bisect.bisect_right(self.seen, self.safe):]
