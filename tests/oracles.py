"""Heavy peer implementations used as test oracles, installed by the ``oracles`` extra.

crowd-kit (Dawid & Skene, MACE) pulls in transformers and friends (most of a 1.2 GB
environment), so it is not in the ``test`` extra: ``pip install -e '.[test,oracles]'`` adds it.
Without it the tests that compare against it are skipped, saying so -- except where
``HIERADJ_REQUIRE_ORACLES=1`` (set by ``.ci/run``, which installs the extra): there a missing
oracle fails the test instead of skipping it, so CI never passes without comparing.
"""

from __future__ import annotations

import importlib
import os

import pytest

INSTALL = "pip install -e '.[test,oracles]'"


def oracle(module: str, package: str):
    """``module`` imported, or the test skipped (failed under ``HIERADJ_REQUIRE_ORACLES=1``)."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        why = f"{package} is the oracle of this test and is not installed ({INSTALL} adds it): {exc}"
        if os.environ.get("HIERADJ_REQUIRE_ORACLES") == "1":
            pytest.fail(why + "; HIERADJ_REQUIRE_ORACLES=1 requires it")
        pytest.skip(why)


def crowdkit():
    """``crowdkit.aggregation`` (the ``oracles`` extra)."""
    return oracle("crowdkit.aggregation", "crowd-kit")
