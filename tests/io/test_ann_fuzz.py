"""Property test: damaged annotation files give a source or a FormatError, never another exception."""

from __future__ import annotations

import gzip
import json
import os
import tempfile

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hieradjudicate.core.errors import FormatError
from hieradjudicate.core.records import AnnotationSource
from hieradjudicate.io.annotations.read import FORMATS, read_annotations
from tests.io.ann_helpers import check_invariants
from tests.io.mutations import bounded, clean_name, mutate, mutations, real_seeds

SEEDS: list[bytes] = [
    b"art.n art.n.1 art%1:06:00:: U\nart.n art.n.2 1/0.6 2/0.4 !! note\nart.n art.n.3 3\nart.n art.n.1 4\n",
    b"lexelt,instance,annotator,tag,weight\nart.n,1,A,x,\nart.n,1,B,y,0.5\nart.n,2,A,\"z\",1\n",
    b"lexelt\tinstance\tA\tB\nart.n\t1\tx;y\t\nart.n\t2\t\tz\n",
    b"item_id\tlemma\tannotator_id\tselected_sense_keys\n1151\taccount.n\tA\tk1\n1151\taccount.n\tC\tk0;k1\n",
    b"word_pos\tform_id\tsentence_id\tlabels\nadd-v\t2\t1\t1:4,3:4,4:1\nadd-v\t3\t1\t1:0,5:2\n",
    (json.dumps({"lexelt": "a", "instance": "1", "set": "A", "tags": [{"tag": "x", "weight": 0.5}]})
     + "\n" + json.dumps({"lexelt": "a", "instance": "2", "tags": ["y"]}) + "\n").encode(),
    b"d000.s000.t000 document%1:10:00::\nd000.s000.t001 summary%1:10:00:: summary%1:10:01::\n"
    b"d000.s000.t002 absurd%5:00:00:foolish:00\n",
]


REAL_SEEDS = ("senseval3/EnglishLS.test.key", "senseval3/answers/ens_mixedbag.txt",
                "senseval3/answers/ens_overweight.txt", "masc_amt/masc_amt_labels_wide.tsv.gz",
                "wsbest/wsbest_selected_senses_per_annotator.tsv", "wsdeval/semeval2015.gold.key.txt")


ALL_SEEDS = SEEDS + real_seeds(REAL_SEEDS, 3000)
TOKENS = [b"\n", b"\t", b",", b";", b":", b'"', b" ", b"  ", b"/", b"//", b"!!", b"{", b"}", b"[", b"]",
          b"-1", b"/-1", b"/nan", b"/inf", b"/1e999", b"NaN", b"\x00", b"\xff", b"\r", b"\xef\xbb\xbf",
          b"\x0b", b"\x1c", b"\xc2\xa0", b"\xc2\x85", b"9" * 400, b'"tags": 5', b'"weight": true',
          b"lexelt,instance,annotator,tag\n", b"word_pos\tform_id\tsentence_id\tlabels\n"]

mutation = mutations(TOKENS)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.sampled_from(ALL_SEEDS), ops=st.lists(mutation, min_size=0, max_size=6),
       compress=st.booleans(), fmt=st.sampled_from([None, None, None, *FORMATS]))
def test_damaged_annotation_files_give_a_source_or_a_format_error(seed, ops, compress, fmt):
    data = mutate(seed, ops)
    if compress:
        data = gzip.compress(data)
    fd, path = tempfile.mkstemp(suffix=".dat")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        try:
            with bounded():
                src = read_annotations(path, format=fmt)
        except FormatError as exc:
            assert exc.problems and "internal error" not in str(exc)
            return
        assert isinstance(src, AnnotationSource) and src.n_labels > 0
        assert fmt is None or src.format == fmt
        check_invariants(src)
        assert all(map(clean_name, src.tags)) and all(map(clean_name, src.item_instance))
        assert all(map(clean_name, src.item_lexelt)) and all(map(clean_name, src.set_names))
        assert all(p.file == path and (p.line is None or p.line >= 1) for p in src.problems)
    finally:
        os.unlink(path)
