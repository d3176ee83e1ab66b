"""An interrupted save: a rollback journal left beside a project by a crash.

A ``NAME.hadj-journal`` whose writer is gone holds the pages as they were
before a save that never finished (and was never reported saved).  The next
command that opens the project for writing rolls it back; until then a
read-only connection cannot read the file at all ("attempt to write a
readonly database").  That is not damage: ``project check`` says so (and that
the journal must not be deleted: without it the half-written pages stay) and
checks a rolled-back private copy; ``project repair`` rolls it back first.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from hieradjudicate.io.store import schema

#: the first bytes of a rollback journal that still holds pages to restore
JOURNAL_MAGIC = bytes.fromhex("d9d505f920a163d7")


def interrupted_save(p: Path) -> bool:
    """Whether ``p`` has a journal to roll back and no live writer (who would finish or roll back)."""
    journal = p.with_name(p.name + "-journal")
    try:
        with open(journal, "rb") as fh:
            if fh.read(len(JOURNAL_MAGIC)) != JOURNAL_MAGIC:
                return False
        fd = os.open(p, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return False  # a writer is alive: its journal is its transaction in progress
    finally:
        os.close(fd)
    return True


@contextmanager
def rolled_back_copy(p: Path) -> Iterator[Path]:
    """A private copy of ``p`` with the interrupted save rolled back (the original is not touched)."""
    with tempfile.TemporaryDirectory(prefix="hadj-check-") as tmp:
        copy = Path(tmp) / p.name
        shutil.copyfile(p, copy)
        shutil.copyfile(p.with_name(p.name + "-journal"), copy.with_name(copy.name + "-journal"))
        conn = schema.connect(str(copy), uri=False)
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()  # rolls the journal back
        except Exception:  # noqa: BLE001 - damage is reported by the checks of the copy
            pass
        finally:
            conn.close()
        yield copy


WARNING = ("a save was interrupted (the program stopped during it); {journal} holds what undoes it, and "
           "the next command that opens the project rolls it back, losing nothing reported saved: do "
           "not delete the -journal file. The checks below are of the project as it will be then")
