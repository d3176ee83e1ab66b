"""Run every benchmark that has a peer (or a fixed target) and print one table.

Usage::

    HIERADJ_REALDATA=../shared/data python benchmarks/run.py [--quick] [--only NAME ...] [--json FILE]

Each script listed in :data:`SCRIPTS` runs as a child process (``--quick`` passed through) with
this checkout first on ``PYTHONPATH``.  A benchmark states its figures on its **last** line of
standard output::

    BENCH-RESULT [{"figure": "score fine: wall time", "ours": 0.52, "peer": 0.61, "unit": "s",
                   "target": "<= 0.8x peer"}, ...]

* ``figure``: what is measured; ``ours``: our figure (``null`` when it could not be measured);
  ``peer``: the peer's figure in the same run (``null`` when there is none or it could not run);
  ``unit``: ``s``, ``ms``, ``MiB``, ``MB`` ...; ``target``: ``"<= R x peer"`` (a ratio to the
  peer), ``"<= N UNIT"`` or a number (an upper bound on ours in the row's unit), ``"< peer"``
  (faster/smaller than the peer), or ``null``.  An optional ``note`` says more (e.g. why the
  peer is missing).

Here the table gets the ratio ours / peer and whether the target holds.  A script that fails,
times out or prints no such line gets one row saying why; nothing is asserted, nothing exits
non-zero because a target does not hold (benchmarks measure; the tests check results).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PREFIX = "BENCH-RESULT "

#: The benchmarks with a peer beside them in the same run (or a target of their own), in table order.
SCRIPTS = [
    "bench_score.py",  # score against the C scorer2, compiled from its source
    "bench_agree.py",  # agree --ci 1000 on MASC (a fixed target, no peer)
    "bench_competence_fixed_point.py",  # Dawid & Skene and MACE against crowd-kit
    "bench_crowd.py",  # the MASC window (fixed targets)
]

_TO_BASE = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "mib": 2.0**20, "mb": 1e6, "gib": 2.0**30, "gb": 1e9,
            "kib": 2.0**10, "kb": 1e3, "b": 1.0}


def _scale(unit: str | None) -> float | None:
    return _TO_BASE.get((unit or "").strip().lower())


def judge(row: dict) -> tuple[float | None, str]:
    """``(ours / peer, verdict)`` of one result row; the verdict is ``yes``, ``NO``, ``?`` (cannot
    tell: a figure missing, a target not understood) or ``-`` (no target)."""
    ours, peer, target = row.get("ours"), row.get("peer"), row.get("target")
    ratio = ours / peer if isinstance(ours, (int, float)) and isinstance(peer, (int, float)) and peer else None
    if target is None or target == "":
        return ratio, "-"
    if not isinstance(ours, (int, float)):
        return ratio, "?"
    if isinstance(target, (int, float)):
        return ratio, "yes" if ours <= target else "NO"
    t = str(target).strip().replace("≤", "<=").replace("×", "x").replace(",", "")
    m = re.fullmatch(r"(<=|<)\s*([0-9.]+)\s*x(\s*peer)?", t) or re.fullmatch(r"(<=|<)\s*()peer", t)
    if m:  # a ratio to the peer
        if ratio is None:
            return ratio, "?"
        bound = float(m.group(2)) if m.group(2) else 1.0
        return ratio, "yes" if (ratio <= bound if m.group(1) == "<=" else ratio < bound) else "NO"
    m = re.fullmatch(r"(<=|<)\s*([0-9.]+)\s*([A-Za-zµ]*)", t)
    if m:  # a bound on ours, in the target's unit (converted when both units are known)
        bound, unit = float(m.group(2)), m.group(3) or row.get("unit")
        a, b = _scale(row.get("unit")), _scale(unit)
        if unit != row.get("unit") and (a is None or b is None):
            return ratio, "?"
        value = ours * (a / b) if unit != row.get("unit") else ours
        return ratio, "yes" if (value <= bound if m.group(1) == "<=" else value < bound) else "NO"
    return ratio, "?"


def run_script(name: str, quick: bool, timeout: float) -> list[dict]:
    """The result rows of one benchmark, or one row saying why there are none."""
    path = HERE / name
    if not path.exists():
        return [{"figure": name, "ours": None, "peer": None, "unit": "", "target": None,
                 "note": "skipped: the script is not in this checkout"}]
    if PREFIX.strip() not in path.read_text(encoding="utf-8", errors="replace"):
        return [{"figure": name, "ours": None, "peer": None, "unit": "", "target": None,
                 "note": f"skipped: the script prints no {PREFIX.strip()} line (not run)"}]
    env = dict(os.environ)
    root = str(HERE.parent)
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    argv = [sys.executable, str(path)] + (["--quick"] if quick else [])
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=root, timeout=timeout)
    except subprocess.TimeoutExpired:
        return [{"figure": name, "ours": None, "peer": None, "unit": "", "target": None,
                 "note": f"failed: no result within {timeout:.0f} s"}]
    took = time.perf_counter() - t0
    lines = [ln for ln in proc.stdout.splitlines() if ln.strip()]
    if proc.returncode or not lines or not lines[-1].startswith(PREFIX):
        err = (proc.stderr.strip().splitlines() or [""])[-1][:160]
        why = f"exit {proc.returncode}" if proc.returncode else f"no {PREFIX.strip()} line"
        return [{"figure": name, "ours": None, "peer": None, "unit": "", "target": None,
                 "note": f"failed ({why}){': ' + err if err else ''}"}]
    try:
        rows = json.loads(lines[-1][len(PREFIX):])
        if not (isinstance(rows, list) and all(isinstance(r, dict) and "figure" in r for r in rows)):
            raise ValueError("not a list of rows with a figure each")
    except ValueError as exc:
        return [{"figure": name, "ours": None, "peer": None, "unit": "", "target": None,
                 "note": f"failed: unreadable {PREFIX.strip()} line ({exc})"}]
    for r in rows:
        r.setdefault("script", name)
        r.setdefault("seconds", round(took, 1))
    return rows


def _num(v) -> str:
    if not isinstance(v, (int, float)):
        return "—"
    return f"{v:,.0f}" if abs(v) >= 100 else f"{v:.3g}" if abs(v) < 10 else f"{v:.1f}"


def table(rows: list[dict]) -> str:
    """The rows as a Markdown table."""
    out = ["| figure | ours | peer | unit | ours / peer | target | holds | note |",
           "|---|---:|---:|---|---:|---|---|---|"]
    for r in rows:
        ratio, verdict = judge(r)
        out.append(f"| {r['figure']} | {_num(r.get('ours'))} | {_num(r.get('peer'))} | {r.get('unit') or ''} | "
                   f"{'—' if ratio is None else f'{ratio:.2f}'} | {r.get('target') or '—'} | {verdict} | "
                   f"{r.get('note') or ''} |")
    return "\n".join(out)


def machine() -> str:
    cpu = ""
    try:
        for ln in Path("/proc/cpuinfo").read_text().splitlines():
            if ln.startswith("model name"):
                cpu = ln.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs ({cpu or 'unknown CPU'}), "
            f"Python {platform.python_version()}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="passed to every benchmark: fewer repeats, smaller data")
    ap.add_argument("--only", nargs="+", metavar="SCRIPT", help="run only these scripts (file names)")
    ap.add_argument("--timeout", type=float, default=1800, help="seconds one benchmark may take (default 1800)")
    ap.add_argument("--json", metavar="FILE", help="also write the rows as JSON to FILE")
    args = ap.parse_args()
    names = [n if n.endswith(".py") else n + ".py" for n in args.only] if args.only else SCRIPTS
    started = datetime.datetime.now(datetime.timezone.utc)
    rows: list[dict] = []
    for name in names:
        load = os.getloadavg()[0]
        print(f"running {name} (load average {load:.2f}) ...", file=sys.stderr, flush=True)
        got = run_script(name, args.quick, args.timeout)
        for r in got:
            r.setdefault("load_before", round(load, 2))
        rows.extend(got)
    print(f"{started:%Y-%m-%d %H:%M} UTC; {machine()}; load average {os.getloadavg()[0]:.2f} at the end"
          f"{'; --quick' if args.quick else ''}")
    print()
    print(table(rows))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
