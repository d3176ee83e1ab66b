"""#33: ``score --policy fine|coarse|mixed`` on clean Senseval files reads each file once.

The check that a file is annotations at all (not a sense map, not XML) reads the head of the bytes
the scan reads, not the file again: each input file is opened once and its bytes are read once,
and the figures are those of the strict route.
"""

from __future__ import annotations

import builtins
import io
import json
import os
from collections import Counter

import pytest

from hieradjudicate.cli.entry import main

KEY = "a.n a.n.1 1 2\na.n a.n.2 3\nb.v b.v.1 x\nb.v b.v.2 U\n"
ANSWERS = "a.n a.n.1 1/0.5 2/0.25\na.n a.n.2 3/1\nb.v b.v.1 x y\n"
SENSEMAP = "1\n2 2 1\n3\nx\ny 2 x\n"


class _Counted:
    """A file object that counts the bytes read through it."""

    def __init__(self, fh, name: str, read: Counter) -> None:
        self._fh, self._name, self._read = fh, name, read

    def __getattr__(self, attr):
        return getattr(self._fh, attr)

    def __enter__(self):
        self._fh.__enter__()
        return self

    def __exit__(self, *exc):
        return self._fh.__exit__(*exc)

    def __iter__(self):
        for line in self._fh:
            self._read[self._name] += len(line)
            yield line

    def read(self, *a):
        got = self._fh.read(*a)
        self._read[self._name] += len(got)
        return got

    def readinto(self, buf):
        got = self._fh.readinto(buf)
        self._read[self._name] += got or 0
        return got

    def readline(self, *a):
        got = self._fh.readline(*a)
        self._read[self._name] += len(got)
        return got


@pytest.fixture
def files(tmp_path):
    paths = {}
    for name, text in (("key.txt", KEY), ("answers.txt", ANSWERS), ("map.txt", SENSEMAP)):
        paths[name] = tmp_path / name
        paths[name].write_text(text)
    return paths


def _score(files, policy, capsys):
    main(["score", "--inventory", str(files["map.txt"]), "--gold", str(files["key.txt"]), "--system",
          str(files["answers.txt"]), "--policy", policy, "--format", "json"])
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("policy", ["fine", "coarse", "mixed"])
def test_score_opens_and_reads_each_input_file_once(files, policy, monkeypatch, capsys):
    want = _score(files, policy, capsys)
    opened, read = Counter(), Counter()
    real = builtins.open
    watched = {os.path.realpath(p): name for name, p in files.items()}

    def counting_open(file, *a, **k):
        fh = real(file, *a, **k)
        name = watched.get(os.path.realpath(file)) if isinstance(file, (str, os.PathLike)) else None
        if name is None:
            return fh
        opened[name] += 1
        return _Counted(fh, name, read)

    monkeypatch.setattr(builtins, "open", counting_open)
    monkeypatch.setattr(io, "open", counting_open)
    got = _score(files, policy, capsys)
    assert got == want
    assert got["systems"][0]["total"] == 4 and got["systems"][0]["attempted"] > 2
    for name in ("key.txt", "answers.txt"):
        assert opened[name] == 1, f"{name} opened {opened[name]} times"
        assert read[name] == files[name].stat().st_size, f"{name}: {read[name]} bytes read"
