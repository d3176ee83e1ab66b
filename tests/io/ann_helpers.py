"""Helpers of the annotation reader tests."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hieradjudicate.core.errors import FormatError
from hieradjudicate.core.records import AnnotationSource
from hieradjudicate.io.annotations.read import read_annotations


def write(tmp_path: Path, fname: str, content: str | bytes) -> Path:
    p = tmp_path / fname
    if isinstance(content, str):
        p.write_text(content, encoding="utf-8", newline="")
    else:
        p.write_bytes(content)
    return p


def read(tmp_path: Path, fname: str, content: str | bytes, **kw) -> AnnotationSource:
    return read_annotations(write(tmp_path, fname, content), **kw)


def fails(tmp_path: Path, fname: str, content: str | bytes, **kw) -> FormatError:
    with pytest.raises(FormatError) as info:
        read(tmp_path, fname, content, **kw)
    return info.value


def rows(src: AnnotationSource) -> list[tuple]:
    """(set, lexelt, instance, tag, weight or None, line) per label row."""
    out = []
    for s, i, t, w, ln in zip(src.set.tolist(), src.item.tolist(), src.tag.tolist(),
                              src.weight.tolist(), src.line.tolist()):
        out.append((src.set_names[s], src.item_lexelt[i], src.item_instance[i], src.tags[t],
                    None if np.isnan(w) else w, ln))
    return out


def check_invariants(src: AnnotationSource) -> None:
    """The AnnotationSource contract: aligned int64/float64 columns, valid codes, contiguous blocks."""
    n = src.n_labels
    for arr, dt in ((src.item, np.int64), (src.set, np.int64), (src.tag, np.int64),
                    (src.line, np.int64), (src.weight, np.float64)):
        assert arr.dtype == dt and arr.shape == (n,)
    assert len(src.item_lexelt) == len(src.item_instance)
    if n:
        assert src.item.min() >= 0 and src.item.max() < len(src.item_instance)
        assert src.set.min() >= 0 and src.set.max() < len(src.set_names)
        assert src.tag.min() >= 0 and src.tag.max() < len(src.tags)
        assert src.line.min() >= 1
        assert not (src.weight[~np.isnan(src.weight)] < 0).any()
        assert np.isfinite(src.weight[~np.isnan(src.weight)]).all()
        key = src.set * (len(src.item_instance) + 1) + src.item
        starts = np.r_[True, key[1:] != key[:-1]]
        assert len(set(key[starts].tolist())) == int(starts.sum()), "a (set, item) block is split"
    assert len(set(zip(src.item_lexelt, src.item_instance))) == len(src.item_instance)
    assert all(0 <= r < n for r in src.comments)
