"""``score --policy fine|coarse|mixed`` on clean Senseval files, at the C ``scorer2``'s speed.

The strict route reads every file into an
:class:`~hieradjudicate.core.records.AnnotationSource` (a Python string per
instance id: 0.9 s and 296 MB for 394,400 answers against a key of as many
lines).  When the key and every answer file are *clean*
(:mod:`hieradjudicate.io.annotations.senseval_scan`), they are read as byte
ranges and joined on hashes confirmed byte for byte, and the same
:func:`~hieradjudicate.core.senseval.score_columns` scores them.  Anything
unusual -- a comment, a tab, a weight out of range, a duplicate, a hash
collision -- sends every file down the strict route, which reports it exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

from hieradjudicate.app.loading.specs import AnnotationSpec
from hieradjudicate.core.senseval import Labels, SenseMap, SensevalScore, score_columns
from hieradjudicate.io.annotations.senseval_scan import Scanned, align, scan_senseval


@dataclass
class ScannedInputs:
    key: Scanned
    answers: list[tuple[AnnotationSpec, Scanned]]


def _plain(spec: AnnotationSpec) -> bool:
    from hieradjudicate.app.loading.sniff import annotation_misfit

    return spec.format in (None, "senseval") and not spec.columns and annotation_misfit(spec.path) is None


def scan_inputs(gold: AnnotationSpec, systems: list[AnnotationSpec]) -> ScannedInputs | None:
    """Every file read as clean Senseval, or ``None`` (then the strict reader reads them all)."""
    from hieradjudicate.io.annotations.read import default_set_name

    if not systems or not all(_plain(s) for s in [gold, *systems]):
        return None
    key = scan_senseval(gold.path, gold.name or default_set_name(gold.path))
    if key is None:
        return None
    answers = []
    for spec in systems:
        ans = scan_senseval(spec.path, spec.name or default_set_name(spec.path))
        if ans is None:
            return None
        answers.append((spec, ans))
    return ScannedInputs(key, answers)


def score_scanned(key: Scanned, ans: Scanned, *, policy: str, sense_map: SenseMap | None,
                  minimal: bool) -> SensevalScore | None:
    """:func:`~hieradjudicate.core.senseval.score_senseval`'s result for scanned files;
    ``None`` when they cannot be joined exactly on hashes (the strict route decides)."""
    if policy != "fine" and sense_map is None:
        raise ValueError(f"the {policy} policy needs a sense map")
    joined = align(key, ans)
    if joined is None:
        return None
    klex, kidx, lexelts = joined
    return score_columns(
        Labels(key.item, key.tag, None, key.tags, key.n_items),
        Labels(ans.item, ans.tag, ans.weight, ans.tags, ans.n_items),
        klex, kidx, lexelts, policy=policy, sense_map=sense_map, minimal=minimal,
        answers_path=ans.path, example=lambda i: (ans.lexelt_of([i])[0], ans.instances([i])[0]))
