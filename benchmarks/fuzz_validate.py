"""Mutate the real files in ``$HIERADJ_REALDATA`` and read each through ``validate``'s loading; print
how many mutations were tried, crashed (anything but a user error), hung (over the time bound), were
accepted with control characters, or gave errors without a line number, and the slowest input and
peak memory.

Usage: ``HIERADJ_REALDATA=../shared/data python benchmarks/fuzz_validate.py [--per-file 40] [--seed 1]``
"""

from __future__ import annotations

import argparse
import collections
import gzip
import os
import random
import resource
import signal
import sys
import tempfile
import time
from pathlib import Path

# this checkout, not an install (HIERADJ_FUZZ_TREE names another checkout, to compare)
sys.path.insert(0, os.environ.get("HIERADJ_FUZZ_TREE") or str(Path(__file__).resolve().parent.parent))

from hieradjudicate.app.loading.load import AnnotationSpec, load  # noqa: E402
from hieradjudicate.core.errors import HieradjError  # noqa: E402

FILES = {  # relative path -> kind
    "senseval3/EnglishLS.sensemap": "inventory",
    "senseval3/EnglishLS.dictionary.xml": "inventory",
    "masc_amt/inventory_tree.tsv": "inventory",
    "wsbest/inventory_tree.tsv": "inventory",
    "senseval3/EnglishLS.test.key": "annotations",
    "senseval3/answers/ens_weighted.txt": "annotations",
    "wsbest/wsbest_selected_senses_per_annotator.tsv": "annotations",
    "wsdeval/semeval2015.gold.key.txt": "annotations",
    "wsbest/uses.tsv.gz": "contexts",
    "senseval3/EnglishLS.test.gz": "contexts",
}
TOKENS = [b"\n", b"\t", b" ", b"\x00", b"\x1b[2J", b"\x07", b"\xff", b"\r", b"\xc2\x9b", b"#",
          b"\"", b",", b"<", b">", b"{", b"}", b"9" * 40, b"x" * 2000]


class Hang(Exception):
    pass


def mutate(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    kind = rng.choice(["insert", "delete", "replace", "truncate", "dupline", "longline", "nulend",
                       "longid", "bomb"])
    i = rng.randrange(len(data) + 1)
    if kind == "insert":
        return data[:i] + rng.choice(TOKENS) + data[i:], kind
    if kind == "delete":
        return data[:i] + data[i + rng.randint(1, 40):], kind
    if kind == "replace":
        return data[:i] + bytes([rng.randrange(256)]) + data[i + 1:], kind
    if kind == "truncate":
        return data[:i], kind
    if kind == "dupline":
        lines = data.split(b"\n")
        k = rng.randrange(len(lines))
        return b"\n".join(lines[:k] + [lines[k]] * rng.randint(2, 5000) + lines[k + 1:]), kind
    if kind == "longline":
        return data[:i] + b" x" * rng.randint(10_000, 2_000_000) + data[i:], kind
    if kind == "nulend":
        return data + b"\x00" * rng.randint(1, 64), kind
    if kind == "longid":
        return data[:i] + b"i" * rng.randint(1_000, 300_000) + data[i:], kind
    return data + b"a b c\n" * rng.randint(100_000, 2_000_000), kind  # "bomb": grows by lines


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--per-file", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bound", type=int, default=30, help="seconds before an input counts as a hang")
    args = ap.parse_args()
    root = Path(os.environ.get("HIERADJ_REALDATA", "../shared/data"))
    rng = random.Random(args.seed)
    counts: collections.Counter = collections.Counter()
    no_line: collections.Counter = collections.Counter()
    slowest = (0.0, "")

    def boom(*_):
        raise Hang

    signal.signal(signal.SIGALRM, boom)
    with tempfile.TemporaryDirectory() as tmp:
        for rel, kind in FILES.items():
            raw = (root / rel).read_bytes()
            if raw[:2] == b"\x1f\x8b":
                raw = gzip.decompress(raw)
            for n in range(args.per_file):
                data, op = mutate(raw, rng)
                plain = data
                if rng.random() < 0.3:
                    data = gzip.compress(data, 1)
                path = os.path.join(tmp, f"m{n}_{Path(rel).name}")
                with open(path, "wb") as fh:
                    fh.write(data)
                counts["tried"] += 1
                t0 = time.perf_counter()
                signal.alarm(args.bound)
                try:
                    inv = [path] if kind == "inventory" else []
                    ann = [AnnotationSpec(path)] if kind == "annotations" else []
                    ctx = [path] if kind == "contexts" else []
                    res = load(inv, ann, ctx, strict=False)
                    for p in res.problems:
                        if p.line is None and p.severity == "error":
                            no_line[p.message[:70]] += 1
                    counts["errors" if res.errors else "accepted"] += 1
                    if not res.errors and any(c in plain for c in (b"\x00", b"\x1b", b"\x07")):
                        counts["accepted with control characters"] += 1
                except Hang:
                    counts["hung"] += 1
                    print(f"HANG {rel} {op}")
                except HieradjError:
                    counts["errors"] += 1
                except Exception as exc:  # noqa: BLE001  (the survey counts every crash)
                    counts["crashed"] += 1
                    print(f"CRASH {rel} {op}: {type(exc).__name__}: {exc}"[:200])
                finally:
                    signal.alarm(0)
                took = time.perf_counter() - t0
                if took > slowest[0]:
                    slowest = (took, f"{rel} ({op}, {len(data):,} bytes)")
                os.unlink(path)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"mutations tried {counts['tried']}: accepted {counts['accepted']}, refused with errors "
          f"{counts['errors']}, crashed {counts['crashed']}, hung {counts['hung']}, accepted with "
          f"control characters {counts['accepted with control characters']}")
    print(f"errors without a line number: {sum(no_line.values())}")
    for msg, k in no_line.most_common(15):
        print(f"  {k:4d}  {msg}")
    print(f"slowest input {slowest[0]:.2f} s: {slowest[1]}; peak RSS {peak:.0f} MB")


if __name__ == "__main__":
    main()
