"""Where a project lives: a ``.hadj`` file or a ``postgresql://`` URL (team mode).

The one place that tells the two apart; the session, the CLI and the window open every project
through :func:`open_store`.  The server store is imported only for a URL.
"""

from __future__ import annotations

import os
from typing import Any

from hieradjudicate.io.store.pg.location import is_server_location

__all__ = ["is_server_location", "open_store"]


def open_store(location: str | os.PathLike[str] | Any, *, read_only: bool = False) -> Any:
    """The open store of ``location`` (a :class:`Store` or a :class:`PgStore`)."""
    if is_server_location(location):
        from hieradjudicate.io.store.pg.store import PgStore

        return PgStore.open(str(location), read_only=read_only)
    from hieradjudicate.io.store.project_store import Store

    return Store.open(location, read_only=read_only)
