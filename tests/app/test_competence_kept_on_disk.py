"""The window's competence estimate is kept on disk: the same labels under the same model and stopping rule
are read back (the same figures to the bit, and said to be kept) instead of estimated again; other labels,
another model or stopping rule, other code, a damaged file or the cache turned off make a fresh estimate."""

from __future__ import annotations

import numpy as np
import pytest

from hieradjudicate.app.dashboard import competence_cache as cache
from hieradjudicate.app.dashboard.competence import estimate
from hieradjudicate.app.session.session import Session
from tests.crowd import crowd_project

FIGURES = ("competence", "stderr", "n_labels", "entropy", "best_node", "best_posterior", "hist_counts", "posterior")


@pytest.fixture(scope="module")
def corpora(tmp_path_factory):
    out = []
    for seed in (4, 5):
        path = crowd_project(tmp_path_factory.mktemp("kept") / "c.hadj", 30, per_item=7, seed=seed)
        with Session.open(path, read_only=True) as s:
            out.append(s.corpus)
    return out


@pytest.fixture
def kept(tmp_path, monkeypatch):
    monkeypatch.delenv("HIERADJ_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(cache, "MIN_SECONDS", 0.0)  # the test's small crowd is quick: keep it all the same
    return tmp_path / "cache" / "hieradjudicate" / "competence"


def _fits(monkeypatch) -> list[str]:
    """The models actually fitted from here on (a kept estimate fits none)."""
    import hieradjudicate.core.crowd.competence as ds
    from hieradjudicate.core.crowd import mace

    calls: list[str] = []
    for mod, name in ((ds, "dawid_skene"), (mace, "mace")):
        real = getattr(mod, name)
        monkeypatch.setattr(mod, name, lambda *a, _real=real, _name=name, **k: (calls.append(_name), _real(*a, **k))[1])
    return calls


def _same(a, b) -> None:
    for f in FIGURES:
        assert np.array_equal(getattr(a, f), getattr(b, f), equal_nan=True), f
    assert (a.iterations, a.converged, a.unconverged, a.fitted) == (b.iterations, b.converged, b.unconverged, b.fitted)


def test_the_same_labels_are_read_back_to_the_bit_and_said_to_be_kept(corpora, kept, monkeypatch) -> None:
    calls = _fits(monkeypatch)
    made = estimate(corpora[0], keep=True)
    assert calls == ["dawid_skene"] and not made.kept and len(list(kept.glob("*.npz"))) == 1
    again = estimate(corpora[0], keep=True)
    assert calls == ["dawid_skene"]  # read, not fitted
    _same(made, again)
    assert again.kept and again.seconds == pytest.approx(made.seconds, abs=1e-6)
    assert "kept since, the same labels" in again.explain.note and "kept" not in made.explain.note
    assert not estimate(corpora[0]).kept and calls == ["dawid_skene"] * 2  # without keep: always made


def test_other_labels_model_or_stopping_rule_are_estimated_afresh(corpora, kept, monkeypatch) -> None:
    calls = _fits(monkeypatch)
    estimate(corpora[0], keep=True)
    assert not estimate(corpora[1], keep=True).kept
    assert not estimate(corpora[0], keep=True, model="mace").kept
    assert not estimate(corpora[0], keep=True, tol=1e-6).kept
    assert not estimate(corpora[0], keep=True, sets=[0, 1, 2, 3, 4, 5]).kept
    assert calls == ["dawid_skene", "dawid_skene", "mace", "dawid_skene", "dawid_skene"]
    assert len(list(kept.glob("*.npz"))) == 5
    assert estimate(corpora[0], keep=True, model="mace").kept and len(calls) == 5


def test_changed_code_never_reads_an_old_estimate(corpora, kept, monkeypatch) -> None:
    calls = _fits(monkeypatch)
    estimate(corpora[0], keep=True)
    monkeypatch.setattr(cache, "_code_digest", lambda: "another algorithm")
    assert not estimate(corpora[0], keep=True).kept and len(calls) == 2


@pytest.mark.parametrize("damage", ["cut", "garbage", "empty", "other layout"])
def test_a_damaged_file_is_estimated_again_with_the_same_figures(corpora, kept, monkeypatch, damage) -> None:
    made = estimate(corpora[0], keep=True)
    (path,) = kept.glob("*.npz")
    data = path.read_bytes()
    if damage == "cut":
        path.write_bytes(data[:len(data) // 2])
    elif damage == "garbage":
        path.write_bytes(b"\x93NUMPY" + bytes(range(256)) * 4)
    elif damage == "empty":
        path.write_bytes(b"")
    else:
        monkeypatch.setattr(cache, "LAYOUT", cache.LAYOUT + 1)
    calls = _fits(monkeypatch)
    again = estimate(corpora[0], keep=True)
    assert calls == ["dawid_skene"] and not again.kept
    _same(made, again)


def test_nothing_is_kept_when_the_cache_is_off_quick_or_unwritable(corpora, kept, monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("HIERADJ_NO_CACHE", "1")
    estimate(corpora[0], keep=True)
    assert not kept.exists()
    monkeypatch.delenv("HIERADJ_NO_CACHE")
    monkeypatch.setattr(cache, "MIN_SECONDS", 3600.0)  # quicker than that: made each time
    estimate(corpora[0], keep=True)
    assert not list(kept.glob("*.npz")) if kept.exists() else True
    monkeypatch.setattr(cache, "MIN_SECONDS", 0.0)
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))  # the folder cannot be made: the estimate still comes
    assert not estimate(corpora[0], keep=True).kept


def test_the_folder_keeps_the_most_recently_used_within_its_size(corpora, kept, monkeypatch) -> None:
    estimate(corpora[0], keep=True)
    (first,) = kept.glob("*.npz")
    monkeypatch.setattr(cache, "MAX_BYTES", first.stat().st_size + 10)  # room for about one
    import os
    os.utime(first, (1, 1))  # long unused
    estimate(corpora[1], keep=True)
    left = list(kept.glob("*.npz"))
    assert len(left) == 1 and left[0] != first
