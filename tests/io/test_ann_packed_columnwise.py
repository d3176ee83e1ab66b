"""The column-wise reader of packed tables (io.annotations.packed) gives what the row-wise one gives.

Every file is read twice, column-wise where the file allows it and row by row: the sources (every
array, name, problem and count) or the errors must be the same, on hand-made cases and on damaged
copies of the MASC seed and of the real file's head.
"""

from __future__ import annotations

import contextlib
import gzip
import os
import tempfile

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hieradjudicate.core.errors import FormatError
from hieradjudicate.io.annotations import packed, wide
from hieradjudicate.io.annotations.read import read_annotations
from tests.io.mutations import mutate, mutations, real_seeds

HEAD = "word_pos\tform_id\tsentence_id\tlabels\n"
MASC = HEAD + "add-v\t2\t1\t1:4,3:4,4:1\nadd-v\t3\t1\t1:0,5:2\nask-v\t2\t1\t1:1\n"


@contextlib.contextmanager
def row_wise():
    fast = wide.parse_packed_fast
    wide.parse_packed_fast = lambda *a: None
    try:
        yield
    finally:
        wide.parse_packed_fast = fast


def _outcome(path: str, **kw):
    try:
        src = read_annotations(path, **kw)
    except FormatError as exc:
        return "error", [(p.line, p.message) for p in exc.problems]
    out = {}
    for name in src.__dataclass_fields__:
        v = getattr(src, name)
        if isinstance(v, np.ndarray):
            out[name] = (v.dtype.str, v.shape, v.tobytes())
        elif name == "problems":
            out[name] = [(p.line, p.severity, p.message) for p in v]
        else:
            out[name] = v
    return "source", out


def both(data: bytes, suffix: str = ".tsv", **kw):
    fd, path = tempfile.mkstemp(suffix=suffix)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        columnwise = _outcome(path, **kw)
        with row_wise():
            rowwise = _outcome(path, **kw)
    finally:
        os.unlink(path)
    assert columnwise == rowwise
    return columnwise


def test_clean_masc_is_read_column_wise(monkeypatch):
    calls = []
    real = packed.parse_packed_fast
    monkeypatch.setattr(wide, "parse_packed_fast", lambda *a: calls.append(r := real(*a)) or r)
    kind, src = both(gzip.compress(MASC.encode()), ".tsv.gz")
    assert kind == "source" and calls and calls[0] is not None
    assert src["set_names"] == ["1", "3", "4", "5"]
    assert src["item_instance"] == ["2.1", "3.1", "2.1"]


@pytest.mark.parametrize("text", [
    MASC,
    MASC.rstrip("\n"),  # no final newline
    HEAD + "add-v\t2\t1\t1:4\nadd-v\t3\t2\t1:0\n",  # sentence ids unique: no form in the id
    HEAD + "add-v\t2\t1\tworker123:sense-long-name,w2:x\n",  # longer than 8 bytes: row-wise
    HEAD + "add-v\t2\t1\t12345678:87654321,1:2\n",  # exactly 8 bytes
    HEAD + "add-v\t2\t1\t1:4,1:5\nadd-v\t2\t2\t1:4\n",  # a duplicate worker in a cell
    HEAD + "add-v\t2\t1\t1:4,3\nadd-v\t2\t2\t1:4,1:5\nadd-v\t2\t3\t1:4, :2\nadd-v\t2\t4\t\n",
    HEAD + "add-v\t2\t1\t1:4\n\nadd-v\t2\t2\t1:5\n",  # a blank line
    HEAD + "add-v\t2\t1\t1:4\r\nadd-v\t2\t2\t1:5\r\n",  # CRLF
    HEAD + "add-v\t2\t1\t1:4\t\nadd-v\t2\t2\t1:5\n",  # one field too many
    HEAD + "add-v\t2\t1:4\nadd-v\t2\t2\t\t1:5\n",  # one too few, then one too many
    HEAD + "add-v\t\t1\t1:4\nadd-v\t2\t2\t1:5\n",  # an empty form
    HEAD + "add-v \t2\t1\t1:4\nadd-v\t2\t2\t1: 5\n",  # spaces
    HEAD + "add-v\t2\t1\t1:4:5\n",
    HEAD + "add-v\t2\t1\t:4\n",
    HEAD + "add-v\t2\t1\t1:4,\n",
    HEAD + "caf\u00e9-n\t2\t1\t1:4\n",  # not ASCII
    "\n" + MASC,  # the header on line 2
    "labels\tsentence_id\tword_pos\tform_id\n1:4,2:1\t1\tadd-v\t2\n3:3\t1\tadd-v\t3\n",  # other column order
    HEAD + "add-v\t2\t1\t1:4\n" * 3,  # the same row three times
])
def test_cases_equal_row_wise(text):
    both(text.encode())


def test_column_mapping_with_more_columns():
    text = "id\tword\tnote\tall\n7\tadd-v\tx\ta:1,b:2\n8\tadd-v\t\ta:2\n9\tadd-v\ty\ta:2,b:1\n"
    kind, src = both(text.encode(), columns={"lexelt": "word", "instance": "id", "labels": "all"})
    assert kind == "source" and src["set_names"] == ["a", "b"]


def test_factorize_keys_small_keys_are_their_own_slots():
    key = np.array([0x3233, 0x31, 0x3233, 0x30, 0x31], dtype=np.uint64)
    codes, uniq = packed.factorize_keys(key)
    assert codes.tolist() == [0, 1, 0, 2, 1] and uniq.tolist() == [0x3233, 0x31, 0x30]


def test_factorize_keys_collisions_fall_back_to_a_sort():
    rng = np.random.default_rng(1)
    key = rng.integers(0, 2**63, 5000).astype(np.uint64)[rng.integers(0, 5000, 200_000)]
    codes, uniq = packed.factorize_keys(key)
    first = dict.fromkeys(key.tolist())
    assert uniq.tolist() == list(first)
    assert (uniq[codes] == key).all()


TOKENS = [b"\n", b"\t", b",", b":", b" ", b"\r", b"\n\n", b"12345678", b"123456789", b"\xc3\xa9", b"a:b",
          b"\t\t", b",,", b"::"]
SEEDS = [MASC.encode()] + real_seeds(("masc_amt/masc_amt_labels_wide.tsv.gz",), 3000)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.sampled_from(SEEDS), ops=st.lists(mutations(TOKENS), min_size=0, max_size=5))
def test_damaged_packed_files_equal_row_wise(seed, ops):
    both(mutate(seed, ops))


def test_senseval_expectation_written_out_in_read_equals_the_readers():
    from hieradjudicate.io.annotations import read, senseval

    assert f"expected {read._EXPECTED['senseval']}" == f"{senseval.EXPECTED_LINE} lines"
