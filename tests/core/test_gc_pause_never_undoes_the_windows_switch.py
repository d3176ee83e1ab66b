"""Readers pause the cycle collector; a window switches it off for good (gui/gc_guard.py).  A
reader's pause that began before the window's switch once ended by switching the collector back
on, so the next collection ran in a worker thread again (a full run froze in the deadlock the
switch prevents)."""

from __future__ import annotations

import gc
import threading
import time

import pytest

from hieradjudicate.core import gc_policy
from hieradjudicate.core.gc_policy import gc_paused, keep_disabled


def _no_pause_held(timeout: float = 60.0) -> None:
    """Wait until no other thread holds a pause: a reader left running by an earlier test in this
    process (a window's background load) would otherwise end its pause during these tests, and
    whether the last pause is this test's or its own depends on the moment (the full suite failed
    one of these checks once)."""
    deadline = time.monotonic() + timeout
    while gc_policy._pauses and time.monotonic() < deadline:
        time.sleep(0.01)
    assert gc_policy._pauses == 0, "a pause of an earlier test's thread is still held"


@pytest.fixture
def collector_on(monkeypatch):
    _no_pause_held()
    monkeypatch.setattr(gc_policy, "_kept_off", False)
    was = gc.isenabled()
    gc.enable()
    yield
    if was:
        gc.enable()
    else:
        gc.disable()


def test_a_pause_that_outlives_the_windows_switch_leaves_collection_off(collector_on):
    with gc_paused():
        keep_disabled()
    assert not gc.isenabled()
    with gc_paused():
        pass
    assert not gc.isenabled()


def test_overlapping_pauses_in_two_threads_end_with_the_last(collector_on):
    entered, leave_b, b_done = threading.Event(), threading.Event(), threading.Event()

    def reader_b():
        with gc_paused():
            entered.set()
            leave_b.wait(60)
        b_done.set()

    with gc_paused():
        t = threading.Thread(target=reader_b)
        t.start()
        assert entered.wait(60)
    assert not gc.isenabled()  # the first pause ended while the second still runs
    leave_b.set()
    t.join(60)
    assert b_done.is_set() and gc.isenabled()  # the last one restored it


def test_a_pause_alone_restores_what_it_found(collector_on):
    with gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    with gc_paused():
        pass
    assert not gc.isenabled()
