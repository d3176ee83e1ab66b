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
Each file is read once: the key whole (its bytes confirm every join) and scanned a block of
lines at a time; an answer file a block at a time, each block scanned, joined and its bytes
dropped (the check that a file is annotations at all reads the head of those bytes, not the file
again).  So the temporaries are a block's size and only the key's bytes and the labels stay:
394,400 answers against a key of as many lines score in 85 MiB against the C program's 93.7 MiB,
in 0.70-0.77 times its CPU time (``benchmarks/bench_score.py``, three runs on a machine at load
6-11, 2026-11-29).
"""

from __future__ import annotations

import numpy as np

from hieradjudicate.app.loading.specs import AnnotationSpec
from hieradjudicate.core.scoring.senseval import Labels, SenseMap, SensevalScore, score_columns
from hieradjudicate.io.annotations.senseval_scan import KeyIndex, Scanned, join_answers, read_clean_bytes, scan_senseval

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
               minimal: bool, shapes: list | None = None,
               answer_tags: list | None = None) -> tuple[str, SensevalScore] | None:
    """One answer file read, scanned and joined a block at a time (each block's bytes dropped once
    joined), then scored; ``None`` when it is not clean or cannot be joined exactly on hashes (the
    strict route decides).  ``shapes`` gets the file's
    :class:`~hieradjudicate.app.loading.swap.Shape` (a swapped gold?); ``answer_tags`` the answers'
    ``(tag codes per label, tag names)``."""
    from hieradjudicate.app.loading.sniff import annotation_misfit
    from hieradjudicate.app.loading.swap import Shape, multi_unweighted
    from hieradjudicate.io.annotations.read import default_set_name

    if policy != "fine" and sense_map is None:
        raise ValueError(f"the {policy} policy needs a sense map")
    if key.join_index is None:  # one per key, whatever the number of answer files
        key.join_index = KeyIndex(key)
    index = key.join_index
    ans = join_answers(spec.path, spec.name or default_set_name(spec.path), index,
                       lambda head: annotation_misfit(spec.path, head=head) is None)
    if ans is None:
        return None
    res = score_columns(
        Labels(key.item, key.tag, None, key.tags, key.n_items),
        Labels(ans.item, ans.tag, ans.weight, ans.tags, ans.n_items),
        index.klex, ans.kidx, index.lexelts, policy=policy, sense_map=sense_map, minimal=minimal,
        answers_path=ans.path, example=ans.unknown.__getitem__)
    if answer_tags is not None:
        answer_tags.append((ans.tag, ans.tags))
    if shapes is not None:
        shapes.append(Shape(spec.path, None, multi_unweighted(ans.item, ans.weight, ans.n_items),
                            res.attempted == res.total, res.unknown_answers, res.total))
    return ans.set_name, res
