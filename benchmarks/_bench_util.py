"""Shared helpers of the reader benchmarks: timing and peak memory of one call."""

from __future__ import annotations

import os
import resource
import statistics
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path


def realdata() -> Path:
    """``$HIERADJ_REALDATA`` or ``../shared/data`` (relative to the repository)."""
    default = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
    return Path(os.environ.get("HIERADJ_REALDATA") or default)


def measure(label: str, fn: Callable[[], object], repeats: int = 7) -> object:
    """Print min / median wall time (and min CPU time) over ``repeats`` runs, then the traced peak
    of one run.  The machine is shared: the load average printed says how much the wall times
    were disturbed."""
    times, cpu = [], []
    result = None
    for _ in range(repeats):
        result = None  # free the previous result first, as a real session would
        c0, t0 = time.process_time(), time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    tracemalloc.start()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    load = os.getloadavg()[0]
    print(f"{label}: min {min(times) * 1000:.0f} ms, median {statistics.median(times) * 1000:.0f} ms "
          f"(CPU min {min(cpu) * 1000:.0f} ms) over {repeats} runs; peak traced memory {peak / 2**20:.0f} MiB; max RSS {rss:.0f} MiB; "
          f"load average {load:.2f} on {os.cpu_count()} CPUs")
    return result
