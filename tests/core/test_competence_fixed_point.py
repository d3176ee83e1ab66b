"""#36 item 2: a run that says "converged" is at the fixed point (MASC, against stored tight runs).

tests/core/fixed_point/reference.json holds Dawid & Skene on MASC ``say-v`` and MACE on ``know-v``
run with ``tol=1e-12`` (tests/core/fixed_point/make_reference.py wrote it).  The default run must
give every instance the same most probable leaf and be within 1e-6 of those figures; before,
Dawid & Skene said converged on a saddle's plateau of say-v (31 instances on another sense) and
MACE stopped while its figures still moved by more than its tolerance.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from hieradjudicate.core.crowd.competence import dawid_skene
from hieradjudicate.core.crowd.mace import mace
from tests.core.fixed_point.make_reference import masc_word
from tests.conftest import skip_without_realdata

REF = json.loads((Path(__file__).parent / "fixed_point" / "reference.json").read_text(encoding="utf-8"))


def _check(res, c, ref: dict) -> None:
    x = c.inventory.lexelts.index(ref["word"])
    names = [c.inventory.label(int(v)) for v in c.inventory.lexelt_leaf_nodes[x]]
    assert names == ref["leaves"]
    keys = [c.instance_key(int(t))[1] for t in res.tasks]
    best = [names[int(b)] for b in res.posterior[:, :len(names)].argmax(axis=1)]
    changed = [k for k, b in zip(keys, best, strict=True) if ref["best"][k] != b]
    assert changed == [], f"{len(changed)} instance(s) on another sense than at the fixed point"
    row = {k: t for t, k in enumerate(keys)}
    post = np.array([res.posterior[row[k], :len(names)] for k in ref["uncertain"]])
    assert np.abs(post - np.array(list(ref["uncertain"].values()))).max() < 1e-6
    comp = {c.sets[int(w)].name: a for w, a in zip(res.workers, res.accuracy, strict=True)}
    assert comp.keys() == ref["competence"].keys()
    assert max(abs(comp[k] - v) for k, v in ref["competence"].items()) < 1e-6


@pytest.fixture(scope="module")
def say_v():
    skip_without_realdata("masc_amt")
    return masc_word("say-v")


def test_dawid_skene_default_run_is_at_the_fixed_point_of_masc_say_v(say_v) -> None:
    inst, rater, leaf, c = say_v
    res = dawid_skene(inst, rater, None, c.inst_lexelt, c.inventory.n_leaves, leaf=leaf, K=c.inventory.K)
    assert res.converged and res.distance < 1e-6
    _check(res, c, REF["ds"])


def test_the_work_record_of_masc_say_v_shows_probes_escaping_to_higher_likelihoods(say_v) -> None:
    inst, rater, leaf, c = say_v
    res = dawid_skene(inst, rater, None, c.inst_lexelt, c.inventory.n_leaves, leaf=leaf, K=c.inventory.K)
    (part,) = res.runs
    assert part.lexelts == (c.inventory.lexelts.index("say-v"),) and part.labels == len(inst)
    assert sum(part.steps) == pytest.approx(res.passes)  # one part: its steps are the passes
    assert not part.escaped[0] and any(part.escaped)  # say-v's first run ends on a saddle's plateau
    left = part.loglik[0]  # the run the fit stands on
    for ll, escaped in zip(part.loglik[1:], part.escaped[1:], strict=True):
        if escaped:  # the fit goes on from a probe only where it found a higher log-likelihood
            assert ll > left
            left = ll


def test_dawid_skene_plain_em_reaches_the_same_fixed_point(say_v) -> None:
    inst, rater, leaf, c = say_v
    res = dawid_skene(inst, rater, None, c.inst_lexelt, c.inventory.n_leaves, leaf=leaf, K=c.inventory.K,
                      accelerate=False, max_iter=20000)
    assert res.converged
    _check(res, c, REF["ds"])


def test_mace_default_run_is_at_the_fixed_point_of_masc_know_v() -> None:
    skip_without_realdata("masc_amt")
    inst, rater, leaf, c = masc_word("know-v")
    res = mace(inst, rater, None, c.inst_lexelt, c.inventory.n_leaves, leaf=leaf, K=c.inventory.K,
               max_iter=20000)
    assert res.converged and res.distance < 1e-6
    _check(res, c, REF["mace"])
