"""benchmarks/run.py reads each benchmark's BENCH-RESULT line and judges its targets; a script that
fails or says nothing gets a row saying why."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

RUN = Path(__file__).resolve().parents[2] / "benchmarks" / "run.py"


@pytest.fixture(scope="module")
def run():
    spec = importlib.util.spec_from_file_location("bench_run", RUN)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["bench_run"] = mod
    spec.loader.exec_module(mod)
    return mod


def row(ours, peer, unit, target):
    return {"figure": "f", "ours": ours, "peer": peer, "unit": unit, "target": target}


def test_a_ratio_target_holds_only_within_its_bound(run):
    assert run.judge(row(0.5, 1.0, "s", "<= 0.8x peer")) == (0.5, "yes")
    assert run.judge(row(0.9, 1.0, "s", "≤ 0.8× peer"))[1] == "NO"
    assert run.judge(row(0.9, 1.0, "s", "< peer"))[1] == "yes"
    assert run.judge(row(1.0, 1.0, "s", "< peer"))[1] == "NO"


def test_a_ratio_target_without_a_peer_cannot_be_told(run):
    assert run.judge(row(0.5, None, "s", "<= 0.8x peer")) == (None, "?")


def test_a_bound_on_ours_is_converted_to_the_rows_unit(run):
    assert run.judge(row(2.9, None, "s", "<= 3 s"))[1] == "yes"
    assert run.judge(row(3100, None, "ms", "<= 3 s"))[1] == "NO"
    assert run.judge(row(290, None, "MiB", "<= 300 MB"))[1] == "NO"  # 290 MiB = 304 MB
    assert run.judge(row(280, None, "MiB", "<= 300 MB"))[1] == "yes"
    assert run.judge(row(5, None, "s", 6))[1] == "yes"
    assert run.judge(row(5, None, "widgets", "<= 6 s"))[1] == "?"
    assert run.judge(row(5, None, "s", None))[1] == "-"


def _script(folder: Path, name: str, body: str) -> None:
    (folder / name).write_text("import sys\n" + body + "\n", encoding="utf-8")


def test_each_script_gives_its_rows_or_one_row_saying_why(run, tmp_path, monkeypatch):
    monkeypatch.setattr(run, "HERE", tmp_path)
    _script(tmp_path, "good.py", "print('x')\nprint('BENCH-RESULT ' + '[{\"figure\": \"a\", \"ours\": 1, "
                                 "\"peer\": 2, \"unit\": \"s\", \"target\": \"<= 0.8x peer\", \"quick\": ' "
                                 "+ str('--quick' in sys.argv).lower() + '}]')")
    _script(tmp_path, "fails.py", "print('BENCH-RESULT []')\nsys.exit('no data')")
    _script(tmp_path, "silent.py", "print('figures for a person') # BENCH-RESULT comes later")
    _script(tmp_path, "unaware.py", "print('no protocol here')")
    good = run.run_script("good.py", quick=True, timeout=60)
    assert [(r["figure"], r["ours"], r["peer"], r["quick"]) for r in good] == [("a", 1, 2, True)]
    assert "failed (exit 1): no data" in run.run_script("fails.py", quick=False, timeout=60)[0]["note"]
    assert "no BENCH-RESULT line" in run.run_script("silent.py", quick=False, timeout=60)[0]["note"]
    assert run.run_script("unaware.py", quick=False, timeout=60)[0]["note"].startswith("skipped")
    assert run.run_script("missing.py", quick=False, timeout=60)[0]["note"].startswith("skipped")
    table = run.table(good)
    assert "| a | 1 | 2 | s | 0.50 | <= 0.8x peer | yes |" in table
