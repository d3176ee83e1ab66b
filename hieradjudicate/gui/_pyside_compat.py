"""Work around a PySide6 6.12 defect on CPython 3.11: ``None`` and the bools lose references.

Every call of a wrapped C++ method that returns nothing (``setText``,
``setToolTip``, ``setData``, …) drops one reference to ``None`` that it never
took, and emitting a ``Signal(bool)`` from Python drops one to ``True`` or
``False``.  On Python 3.12 and later ``None`` is immortal and nothing happens; on
3.11 its count reaches zero after some tens of thousands of calls and the
interpreter aborts ("none_dealloc: deallocating None", "bool_dealloc") — a
crash in the middle of a day's adjudication.  The workaround gives these
singletons so many references that the count cannot reach zero, which is what
Python 3.12 does for every immortal object.  Remove it once PySide6 is fixed or Python 3.11 is dropped.
"""

from __future__ import annotations

import ctypes
import sys

_DONE = False


def make_none_immortal() -> None:
    """Add 2**40 references to ``None``, ``True`` and ``False`` (once; only before Python 3.12,
    where they are not immortal)."""
    global _DONE
    if _DONE or sys.version_info >= (3, 12) or hasattr(sys, "getobjects"):  # not for debug builds
        return
    for obj in (None, True, False):
        refcnt = ctypes.c_ssize_t.from_address(id(obj))  # ob_refcnt is PyObject's first field
        refcnt.value += 1 << 40
    _DONE = True
