"""A project opened again shows its competence estimate at once: the window keeps the estimate of the same
labels on disk (app.dashboard.competence_cache), reads it back with the same figures, and says it was kept
and how long it took when it was made."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hieradjudicate.app.dashboard import competence_cache as cache
from tests.crowd import crowd_project
from tests.gui.test_competence_progress import _close, _open


@pytest.fixture
def crowd9(tmp_path) -> Path:
    return crowd_project(tmp_path / "crowd9.hadj", 9, seed=2)


def test_the_estimate_made_once_is_shown_at_once_when_the_project_opens_again(qtbot, private_dirs, crowd9,
                                                                               monkeypatch) -> None:
    monkeypatch.delenv("HIERADJ_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(private_dirs / "cache"))
    monkeypatch.setattr(cache, "MIN_SECONDS", 0.0)  # the test's crowd is quick: keep it all the same
    w, said = _open(qtbot, crowd9, monkeypatch)
    qtbot.waitUntil(lambda: w.wb.competence is not None, timeout=600_000)
    first = w.wb.competence
    status = w.dashboard.view.competence_panel.status.text()
    assert not first.kept and "kept since" not in status
    assert any("iteration" in t for t in said)  # estimated: its iterations were told
    _close(w)

    w, said = _open(qtbot, crowd9, monkeypatch)
    qtbot.waitUntil(lambda: w.wb.competence is not None, timeout=600_000)
    again = w.wb.competence
    assert again.kept and not any("iteration" in t for t in said)  # read back, no EM run
    assert np.array_equal(again.competence, first.competence) and np.array_equal(again.entropy, first.entropy,
                                                                                    equal_nan=True)
    status = w.dashboard.view.competence_panel.status.text()
    assert f"in {first.seconds:.1f} s (when first made; kept since, the same labels)." in status
    _close(w)
