"""Dawid & Skene's lexelts in worker processes: the same figures to the bit as in one process, workers
stopped with the estimate, and worker processes only where they pay."""

from __future__ import annotations

import json
import multiprocessing

import numpy as np
import pytest

from hieradjudicate.cli.entry import main
from hieradjudicate.core.crowd import ds_parts, ds_processes
from hieradjudicate.core.crowd.competence import dawid_skene
from tests.core.test_competence import crowd
from tests.core.test_ds_em import _soft

FIELDS = ("workers", "accuracy", "stderr", "n_labels", "tasks", "posterior", "entropy", "errors", "priors")


def _identical(a, b) -> None:
    for f in FIELDS:
        assert np.array_equal(getattr(a, f), getattr(b, f)), f
    assert (a.iterations, a.converged, a.elbo, a.passes, a.runs) == (b.iterations, b.converged, b.elbo, b.passes, b.runs)
    assert (a.change, a.distance) == (b.change, b.distance)


@pytest.mark.parametrize("labels", ["hard", "soft"])
def test_lexelts_in_worker_processes_give_the_same_figures_to_the_bit(monkeypatch, labels) -> None:
    monkeypatch.setattr(ds_parts, "PART_LABELS", 400)  # several parts from a small crowd
    args = crowd(6, n=1500)[:5] if labels == "hard" else _soft(3)
    here = dawid_skene(*args, tol=1e-9, max_iter=5000)
    seen: list[tuple[int, int]] = []
    there = dawid_skene(*args, tol=1e-9, max_iter=5000, processes=2, progress=lambda k, n: seen.append((k, n)))
    assert len(there.runs) > 2
    _identical(here, there)
    assert seen and seen[-1] == (5000, 5000)  # the share of labels done, ending at the whole
    assert [k for k, _ in seen] == sorted(k for k, _ in seen)


def test_one_hot_leaves_in_worker_processes_give_the_same_figures(monkeypatch) -> None:
    monkeypatch.setattr(ds_parts, "PART_LABELS", 400)
    inst, rater, P, lex, n_leaves = crowd(2, n=1200)[:5]
    leaf = P.argmax(axis=1).astype(np.int32)
    kw = dict(leaf=leaf, K=P.shape[1], tol=1e-9, errors=False)
    _identical(dawid_skene(inst, rater, None, lex, n_leaves, **kw),
               dawid_skene(inst, rater, None, lex, n_leaves, processes=3, **kw))


class Stop(Exception):
    pass


def test_stopping_the_estimate_stops_its_workers(monkeypatch) -> None:
    monkeypatch.setattr(ds_parts, "PART_LABELS", 400)
    args = crowd(6, n=1500)[:5]

    def stop(k: int, n: int) -> None:
        raise Stop

    with pytest.raises(Stop):
        dawid_skene(*args, tol=1e-9, processes=2, progress=stop)
    assert multiprocessing.active_children() == []


def test_worker_processes_only_for_a_large_crowd_with_several_parts() -> None:
    big = ds_processes.PROCESS_LABELS
    assert ds_processes.processes_for(None, big - 1, 45) == 1
    assert ds_processes.processes_for(None, big, 1) == 1
    assert ds_processes.processes_for(None, big, 45) == min(ds_processes.cpus(), ds_processes.MAX_PROCESSES)
    assert ds_processes.processes_for(3, 10, 2) == 2  # as asked, at most one per part
    assert ds_processes.processes_for(1, big, 45) == 1


def test_cli_processes_give_the_same_json_and_mace_refuses_them(monkeypatch, tmp_path, capsys) -> None:
    from tests.crowd import crowd_project

    monkeypatch.setattr(ds_parts, "PART_LABELS", 100)  # a part a word

    project = crowd_project(tmp_path / "c.hadj", 8, n_words=3, per_word=30, per_item=6)
    out = []
    for n in ("1", "2"):
        assert main(["competence", str(project), "--format", "json", "--instances", "5", "--processes", n]) == 0
        doc = json.loads(capsys.readouterr().out)
        doc.pop("seconds")
        out.append(doc)
    assert out[0] == out[1] and out[0]["converged"]
    assert main(["competence", str(project), "--model", "mace", "--processes", "2"]) == 1
    assert "--processes applies to Dawid & Skene" in capsys.readouterr().err


def _niceness(_job: object) -> int:
    import os

    return os.nice(0)


def test_workers_run_at_the_lower_priority_asked() -> None:
    import os

    mine = os.nice(0)
    pool = ds_processes.start_pool(2, nice=5)
    assert ds_processes.run_jobs(_niceness, iter([None] * 3), [1] * 3, pool, 2, None, 1) == [min(mine + 5, 19)] * 3
    pool = ds_processes.start_pool(1)
    assert ds_processes.run_jobs(_niceness, iter([None]), [1], pool, 1, None, 1) == [mine]


def _die(_job: object) -> None:
    import os

    os._exit(9)  # as the out-of-memory killer would end it


def test_a_worker_that_dies_is_an_error_saying_so_not_a_wait_forever() -> None:
    from hieradjudicate.core.errors import HieradjError

    pool = ds_processes.start_pool(2)
    with pytest.raises(HieradjError, match="worker process ended"):
        ds_processes.run_jobs(_die, iter([None, None]), [1, 1], pool, 2, None, 1)
    assert multiprocessing.active_children() == []
