"""The background runner: results in the GUI thread, stale ones dropped, cancellation stops the job."""

from __future__ import annotations

import os
import sys
import threading

import pytest

from hieradjudicate.gui.workers import BackgroundRunner, Cancelled, one_after_another


def test_newer_request_supersedes_and_stale_results_are_dropped(qtbot) -> None:
    runner = BackgroundRunner()
    gate = threading.Event()
    got: list[str] = []
    stopped: list[bool] = []

    def slow(report):
        gate.wait(5)
        try:
            report(1, 2, "after the gate")
        except Cancelled:
            stopped.append(True)
            raise
        return "old"

    runner.start(slow, got.append)
    runner.start(lambda report: "waiting 1", got.append)
    runner.start(lambda report: "newest", got.append)  # replaces the waiting request
    assert runner.busy
    gate.set()
    qtbot.waitUntil(lambda: not runner.busy, timeout=60_000)
    assert got == ["newest"] and stopped == [True]


def test_cancel_drops_the_result_and_errors_reach_the_failed_callback(qtbot) -> None:
    runner = BackgroundRunner()
    gate = threading.Event()
    got: list[object] = []
    runner.start(lambda report: gate.wait(5) and "value", got.append)
    runner.cancel()
    gate.set()
    assert runner.wait(5000)
    qtbot.wait(20)
    assert got == [] and not runner.busy
    failures: list[BaseException] = []
    runner.start(lambda report: 1 / 0, got.append, failed=failures.append)
    qtbot.waitUntil(lambda: bool(failures), timeout=60_000)
    assert isinstance(failures[0], ZeroDivisionError) and got == []


def test_none_and_bools_survive_many_qt_calls() -> None:
    """PySide6 6.12 on Python 3.11 drops a reference to None per void call and to a bool per
    Signal(bool) emission (see gui/_pyside_compat): without the workaround this aborts."""
    from PySide6.QtCore import QObject, Signal
    from PySide6.QtWidgets import QLabel

    class Flag(QObject):
        changed = Signal(bool)

    label, flag = QLabel(), Flag()
    seen: list[bool] = []
    flag.changed.connect(seen.append)
    for k in range(200_000):
        label.setText("x")
        flag.changed.emit(k % 2 == 0)
    assert len(seen) == 200_000 and seen[:2] == [True, False]


def test_progress_reports_that_arrive_together_keep_their_text(qtbot) -> None:
    """Two reports posted before the GUI thread looks: both signals reach the callback with the
    job's text (the mailbox holds one text; the second signal used to find none and show '')."""
    import threading

    from hieradjudicate.gui.workers import BackgroundRunner

    runner = BackgroundRunner()
    seen: list[tuple[int, str]] = []
    gate = threading.Event()

    def job(report):
        report(1, 2, "estimating")
        report(2, 2, "estimating")  # both posted while the GUI thread is blocked below
        gate.set()
        return "ok"

    done: list[str] = []
    runner.start(job, done.append, progress=lambda k, n, text: seen.append((k, text)))
    assert gate.wait(10)
    runner.wait(10_000)
    qtbot.waitUntil(lambda: done == ["ok"], timeout=60_000)
    assert seen == [(1, "estimating"), (2, "estimating")]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a thread's own CPU priority is Linux's")
def test_background_jobs_run_at_the_priority_of_the_threads_that_wait_on_their_interpreter_lock(qtbot) -> None:
    """A background job (the dashboard's warm-up, the competence estimate) holds the GIL while it runs
    Python; niced, it waited long for a core on a busy machine while the GUI thread and the user's own
    jobs waited on the lock it held.  It runs at the priority of the process, as the GUI thread does."""
    gui = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    seen: list[int] = []
    for background in (True, False):
        runner = BackgroundRunner(background=background)
        runner.start(lambda report: os.getpriority(os.PRIO_PROCESS, threading.get_native_id()), seen.append)
        qtbot.waitUntil(lambda: not runner.busy, timeout=60_000)
    assert seen == [gui, gui]


def test_a_runner_held_twice_starts_only_once_both_holds_are_released(qtbot) -> None:
    runner = BackgroundRunner()
    got: list[str] = []
    runner.hold()
    runner.hold()
    runner.start(lambda report: "done", got.append)
    runner.release()
    qtbot.wait(50)
    assert got == [] and runner.busy
    runner.release()
    qtbot.waitUntil(lambda: got == ["done"], timeout=5000)
    assert not runner.busy


def test_one_after_another_starts_the_second_runners_job_once_the_firsts_has_ended(qtbot) -> None:
    first, then = BackgroundRunner(), BackgroundRunner()
    gate = threading.Event()
    order: list[str] = []

    def slow(report):
        gate.wait(5)
        order.append("first ends")

    one_after_another(first, then)
    first.start(slow, lambda _v: None)
    then.start(lambda report: order.append("then runs"), lambda _v: None)
    qtbot.wait(50)
    assert order == [] and then.busy
    gate.set()
    qtbot.waitUntil(lambda: not first.busy and not then.busy, timeout=5000)
    assert order == ["first ends", "then runs"]
    then.start(lambda report: order.append("then again"), lambda _v: None)  # later jobs: not held
    qtbot.waitUntil(lambda: not then.busy, timeout=5000)
    assert order[-1] == "then again"
