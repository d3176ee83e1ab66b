"""Bounded reading (issue #12 item 5): size and line limits, control characters, FIFOs, file
names in any encoding, over-long ids, and no quadratic work in inventory reading and building.

Hangs are bounded by ``signal.alarm`` (in-process) or a subprocess timeout; memory by the peak
RSS of a child process reading the input.
"""

from __future__ import annotations

import gzip
import json
import os
import signal
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest

from hieradjudicate.core.errors import FormatError
from hieradjudicate.core.inventory.inventory_builder import InventoryBuilder
from hieradjudicate.io.annotations.read import read_annotations
from hieradjudicate.io.contexts.read import read_contexts
from hieradjudicate.io.inventories.read import read_inventory
from hieradjudicate.io.textfile import read_bytes, read_text

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def time_limit():
    """``with time_limit(s):`` fails the test (instead of hanging) after ``s`` seconds."""
    import contextlib

    @contextlib.contextmanager
    def limit(seconds: int):
        def boom(*_):
            raise TimeoutError(f"took more than {seconds} s")
        old = signal.signal(signal.SIGALRM, boom)
        signal.alarm(seconds)
        try:
            yield
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, old)
    return limit


def _child(code: str, timeout: float = 120, env: dict | None = None) -> tuple[str, float, float]:
    """Run ``code`` in a fresh interpreter (this checkout); return stdout, seconds, peak RSS MB
    (the child's own, printed last)."""
    # VmHWM belongs to the new address space; ru_maxrss would carry the parent's over fork/exec
    code += ("\nprint(next(int(x.split()[1]) for x in open('/proc/self/status')"
             " if x.startswith('VmHWM')))\n")
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         timeout=timeout, env={**os.environ, **(env or {})})
    took = time.perf_counter() - t0
    assert out.returncode == 0, out.stderr
    text, _, peak_kb = out.stdout.rstrip("\n").rpartition("\n")
    return text, took, int(peak_kb) / 1024


_READ_AND_REPORT = """
import sys
from hieradjudicate.core.errors import FormatError
from hieradjudicate.io.textfile import read_text
try:
    read_text(sys.argv[1] if len(sys.argv) > 1 else {path!r})
    print("READ")
except FormatError as exc:
    print(str(exc))
"""


def _write_gz_stream(path: Path, block: bytes, total: int, level: int = 1) -> None:
    """A gzip member of ``total`` bytes made of ``block`` repeated, compressed as it is written."""
    comp = zlib.compressobj(level, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    with open(path, "wb") as fh:
        n = 0
        while n < total:
            fh.write(comp.compress(block))
            n += len(block)
        fh.write(comp.flush())


# ---------------------------------------------------------------- decompression bombs, line limit

needs_proc = pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="peak memory is "
                                "read from /proc/self/status (Linux)")


@needs_proc
def test_gzip_of_zeros_is_refused_quickly_and_small(tmp_path):
    path = tmp_path / "zeros.key.gz"
    _write_gz_stream(path, b"\0" * (1 << 20), 1 << 30, level=9)  # ~1 MB on disk, 1 GiB inflated
    assert path.stat().st_size < 1_200_000
    out, took, peak_mb = _child(_READ_AND_REPORT.format(path=str(path)))
    assert "line longer than" in out and f"{path}:1:" in out, out
    assert took < 60
    assert peak_mb < 200, f"peak RSS {peak_mb:.0f} MB"  # 2.1 GB before
    print(f"1 MB gzip of zeros: {took:.1f} s, peak RSS {peak_mb:.0f} MB")


@needs_proc
def test_gzip_member_of_600_mb_lines_is_refused_with_its_line(tmp_path):
    path = tmp_path / "big.key.gz"
    line = b"art.n art.n.1 art%1:06:00::\n"
    _write_gz_stream(path, line * 40000, 600 * 1024 * 1024)
    out, took, peak_mb = _child(_READ_AND_REPORT.format(path=str(path)), timeout=300)
    assert "decompresses to more than 536,870,912 bytes" in out, out
    expected_line = 512 * 1024 * 1024 // len(line)  # the limit falls near this line
    got = int(out.split(f"{path}:")[1].split(":")[0])
    assert abs(got - expected_line) < 40000 + 2
    assert took < 120
    assert peak_mb < 800, f"peak RSS {peak_mb:.0f} MB"  # the 512 MiB kept before the limit
    print(f"600 MB member: {took:.1f} s, peak RSS {peak_mb:.0f} MB")


def test_size_limit_is_overridable(tmp_path, monkeypatch):
    path = tmp_path / "k.key"
    path.write_bytes(b"art.n art.n.1 x\n" * 1000)
    monkeypatch.setenv("HIERADJ_MAX_INPUT_BYTES", "10000")
    with pytest.raises(FormatError, match="holds more than 10,000 bytes") as ei:
        read_text(path)
    assert ei.value.problems[0].line is not None
    monkeypatch.setenv("HIERADJ_MAX_INPUT_BYTES", "100000")
    assert read_text(path).count("\n") == 1000


def test_long_line_is_refused_with_its_line_number(tmp_path, monkeypatch):
    path = tmp_path / "k.key"
    path.write_bytes(b"a b c\n" * 5 + b"a b " + b"x" * (2 << 20) + b"\nd e f\n")
    with pytest.raises(FormatError, match="line longer than 1,048,576 bytes") as ei:
        read_text(path)
    assert ei.value.problems[0].line == 6
    monkeypatch.setenv("HIERADJ_MAX_LINE_BYTES", str(4 << 20))
    assert read_text(path).count("\n") == 7


@pytest.mark.parametrize("chunk_offset", [0, 1, (1 << 20) - 3, (1 << 20) + 5])
def test_line_limit_counts_across_chunks(tmp_path, monkeypatch, chunk_offset):
    # a line exactly at the limit passes, one byte more fails, wherever the chunk border falls
    monkeypatch.setenv("HIERADJ_MAX_LINE_BYTES", "1000")
    head = b"\n" * chunk_offset
    ok = tmp_path / "ok.txt"
    ok.write_bytes(head + b"y" * 1000 + b"\nz\n")
    assert read_bytes(ok).endswith(b"z\n")
    bad = tmp_path / "bad.txt"
    bad.write_bytes(head + b"y" * 1001 + b"\nz\n")
    with pytest.raises(FormatError) as ei:
        read_bytes(bad)
    assert ei.value.problems[0].line == chunk_offset + 1


def test_json_and_xml_documents_are_exempt_from_the_line_limit(tmp_path, monkeypatch):
    monkeypatch.setenv("HIERADJ_MAX_LINE_BYTES", "100")
    nodes = [{"id": f"s{i}"} for i in range(50)]
    path = tmp_path / "inv.json"
    path.write_text(json.dumps({"lexelts": {"a.n": nodes}}))  # one line of ~600 bytes
    assert len(read_inventory(path).senses) == 50


def test_gzip_members_trailing_data_and_truncation(tmp_path):
    two = tmp_path / "two.gz"
    two.write_bytes(gzip.compress(b"a\n") + gzip.compress(b"b\n"))
    assert read_bytes(two) == b"a\nb\n"
    padded = tmp_path / "padded.gz"
    padded.write_bytes(gzip.compress(b"a\n") + b"\0" * 100)
    assert read_bytes(padded) == b"a\n"
    junk = tmp_path / "junk.gz"
    junk.write_bytes(gzip.compress(b"a\n") + b"junk")
    with pytest.raises(FormatError, match="trailing data") as ei:
        read_bytes(junk)
    assert ei.value.problems[0].line == 2  # after the member's one line
    cut = tmp_path / "cut.gz"
    cut.write_bytes(gzip.compress(b"a b c\n" * 1000)[:-12])
    with pytest.raises(FormatError, match="damaged gzip|ends inside") as ei:
        read_bytes(cut)
    assert ei.value.problems[0].line is not None
    flipped = bytearray(gzip.compress(bytes(range(32, 127)) * 100 + b"\n" * 50, 9))
    flipped[len(flipped) // 2] ^= 0xFF
    with pytest.raises(FormatError, match="damaged gzip") as ei:
        read_bytes(_write(tmp_path / "flip.gz", bytes(flipped)))
    assert ei.value.problems[0].line is not None


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


# ---------------------------------------------------------------- control characters and NUL bytes

@pytest.mark.parametrize("data, line, col, what", [
    (b"art.n art.n.1 a\nart.n art.n.2 b\n\0\0\0\0", 3, 1, "NUL"),
    (b"art.n art.n.1 a\x01b\n", 1, 16, "0x01"),
    (b"art.n art.n.1 \x1b]0;PWNED\x07\x1b[2J\n", 1, 15, "0x1b"),
    (b"art.n art.n.1 a\nart.n art.n.2 b\x7f\n", 2, 16, "0x7f"),
])
def test_control_characters_are_errors_with_their_position(tmp_path, data, line, col, what):
    path = tmp_path / "k.key"
    path.write_bytes(data)
    with pytest.raises(FormatError, match=what) as ei:
        read_annotations(path)
    p = ei.value.problems[0]
    assert (p.line, p.column) == (line, col)


def test_nul_at_the_end_of_real_files_is_refused(realdata, tmp_path):
    cases = [("senseval3/EnglishLS.test.key", read_annotations),
             ("senseval3/EnglishLS.sensemap", read_inventory),
             ("wsbest/uses.tsv.gz", read_contexts),
             ("masc_amt/inventory_tree.tsv", read_inventory)]
    for rel, reader in cases:
        raw = (realdata / rel).read_bytes()
        if raw[:2] == b"\x1f\x8b":
            raw = gzip.decompress(raw)
        for tail in (b"\0" * 16, b"x\x03y\n"):
            p = tmp_path / Path(rel).name.replace(".gz", "")
            p.write_bytes(raw + tail)
            with pytest.raises(FormatError) as ei:
                reader(p)
            assert ei.value.problems[0].line == raw.count(b"\n") + 1, rel


# ---------------------------------------------------------------- not regular files, names

def test_a_fifo_is_refused_without_hanging(tmp_path, time_limit):
    fifo = tmp_path / "p.key"
    os.mkfifo(fifo)
    with time_limit(10):
        for reader in (read_annotations, read_inventory, read_contexts, read_text):
            with pytest.raises(FormatError, match="not a regular file"):
                reader(fifo)


def test_file_names_in_any_encoding(tmp_path):
    raw_name = os.fsencode(tmp_path) + b"/key\xff\xfe.txt"
    with open(raw_name, "wb") as fh:
        fh.write(b"art.n art.n.1 art%1:06:00::\n")
    name = os.fsdecode(raw_name)
    src = read_annotations(name)
    assert src.n_labels == 1 and src.set_names == ["key\\udcff\\udcfe"]
    assert read_text(raw_name)  # a bytes path works too
    (tmp_path / "ok").mkdir()
    with pytest.raises(FormatError) as ei:
        read_text(os.fsdecode(os.fsencode(tmp_path) + b"/missing\xff"))
    str(ei.value).encode("utf-8")  # the message is printable: no lone surrogates
    assert "missing\\udcff" in str(ei.value)


# ---------------------------------------------------------------- over-long names

def test_a_200_kb_instance_id_is_refused_with_its_line(tmp_path):
    path = tmp_path / "k.key"
    path.write_text("art.n art.n.1 a\nart.n " + "i" * 200_000 + " b\n")
    with pytest.raises(FormatError, match="instance id of 200,000 characters") as ei:
        read_annotations(path)
    assert ei.value.problems[0].line == 2


def test_long_tags_sense_ids_and_context_ids_are_refused(tmp_path, monkeypatch):
    path = tmp_path / "k.key"
    path.write_text("art.n art.n.1 a\nart.n art.n.2 " + "t" * 1001 + "\n")
    with pytest.raises(FormatError, match="tag of 1,001 characters") as ei:
        read_annotations(path)
    assert ei.value.problems[0].line == 2
    monkeypatch.setenv("HIERADJ_MAX_ID_CHARS", "2000")
    assert read_annotations(path).n_labels == 2
    monkeypatch.delenv("HIERADJ_MAX_ID_CHARS")
    inv = tmp_path / "i.sensemap"
    inv.write_text("a\nb 2 a\n" + "c" * 5000 + " 2 a\n")
    with pytest.raises(FormatError, match="sense id of 5,000") as ei:
        read_inventory(inv)
    assert ei.value.problems[0].line == 3
    ctx = tmp_path / "c.csv"
    ctx.write_text("lexelt,instance,context,start,end\nart.n,1,a fine art,7,10\n"
                   f"art.n,{'9' * 3000},a fine art,7,10\n")
    with pytest.raises(FormatError, match="instance id of 3,000") as ei:
        read_contexts(ctx)
    assert ei.value.problems[0].line == 3


# ---------------------------------------------------------------- no quadratic work

def _build(path: Path, fmt: str, tags: dict[str, set[str]]):
    src = read_inventory(path, format=fmt)
    b = InventoryBuilder()
    b.add(src.senses)
    return b.build(tags)


def test_16000_senses_in_one_lexelt(tmp_path, time_limit):
    path = tmp_path / "t.tsv"
    path.write_text("lexelt\tsense\tparent\nbig.n\troot\t\n"
                    + "".join(f"big.n\ts{i}\troot\n" for i in range(16000)))
    with time_limit(20):  # 7.4 s before; ~0.1 s now
        inv = _build(path, "tree-table", {})
    assert inv.n_nodes == 16001 and int(inv.node_is_leaf.sum()) == 16000


def test_sense_map_chain_16000_deep(tmp_path, time_limit):
    path = tmp_path / "chain.sensemap"
    path.write_text("".join(f"s{i} 1 s{i - 1}\n" for i in range(1, 16000)) + "s0\n")
    with time_limit(20):  # 60 s before
        inv = _build(path, "sensemap", {"x.n": {"s0"}})
    assert inv.n_nodes == 16000 and int(inv.node_depth.max()) == 16000


def test_sense_map_line_with_a_long_run_of_tokens(tmp_path, time_limit):
    path = tmp_path / "long.sensemap"
    path.write_text(" ".join(["s0"] + [f"1 s{i}" for i in range(1, 16000)]) + "\n")
    with time_limit(20):
        inv = _build(path, "sensemap", {"x.n": {"s0"}})
    assert inv.n_nodes == 16000
    bad = tmp_path / "bad.sensemap"  # the error's column is still right
    bad.write_text(" ".join(["s0"] + [f"1 s{i}" for i in range(1, 16000)] + ["x s9"]) + "\n")
    with time_limit(20), pytest.raises(FormatError) as ei:
        read_inventory(bad, format="sensemap")
    p = ei.value.problems[0]
    assert p.column == len(bad.read_text().rsplit(" x ", 1)[0]) + 2


def test_cycle_in_a_long_chain_is_found_once(tmp_path, time_limit):
    from hieradjudicate.core.errors import InventoryError
    from hieradjudicate.core.records import SenseRecord

    n = 20000
    recs = [SenseRecord("w.n", f"s{i}", f"s{(i + 1) % n}", line=i + 1, file="f") for i in range(n)]
    b = InventoryBuilder()
    b.add(recs)
    with time_limit(20), pytest.raises(InventoryError) as ei:
        b.build({})
    cycles = [p for p in ei.value.problems if "own ancestor" in p.message]
    assert len(cycles) == 1


def test_20000_non_ascii_ids_in_a_json_inventory(tmp_path, time_limit):
    nodes = [{"id": f"sens\u00e9{i}\u4e00", "gloss": "\u00fcber"} for i in range(20000)]
    path = tmp_path / "inv.json"
    path.write_text(json.dumps({"lexelts": {"gro\u00df.n": nodes}}, indent=1))
    with time_limit(20):  # over 30 s before
        src = read_inventory(path)
        inv = _build(path, "json", {})
    assert inv.n_nodes == 20000
    # lines are still right, whether the ids are written escaped (as here) or raw
    assert [r.line for r in src.senses[:3]] == [5, 9, 13]
    raw = tmp_path / "raw.json"
    raw.write_text(json.dumps({"lexelts": {"a.n": nodes[:3]}}, indent=1, ensure_ascii=False))
    assert [r.line for r in read_inventory(raw).senses] == [5, 9, 13]
