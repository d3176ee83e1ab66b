"""Property test: damaged inputs give a source or a FormatError, never another exception."""

from __future__ import annotations

import gzip
import json
import os
import tempfile

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hieradjudicate.core.errors import FormatError
from hieradjudicate.core.records import ContextSource, InventorySource
from hieradjudicate.io.contexts.read import CONTEXT_FORMATS, read_contexts
from hieradjudicate.io.inventories.read import INVENTORY_FORMATS, read_inventory
from tests.io.mutations import CONTROL_CHARS, bounded, clean_name, mutate, mutations, real_seeds

SEEDS: list[bytes] = [
    b"38202 2 38204\n38201\n42601 2 42606 3 top\n",
    b'<lexelt item="add.v">\n<sense id="1" source="ws" synset="add" gloss="to add. "x" y"/>\n'
    b"</lexelt>\n",
    b"lexelt\tsense\tparent\tgloss\tweight\tbranching\nfig.n\tA\t\tg\t\t3\nfig.n\tA.1\tA\t\t2\t\n",
    b"node_id\tparent_id\tnode_type\twn_sense_key\tlabel\nadd-v\t\tlemma\t\tadd-v\n"
    b"add-v/verb.x\tadd-v\tlexfile\t\tverb.x\nadd-v#1\tadd-v/verb.x\tsense\tadd%2:30:00::\tg\n",
    b"# lexelt fig.n\nA: g\n  A.1\n    A.1a: x\n  A.2\n# note\nB\n",
    json.dumps({"lexelts": {"a.n": [{"id": "1", "weight": 2, "children": [{"id": "2"}]}]}},
               indent=1).encode(),
    b'<lexelt item="art.n">\n<instance id="art.n.1" docsrc="BNC">\n<context>\nModern '
    b"<head>art</head> &amp; old\n</context>\n</instance>\n</lexelt>\n",
    b"lexelt,instance,context,start,end\nart.n,1,\"a fine, art\",8,11\n",
    b"dataID\tcontext\tindices_target_token\tindices_target_sentence\tlemma\n"
    b"1\tx &amp; ordered y\t8:16\t0:20\torder.v\n",
]


REAL_SEEDS = ("senseval3/EnglishLS.sensemap", "senseval3/EnglishLS.dictionary.xml",
                "masc_amt/inventory_tree.tsv", "wsbest/inventory_tree.tsv",
                "senseval3/EnglishLS.test.gz", "wsbest/uses.tsv.gz")


ALL_SEEDS = SEEDS + real_seeds(REAL_SEEDS, 4000)
TOKENS = [b"\n", b"\t", b",", b";", b'"', b"  ", b"#", b"# lexelt x.n\n", b"<head>", b"</head>",
          b"<context>", b"</context>", b"</instance>", b"<instance id=\"z\">", b"<sense ",
          b"/>", b"{", b"}", b"[", b"]", b":", b"-1", b"0", b"NaN", b"inf", b"\x00", b"\xff",
          b"\r", b"\xef\xbb\xbf", b"&amp;", b"&#0;", b"\x01", b"\x02", b"lemma", b"9" * 30, b"9" * 5000]

mutation = mutations(TOKENS)


def check_all_readers(path: str) -> None:
    for fmt in (None, *INVENTORY_FORMATS):
        try:
            with bounded():
                src = read_inventory(path, format=fmt)
        except FormatError as exc:
            assert exc.problems and all(p.file == path for p in exc.problems)
            continue
        assert isinstance(src, InventorySource) and src.format in INVENTORY_FORMATS
        assert src.senses and all(r.sense and not any(c.isspace() for c in r.sense)
                                  for r in src.senses)
        assert all(clean_name(r.sense) and clean_name(r.lexelt or "") for r in src.senses)
    for fmt in (None, *CONTEXT_FORMATS):
        try:
            with bounded():
                ctx = read_contexts(path, format=fmt)
        except FormatError as exc:
            assert exc.problems
            continue
        assert isinstance(ctx, ContextSource) and ctx.contexts
        assert all(clean_name(c.instance) and not (set(c.text) & CONTROL_CHARS) for c in ctx.contexts)
        for c in ctx.contexts:
            if c.head is not None:
                assert 0 <= c.head[0] < c.head[1] <= len(c.text)
                assert c.text[c.head[0]:c.head[1]].strip() == c.text[c.head[0]:c.head[1]]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.sampled_from(ALL_SEEDS), ops=st.lists(mutation, min_size=0, max_size=6),
       compress=st.booleans())
def test_damaged_inputs_never_raise_anything_but_format_error(seed, ops, compress):
    data = mutate(seed, ops)
    if compress:
        data = gzip.compress(data)
    fd, path = tempfile.mkstemp(suffix=".dat")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        check_all_readers(path)
    finally:
        os.unlink(path)


def test_seeds_read_cleanly(tmp_path):
    expected = ["senseval-sensemap", "senseval-dictionary", "tree-table", "tree-table", "outline",
                "json", "senseval-xml", "table", "wsbest-uses"]
    for i, (seed, fmt) in enumerate(zip(SEEDS, expected)):
        p = tmp_path / f"seed{i}"
        p.write_bytes(seed)
        if fmt in CONTEXT_FORMATS:
            src = read_contexts(p)
            assert all(c.head for c in src.contexts)
        else:
            src = read_inventory(p)
        assert src.format == fmt and not [q for q in src.problems if q.severity == "error"]


def test_numbers_too_long_for_python_int(tmp_path):
    big = "9" * 5000
    cases = [
        (read_inventory, f"a {big} p\nb\n", "too large"),
        (read_inventory, f"lexelt\tsense\tbranching\na.n\t1\t{big}\n", "too large"),
        (read_contexts, f"lexelt,instance,context,start,end\na,1,xyz,0,{big}\n", "expected 'start:end'"),
        (read_contexts, "dataID\tcontext\tindices_target_token\tindices_target_sentence\tlemma\n"
                        f"1\txx\t0:{big}\t0:1\tl\n", "expected 'start:end'"),
    ]
    for i, (reader, text, expected) in enumerate(cases):
        p = tmp_path / f"big{i}"
        p.write_text(text)
        src = reader(p)
        msg = next(q.message for q in src.problems if expected in q.message)
        assert len(msg) < 300
