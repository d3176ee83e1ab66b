"""Inventory reading and building must be linear in senses and depth: print times for n = 1k..64k.

Four shapes (each written to a temporary file, read with ``read_inventory`` and compiled with
``InventoryBuilder``): a flat lexelt of n senses (tree table), a sense-map chain n deep (one line
per sense), one sense-map line with n ancestors, and a JSON inventory of n non-ASCII ids.
The ratio column is the time for n over the time for n/2: about 2 means linear, 4 quadratic.

Usage: ``python benchmarks/bench_inventory_growth.py [max_n]`` (default 65536).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

# import this checkout's package, not whichever one is installed
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hieradjudicate.core.inventory.inventory_builder import InventoryBuilder
from hieradjudicate.io.inventories.read import read_inventory


def flat(n: int) -> bytes:
    rows = ["lexelt\tsense\tparent\tgloss", "big.n\troot\t\tthe root"]
    rows += [f"big.n\ts{i}\troot\tsense {i}" for i in range(n)]
    return ("\n".join(rows) + "\n").encode()


def chain(n: int) -> bytes:
    return ("".join(f"s{i} 1 s{i - 1}\n" for i in range(1, n)) + "s0\n").encode()


def long_line(n: int) -> bytes:
    return (" ".join(["s0"] + [f"1 s{i}" for i in range(1, n)]) + "\n").encode()


def json_non_ascii(n: int) -> bytes:
    nodes = [{"id": f"sens\u00e9{i}\u4e00", "gloss": "\u00fcber"} for i in range(n)]
    return json.dumps({"lexelts": {"gro\u00df.n": nodes}}, indent=1).encode()


SHAPES = {"flat table": (flat, "tree-table", "big.n", "s0"),
          "sense-map chain": (chain, "sensemap", "x.n", "s0"),
          "sense-map long line": (long_line, "sensemap", "x.n", "s0"),
          "JSON non-ASCII ids": (json_non_ascii, "json", "gro\u00df.n", "x")}


def run(make, fmt: str, lexelt: str, tag: str, n: int) -> tuple[float, float, int]:
    with tempfile.NamedTemporaryFile("wb", suffix=".inv", delete=False) as fh:
        fh.write(make(n))
    try:
        t0 = time.perf_counter()
        src = read_inventory(fh.name, format=fmt)
        t1 = time.perf_counter()
        b = InventoryBuilder()
        b.add(src.senses)
        inv = b.build({lexelt: {tag}})
        t2 = time.perf_counter()
        return t1 - t0, t2 - t1, inv.n_nodes
    finally:
        os.unlink(fh.name)


def main() -> None:
    top = int(sys.argv[1]) if len(sys.argv) > 1 else 65536
    print(f"load average {os.getloadavg()[0]:.1f} (2 shared cores: wall times are noisy)")
    for name, (make, fmt, lexelt, tag) in SHAPES.items():
        print(f"\n{name}")
        print(f"{'n':>7} {'read s':>8} {'build s':>8} {'nodes':>7} {'ratio':>6}")
        prev = None
        n = 1024
        while n <= top:
            r, b, nodes = run(make, fmt, lexelt, tag, n)
            ratio = f"{(r + b) / prev:6.2f}" if prev else "     -"
            print(f"{n:>7} {r:8.3f} {b:8.3f} {nodes:>7} {ratio}")
            prev = r + b
            n *= 2


if __name__ == "__main__":
    main()
