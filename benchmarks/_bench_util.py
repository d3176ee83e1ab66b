"""Shared helpers of the reader benchmarks: timing and peak memory of one call."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import statistics
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

# the window's competence estimates kept on disk (app.dashboard.competence_cache) would let one run read what
# another made: every benchmark measures the estimate made (bench_crowd.py measures a kept one apart)
os.environ.setdefault("HIERADJ_NO_CACHE", "1")


def realdata() -> Path:
    """``$HIERADJ_REALDATA`` or ``../shared/data`` (relative to the repository), as an absolute path (a
    relative one, as the README writes it, named other files than the window's dialogs give back)."""
    default = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
    return Path(os.environ.get("HIERADJ_REALDATA") or default).resolve()


def build_masc(folder: Path) -> Path:
    """The MASC project (228 workers, 44,682 instances) built from the real data into ``folder``."""
    d = realdata() / "masc_amt"
    out = folder / "masc.hadj"
    subprocess.run([sys.executable, "-m", "hieradjudicate", "project", "new", str(out), "--inventory",
                    str(d / "inventory_tree.tsv"), "--annotations", str(d / "masc_amt_labels_wide.tsv.gz")],
                   check=True, capture_output=True)
    return out


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


def generate_project(folder: Path, n: int, *, n_lexelts: int = 200, seed: int = 7, n_systems: int = 0,
                     contexts: bool = False):
    """Write a generated project: an outline inventory (3 senses x 3 sub-senses per lexelt), three
    annotators (75 % the true leaf, 10 % its main sense, else a random leaf), ``n_systems`` systems
    (right with probability 0.5, 0.7, 0.6, 0.8, 0.4; otherwise a weighted wrong answer) and, on
    request, a context table.  Returns (inventory paths, annotation specs, context paths, truth)."""
    import random

    from hieradjudicate.app.loading.load import AnnotationSpec

    rng = random.Random(seed)
    inv, leaves = [], {}
    for x in range(n_lexelts):
        lex = f"w{x}.n"
        inv.append(f"# lexelt {lex}")
        leaves[lex] = []
        for a in range(1, 4):
            inv.append(f"{a}: sense {a} of {lex}")
            for b in range(1, 4):
                inv.append(f"  {a}.{b}: sub-sense {a}.{b} of {lex}")
                leaves[lex].append(f"{a}.{b}")
        inv.append("")
    (folder / "inventory.txt").write_text("\n".join(inv), encoding="utf-8")
    lexes = list(leaves)
    goods = [0.5, 0.7, 0.6, 0.8, 0.4][:n_systems]
    keys: list[list[str]] = [[] for _ in range(3 + n_systems)]
    ctx = ["lexelt\tinstance\tcontext"]
    truth = []
    for i in range(n):
        lex = lexes[i % n_lexelts]
        inst = f"{lex}.{i:06d}"
        true = rng.choice(leaves[lex])
        truth.append((lex, inst, true))
        for r in range(3):
            u = rng.random()
            tag = true if u < 0.75 else (true.split(".")[0] if u < 0.85 else rng.choice(leaves[lex]))
            keys[r].append(f"{lex} {inst} {tag}")
        for r, good in enumerate(goods, start=3):
            if rng.random() < good:
                keys[r].append(f"{lex} {inst} {true}")
            else:
                keys[r].append(f"{lex} {inst} {rng.choice(leaves[lex])}/0.6 {true.split('.')[0]}/0.4")
        if contexts:
            ctx.append(f"{lex}\t{inst}\tSome words before the <head>w{i % n_lexelts}</head> and some words after it.")
    names = [("ann", "annotator"), ("ben", "annotator"), ("cho", "annotator")]
    names += [(f"sys{k + 1}", "system") for k in range(n_systems)]
    specs = []
    for r, (name, role) in enumerate(names):
        p = folder / f"{name}.txt"
        p.write_text("\n".join(keys[r]) + "\n", encoding="utf-8")
        specs.append(AnnotationSpec(str(p), name, role))
    ctx_paths = []
    if contexts:
        (folder / "contexts.tsv").write_text("\n".join(ctx) + "\n", encoding="utf-8")
        ctx_paths = [str(folder / "contexts.tsv")]
    return [str(folder / "inventory.txt")], specs, ctx_paths, truth


def widget_name(obj) -> str:
    """A Qt widget's own name, else its Qt part name or class "in" the nearest named widget above it
    (how the paint diagnostics of bench_crowd.py and bench_next_key_parts.py name what painted)."""
    name = obj.objectName()
    if name and not name.startswith("qt_"):
        return name
    up = obj.parent()
    while up is not None and (not up.objectName() or up.objectName().startswith("qt_")):
        up = up.parent()
    own = name or type(obj).__name__
    return own if up is None else f"{own} in {up.objectName()}"
