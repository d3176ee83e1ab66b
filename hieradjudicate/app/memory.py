"""Give freed memory back to the system (glibc), so a large project's RSS is what it holds.

glibc serves allocations above ``M_MMAP_THRESHOLD`` (128 KiB at start) with
their own ``mmap`` and returns them on ``free``; but after the first such block
is freed it *raises* the threshold to that block's size (up to 32 MiB), so
later numpy temporaries of a few MB come from the heap, whose freed pages stay
in the process.  On MASC that left 100-170 MB of freed temporaries resident
after the live figures and the dashboard (RSS 851 MB instead of 685 MB).
Fixing the threshold at 1 MiB turns the adjustment off: every array above
1 MiB is mapped and unmapped on its own, small objects stay on the heap.
Measured: the same speed (the big arrays were mapped anyway), RSS after the
MASC dashboard 660 MB.  Elsewhere (musl, macOS, Windows) this does nothing.
"""

from __future__ import annotations

import ctypes
import sys

M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter numbers
M_TRIM_THRESHOLD = -1
THRESHOLD = 1 << 20
#: A command line run: temporaries up to 32 MiB (a million-row column is 8.7 MB) are reused from
#: the heap instead of being mapped, faulted in page by page and unmapped again each time (MASC
#: agree: 0.45 s of system time -> 0.15 s, peak RSS +13 MB); larger arrays still go back at once.
CLI_THRESHOLD = 32 << 20
#: Setting the mmap threshold also stops glibc raising the *trim* threshold (128 KiB), so every
#: free at the top of the heap hands pages back that the next temporary faults in again: a
#: command line run keeps up to 256 MiB of freed heap for reuse (score on 394,400 answers:
#: 86,000 -> 30,000 page faults, 0.35 -> 0.07-0.12 s of system time; peak RSS the same).
CLI_TRIM = 256 << 20
_done = 0  # the threshold set, 0 before


def fix_mmap_threshold(threshold: int = THRESHOLD, trim: int | None = None) -> bool:
    """Fix glibc's mmap threshold (1 MiB by default: the workbench) once per process and value,
    and its trim threshold when ``trim`` is given; ``True`` when it took effect."""
    global _done
    if _done == threshold:
        return True
    if not sys.platform.startswith("linux"):
        return False
    try:
        # glibc's soname first: find_library runs ldconfig (or a compiler) in a subprocess, 10-20 ms
        # of every command's start
        try:
            libc = ctypes.CDLL("libc.so.6")
        except OSError:
            from ctypes.util import find_library  # imports subprocess and shutil: only if needed

            libc = ctypes.CDLL(find_library("c") or "libc.so.6")
        ok = bool(libc.mallopt(M_MMAP_THRESHOLD, threshold))
        if ok and trim is not None:
            libc.mallopt(M_TRIM_THRESHOLD, trim)
    except (OSError, AttributeError):  # not glibc (musl has no mallopt): nothing to tune
        ok = False
    _done = threshold if ok else 0
    return ok


def release_free_memory() -> bool:
    """Hand the freed pages of every malloc arena back to the system (glibc ``malloc_trim(0)``);
    ``True`` when it ran.  A background job's thread allocates from its own arena, whose freed
    small blocks stay resident after the job (MASC: a Dawid & Skene estimate left ~130 MiB, so the
    next estimate's peak started from there).  A few milliseconds; elsewhere it does nothing."""
    if _done == 0 or not sys.platform.startswith("linux"):  # only where the threshold was set (glibc)
        return False
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        return False
    return True
