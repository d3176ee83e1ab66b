"""A full disk and read-only media (#12 item 3), on a real small tmpfs when this machine allows mounting.

Every command says what happened in one line (exit 1), nothing is reported saved that was not, no
file is left behind, and a read-only project is read whole without a byte changed.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

import hieradjudicate
from hieradjudicate.cli.entry import main

DEMO = Path(hieradjudicate.__file__).resolve().parent.parent / "resources" / "demo"


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(mnt)],
                          capture_output=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({done.stderr.decode(errors='replace').strip()})")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)


def _new(path: Path) -> int:
    return main(["project", "new", str(path), "--inventory", str(DEMO / "inventory.txt"),
                 "--annotations", str(DEMO / "annotator_ann.key"),
                 "--annotations", f"ben={DEMO / 'annotator_ben.key'}"])


def _first_instance() -> str:
    return next(line.split()[1] for line in (DEMO / "annotator_ann.key").read_text().splitlines()
                if line.startswith("bank.n "))


def test_full_disk(small_disk: Path, capsys) -> None:
    p = small_disk / "p.hadj"
    assert _new(p) == 0
    fill = small_disk / "fill"
    with open(fill, "wb") as fh:
        try:
            while True:
                fh.write(b"\0" * 65536)
                fh.flush()
        except OSError:
            pass
    capsys.readouterr()
    listing = sorted(os.listdir(small_disk))
    assert main(["project", "status", str(p)]) == 0
    assert main(["project", "decide", str(p), "bank.n", _first_instance(), "--flag"]) == 1
    err = capsys.readouterr().err
    # (the refusal may come at the save: opening no longer writes, #30)
    assert "full" in err and "internal error" not in err
    assert "saved" not in err.replace("nothing of this change was saved", "")
    assert _new(small_disk / "q.hadj") == 1
    assert main(["project", "export", str(p), "--format", "csv", "-o", str(small_disk / "g.csv")]) == 1
    err = capsys.readouterr().err
    assert "internal error" not in err and err.count("error:") == 2
    assert sorted(os.listdir(small_disk)) == listing  # no temporary build, no half export
    fill.unlink()
    assert main(["project", "decide", str(p), "bank.n", _first_instance(), "--flag"]) == 0


def test_read_only_media(small_disk: Path, tmp_path: Path, capsys) -> None:
    p = small_disk / "p.hadj"
    assert _new(p) == 0
    assert main(["project", "decide", str(p), "bank.n", _first_instance(), "--flag"]) == 0
    done = subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], capture_output=True, check=False)
    if done.returncode != 0:
        pytest.skip("cannot remount read-only here")
    digest = hashlib.sha256(p.read_bytes()).hexdigest()
    listing = sorted(os.listdir(small_disk))
    capsys.readouterr()
    assert main(["project", "status", str(p)]) == 0
    assert main(["project", "history", str(p), "--format", "text"]) == 0
    assert "flagged" in capsys.readouterr().out
    assert main(["project", "export", str(p), "--format", "csv", "-o", str(tmp_path / "g.csv")]) == 0
    assert main(["project", "check", str(p)]) == 0
    assert main(["project", "decide", str(p), "bank.n", _first_instance(), "--flag"]) == 1
    assert "may not write" in capsys.readouterr().err
    assert hashlib.sha256(p.read_bytes()).hexdigest() == digest
    assert sorted(os.listdir(small_disk)) == listing
