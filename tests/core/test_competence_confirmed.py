"""Dawid & Skene says *converged* only on a point a probe came back to.

A run that settles is restarted from its posteriors with a little noise (a probe); a probe that
escapes to a higher log-likelihood is followed, and the new point is probed again, until a probe comes
back.  ``max_iter`` bounds the EM steps of the first run and of every probe together: a fit that
reaches it after an escape, before a probe came back, is not converged, with no distance estimate
(infinite: the CLI's JSON says null) and every step counted in its iterations.

The synthetic crowd has a saddle where EM starts: workers 0 and 1 always give the true leaf, 2 and 3
always the other, so every instance has two votes for each leaf, the majority vote is uniform and EM
stays there (a fixed point with every move 0); a probe leaves it for the point where 0 and 1 are right,
and a probe from there comes back.
"""

from __future__ import annotations

import numpy as np
import pytest

from hieradjudicate.core.crowd.competence import dawid_skene
from tests.conftest import skip_without_realdata


def _saddle(n: int = 200):
    z = np.random.default_rng(1).integers(0, 2, n)
    inst = np.repeat(np.arange(n), 4)
    rater = np.tile(np.arange(4), n)
    leaf = np.where(rater < 2, z[inst], 1 - z[inst])
    return (inst, rater, None, np.zeros(n, np.int64), np.array([2])), {"leaf": leaf, "K": 2}


@pytest.mark.parametrize("accelerate", [True, False])
def test_a_run_on_a_saddle_is_converged_only_after_a_probe_comes_back_from_where_it_escaped(accelerate) -> None:
    args, kw = _saddle()
    res = dawid_skene(*args, **kw, accelerate=accelerate)
    (part,) = res.runs
    # the first run settles on the saddle, a probe escapes to a higher log-likelihood, the next comes back
    assert part.escaped == (False, True, False)
    assert part.loglik[1] > part.loglik[0] + 100 and part.loglik[2] == pytest.approx(part.loglik[1], abs=1e-6)
    assert res.converged and res.distance < 1e-7
    assert res.iterations == part.steps[1]  # the figures are the escaped run's, which the last probe confirmed
    np.testing.assert_allclose(res.accuracy, [1.0, 1.0, 0.0, 0.0], atol=1e-9)


@pytest.mark.parametrize("accelerate", [True, False])
def test_the_bound_reached_after_an_escape_before_a_probe_came_back_is_not_converged(accelerate) -> None:
    args, kw = _saddle()
    full = dawid_skene(*args, **kw, accelerate=accelerate).runs[0].steps
    # the bound reached in the escaping probe, at its end, or in the confirming probe
    for max_iter in (full[0] + 2, *(full[0] + full[1] + k for k in range(full[2]))):
        res = dawid_skene(*args, **kw, accelerate=accelerate, max_iter=max_iter)
        (part,) = res.runs
        assert part.escaped[:2] == ((False, True) if max_iter >= full[0] + full[1] else (False, False))
        assert not res.converged, f"called converged at max_iter={max_iter} before a probe came back"
        assert res.distance == float("inf")  # no fixed point confirmed: no estimate of the distance to it
        assert res.iterations == sum(part.steps) == max_iter  # every step counted, probes included
    res = dawid_skene(*args, **kw, accelerate=accelerate, max_iter=sum(full))
    assert res.converged  # the same steps, the bound not reached first


def test_masc_high_j_is_converged_only_once_a_probe_comes_back_after_its_many_escapes() -> None:
    skip_without_realdata("masc_amt")
    from tests.core.fixed_point.make_reference import masc_word

    inst, rater, leaf, c = masc_word("high-j")
    args = (inst, rater, None, c.inst_lexelt, c.inventory.n_leaves)
    res = dawid_skene(*args, leaf=leaf, K=c.inventory.K)
    (part,) = res.runs
    assert res.converged and not part.escaped[-1]  # the last probe came back
    assert sum(part.escaped) > 3  # more escapes than the three probes that once ended every fit
    left = part.loglik[0]
    for ll, escaped in zip(part.loglik[1:], part.escaped[1:], strict=True):
        if escaped:
            assert ll > left
            left = ll
    # bounded just after its fourth escape: not converged, its distance unknown
    at = [k for k, e in enumerate(part.escaped) if e][3]
    cut = dawid_skene(*args, leaf=leaf, K=c.inventory.K, max_iter=sum(part.steps[:at + 1]) + 3)
    assert not cut.converged and cut.distance == float("inf")
