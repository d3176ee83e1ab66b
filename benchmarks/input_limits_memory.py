"""Peak memory (VmHWM) of reading crafted inputs (#22 item 6): each case runs in a fresh process.

    python benchmarks/input_limits_memory.py

Prints per case: the input's size on disk, what the reader said (or that it read the file), and
the process's peak resident memory.  The inputs are made in a temporary folder.
"""

from __future__ import annotations

import gzip
import io
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_CHILD = r"""
import sys
from hieradjudicate.core.errors import FormatError
kind, path = sys.argv[1], sys.argv[2]
try:
    if kind == "inventory":
        from hieradjudicate.io.inventories.read import read_inventory
        read_inventory(path)
    else:
        from hieradjudicate.io.annotations.read import read_annotations
        cols = {"layer": "NamedEntity", "feature": "value"} if kind == "xmi" else None
        read_annotations(path, columns=cols)
    said = "read"
except FormatError as exc:
    said = "refused: " + str(exc).split(": error: ", 1)[-1][:110]
except MemoryError:
    said = "MemoryError"
for line in open("/proc/self/status"):
    if line.startswith("VmHWM"):
        print(int(line.split()[1]) // 1024, said)
"""


def _cases(folder: Path) -> list[tuple[str, str, Path]]:
    out = []
    bomb = folder / "tasks.json.gz"  # Label Studio's list of tasks, made of empty objects
    with gzip.open(bomb, "wb", compresslevel=9) as fh:
        fh.write(b'[{"data": {}},')
        chunk = b"{}," * (1 << 20)
        for _ in range(160):  # 480 MiB of JSON
            fh.write(chunk)
        fh.write(b"{}]")
    out.append(("Label Studio .json.gz of empty objects", "annotations", bomb))
    inv = folder / "inventory.json.gz"
    with gzip.open(inv, "wb", compresslevel=9) as fh:
        fh.write(b'{"lexelts": {"a.n": [')
        chunk = b'{"id": "s", "children": []},' * (1 << 16)
        for _ in range(100):
            fh.write(chunk)
        fh.write(b'{"id": "t"}]}}')
    out.append(("JSON inventory .json.gz", "inventory", inv))
    xmis = folder / "docs.zip"
    member = (b'<?xml version="1.0" encoding="UTF-8"?><xmi:XMI xmlns:xmi="http://www.omg.org/XMI" '
              b'xmlns:cas="http:///uima/cas.ecore">' + b'<cas:NULL xmi:id="0"/>' * 2_000_000 + b"</xmi:XMI>")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        z.writestr("TypeSystem.xml", b'<typeSystemDescription xmlns="http://uima.apache.org/resourceSpecifier"/>')
        for k in range(12):
            z.writestr(f"doc{k}.xmi", member)
    xmis.write_bytes(buf.getvalue())
    out.append(("zip of 12 XMI members", "xmi", xmis))
    single = folder / "single" / "doc.xmi"  # one .xmi outside a zip: 12M elements, 264 MB
    single.parent.mkdir()
    (single.parent / "TypeSystem.xml").write_bytes(
        b'<typeSystemDescription xmlns="http://uima.apache.org/resourceSpecifier"/>')
    with open(single, "wb") as fh:
        fh.write(member[:member.index(b"<cas:NULL")])
        for _ in range(6):
            fh.write(b'<cas:NULL xmi:id="0"/>' * 2_000_000)
        fh.write(b"</xmi:XMI>")
    out.append(("single .xmi file, 12M elements", "xmi", single))
    packed = folder / "packed" / "doc.xmi"  # the same, gzip by content (24M elements)
    packed.parent.mkdir()
    (packed.parent / "TypeSystem.xml").write_bytes((single.parent / "TypeSystem.xml").read_bytes())
    with gzip.open(packed, "wb", compresslevel=9) as fh:
        fh.write(member[:member.index(b"<cas:NULL")])
        for _ in range(12):
            fh.write(b'<cas:NULL xmi:id="0"/>' * 2_000_000)
        fh.write(b"</xmi:XMI>")
    out.append(("single .xmi, gzip by content, 24M el.", "xmi", packed))
    liar = folder / "liar.zip"
    data = bytearray(_one_member_zip(b"<a/>" * 50_000_000))
    for sig, at in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        pos = data.find(sig, 0 if sig == b"PK\x03\x04" else len(data) - 200)
        data[pos + at:pos + at + 4] = (100).to_bytes(4, "little")
    liar.write_bytes(bytes(data))
    out.append(("zip member whose header says 100 bytes", "xmi", liar))
    return out


def _one_member_zip(payload: bytes) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        z.writestr("TypeSystem.xml", b"<x/>")
        z.writestr("d.xmi", payload)
    return buf.getvalue()


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="hadj-limits-") as tmp:
        print(f"{'case':<40} {'on disk':>9} {'peak':>9}  what the reader said")
        for label, kind, path in _cases(Path(tmp)):
            proc = subprocess.run([sys.executable, "-c", _CHILD, kind, str(path)], capture_output=True,
                                  text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
            line = proc.stdout.strip() or f"0 crashed (rc {proc.returncode}): {proc.stderr.strip()[-150:]}"
            peak, said = line.split(" ", 1)
            print(f"{label:<40} {path.stat().st_size / 2**20:>7.1f}MB {peak:>7}MiB  {said}")


if __name__ == "__main__":
    main()
