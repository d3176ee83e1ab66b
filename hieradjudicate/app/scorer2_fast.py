"""``score --policy fine|coarse|mixed`` on clean Senseval files, at the C ``scorer2``'s speed.

The strict route reads every file into an
:class:`~hieradjudicate.core.records.AnnotationSource` (a Python string per
instance id: 0.9 s and 296 MB for 394,400 answers against a key of as many
lines).  When the key and every answer file are *clean*
(:mod:`hieradjudicate.io.annotations.senseval_scan`), they are read as byte
ranges and joined byte for byte (an answer file in the key's order) or on hashes
confirmed byte for byte, and the same
:func:`~hieradjudicate.core.scoring.senseval.score_columns` scores them.  Anything
unusual -- a comment, a tab, a weight out of range, a duplicate, a hash
collision -- sends every file down the strict route, which reports it exactly.
Each file is read once, whole (the check that it is annotations at all reads the head of those
bytes, not the file again); one answer file is in memory at a time, and its bytes are dropped
once joined:
394,400 answers score in 0.77-0.93 times the C program's CPU time, in 125-127 MiB against its
94 MiB (``benchmarks/bench_score.py``, on a loaded machine).
"""

from __future__ import annotations

import numpy as np

from hieradjudicate.app.loading.specs import AnnotationSpec
from hieradjudicate.core.scoring.senseval import MAX_EXAMPLES, Labels, SenseMap, SensevalScore, score_columns
from hieradjudicate.io.annotations.senseval_scan import Scanned, align, read_clean_bytes, scan_senseval

_HEAD = 1 << 16  # what annotation_misfit reads of a file


def _plain(spec: AnnotationSpec) -> bool:
    return spec.format in (None, "senseval") and not spec.columns


def _scan(spec: AnnotationSpec) -> Scanned | None:
    """``spec``'s file read once and scanned; ``None`` when it is not clean Senseval annotations."""
    from hieradjudicate.app.loading.sniff import annotation_misfit
    from hieradjudicate.io.annotations.read import default_set_name

    data = read_clean_bytes(spec.path)
    if data is None or annotation_misfit(spec.path, head=bytes(data[:min(_HEAD, len(data) - 8)])) is not None:
        return None
    return scan_senseval(spec.path, spec.name or default_set_name(spec.path), data)


def scan_key(gold: AnnotationSpec, systems: list[AnnotationSpec]) -> Scanned | None:
    """The key read as clean Senseval when it and every answer file may be (Senseval, no
    column mapping); ``None`` sends every file to the strict reader."""
    if not systems or not all(_plain(s) for s in [gold, *systems]):
        return None
    return _scan(gold)


def score_file(key: Scanned, spec: AnnotationSpec, *, policy: str, sense_map: SenseMap | None,
               minimal: bool, shapes: list | None = None) -> tuple[str, SensevalScore] | None:
    """One answer file scanned, joined and scored, its bytes dropped before scoring; ``None``
    when it is not clean or cannot be joined exactly on hashes (the strict route decides).
    ``shapes`` gets the file's :class:`~hieradjudicate.app.loading.swap.Shape` (a swapped gold?)."""
    from hieradjudicate.app.loading.swap import Shape, multi_unweighted

    ans = _scan(spec)
    if ans is None:
        return None
    res = score_scanned(key, ans, policy=policy, sense_map=sense_map, minimal=minimal)
    if res is not None and shapes is not None:
        shapes.append(Shape(spec.path, None, multi_unweighted(ans.item, ans.weight, ans.n_items),
                            res.attempted == res.total, res.unknown_answers, res.total))
    return None if res is None else (ans.set_name, res)


def score_scanned(key: Scanned, ans: Scanned, *, policy: str, sense_map: SenseMap | None,
                  minimal: bool) -> SensevalScore | None:
    """:func:`~hieradjudicate.core.scoring.senseval.score_senseval`'s result for scanned files;
    ``None`` when they cannot be joined exactly on hashes (the strict route decides).
    ``ans`` keeps only its labels afterwards."""
    if policy != "fine" and sense_map is None:
        raise ValueError(f"the {policy} policy needs a sense map")
    joined = align(key, ans)
    if joined is None:
        return None
    klex, kidx, lexelts = joined
    # a clean file's unknown answers are the lines not in the key: name the first few now
    unknown = np.flatnonzero(kidx < 0)[:MAX_EXAMPLES]
    named = dict(zip(unknown.tolist(), zip(ans.lexelt_of(unknown), ans.instances(unknown))))
    ans.keep_labels_only()
    return score_columns(
        Labels(key.item, key.tag, None, key.tags, key.n_items),
        Labels(ans.item, ans.tag, ans.weight, ans.tags, ans.n_items),
        klex, kidx, lexelts, policy=policy, sense_map=sense_map, minimal=minimal,
        answers_path=ans.path, example=named.__getitem__)
