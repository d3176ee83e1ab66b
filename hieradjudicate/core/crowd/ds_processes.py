"""Dawid & Skene's parts in worker processes (used by :func:`hieradjudicate.core.crowd.ds_parts.fit_parts`).

The parts of a fit share no parameter, so each can run in a process of its own: on MASC (45 words,
1.08 M labels) two processes take about half the time of one, and the process that asked -- the
window's, when it estimates competence in the background -- only waits, so its interface thread
is not held by the EM's sums (numpy holds the interpreter lock through a ``reduceat``).

A part gives the same figures to the bit wherever it runs: the same code on the same arrays (a
worker is a fresh interpreter, *spawned*, that imports this package and numpy), its probes seeded
as in one process, and the parts put back together in their order, so every sum over them adds as
before.  Small fits stay in the process that asked: a worker costs about 0.2 s to start (its imports)
and each holds numpy and its part (about 40 MB).
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool

#: a fit with fewer label entries runs in the process that asked (starting workers would cost more than
#: they give)
PROCESS_LABELS = 1 << 18
#: worker processes at most (each holds numpy and a part: about 40 MB)
MAX_PROCESSES = 4
#: how often the process that waits reports progress (and so may be stopped), seconds
POLL_S = 0.1


def cpus() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1


def processes_for(requested: int | None, n_entries: int, n_parts: int) -> int:
    """How many processes run ``n_parts`` parts of ``n_entries`` label entries: ``requested`` (at most one
    per part), or, when ``None``, one per CPU up to :data:`MAX_PROCESSES` for a fit of at least
    :data:`PROCESS_LABELS` entries, else 1 (this process)."""
    if requested is not None:
        return max(1, min(int(requested), n_parts))
    if n_entries < PROCESS_LABELS or n_parts < 2:
        return 1
    return max(1, min(cpus(), MAX_PROCESSES, n_parts))


def _nice(increment: int) -> None:
    """A worker's start: its CPU priority lowered by ``increment`` (where the system allows it)."""
    if increment:
        try:
            os.nice(increment)
        except (AttributeError, OSError):  # no os.nice (Windows) or not permitted: as it is
            pass


def start_pool(processes: int, nice: int = 0) -> ProcessPoolExecutor | None:
    """A pool of ``processes`` spawned workers (each niced by ``nice``), or ``None`` where this system
    cannot make one (no process-shared semaphores, say): the fit then runs in this process."""
    try:
        return ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("spawn"), initializer=_nice,
                                   initargs=(nice,))
    except (OSError, ImportError, NotImplementedError):
        return None


def _stop(pool: ProcessPoolExecutor, finished: bool) -> None:
    """Shut ``pool`` down; workers still at a job (the fit stopped or failed) are terminated at once
    rather than left to finish a part nobody will read."""
    if not finished:
        for proc in list((getattr(pool, "_processes", None) or {}).values()):
            proc.terminate()
    pool.shutdown(wait=True, cancel_futures=True)


def run_jobs(fn: Callable, jobs: Iterable, weights: list[int], pool: ProcessPoolExecutor, processes: int,
             progress: Callable[[int, int], object] | None, max_iter: int) -> list:
    """``[fn(job) for job in jobs]`` computed in ``pool``'s ``processes`` workers, a job to a worker as each
    becomes free (one more waiting: the jobs are made as they are sent); results in the jobs' order;
    the pool is shut down at the end, whatever happened.  ``progress(k, max_iter)`` is called every
    :data:`POLL_S` seconds and as each job ends, ``k`` the share of ``weights`` done (scaled to
    ``max_iter``); when it raises, the workers are stopped at once and the exception goes on.  A job's
    exception goes on likewise; a worker that died (killed, out of memory) is a
    :class:`~hieradjudicate.core.errors.HieradjError` saying so."""
    from hieradjudicate.core.errors import HieradjError

    total = max(sum(weights), 1)
    out: list = [None] * len(weights)
    done = 0
    todo = iter(enumerate(jobs))
    running: dict = {}

    def send() -> None:
        for i, job in todo:
            running[pool.submit(fn, job)] = i
            return

    finished = False
    try:
        for _ in range(processes + 1):
            send()
        while running:
            ended, _ = wait(running, timeout=POLL_S, return_when=FIRST_COMPLETED)
            for f in ended:
                i = running.pop(f)
                out[i] = f.result()  # a job's exception is raised here
                done += weights[i]
                send()
            if progress is not None:
                progress(min(max_iter * done // total, max_iter), max_iter)
        finished = True
    except BrokenProcessPool:
        raise HieradjError("Dawid & Skene: a worker process ended before its lexelts were done (killed, or out of "
                           "memory?); run again, or in one process (competence --processes 1)") from None
    finally:
        _stop(pool, finished)
    return out
