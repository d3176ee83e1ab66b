"""EM that has reached its fixed point and steps back and forth by a unit in the last place is converged.

The stopping rule estimates the distance from the fixed point as ``step / (1 - rate)``, the rate being
the largest of the last ratios of successive plain steps, and a rate of 1 means "creeping, not
converged".  Evaluated in floating point, the EM map at its fixed point moves the parameters by a
rounding: MASC number-n ends a probe stepping by 1.1e-16 each way, two steps of ratio exactly 1, and on
a machine whose ``exp`` and ``log`` round otherwise (AVX-512) that probe ran 4,600 steps to its bound
and the whole estimate said "not converged".  A step at the rounding floor counts as a step of 0 (a
ratio of 0), and a run that really creeps (ratio 1 above the floor) stays not converged.
"""

from __future__ import annotations

import numpy as np

from hieradjudicate.core.crowd.squarem import FLOOR, Distance, plain_em, squarem

TARGET = np.array([0.25, 0.75, 0.6, 0.4])
ULP = float(np.spacing(0.75))


def _ulp_cycle_map():
    """A contraction towards TARGET (rate 0.5) that, once within 4e-15 of it, steps by one unit in the
    last place each way (the last bits of a floating-point EM map at its fixed point): before the cycle
    every step's estimate is above 8e-15, so with ``tol=1e-15`` only the cycle's steps can end the run."""
    flip = [1.0]

    def e_step(theta):
        return [theta.copy()], -float(((theta - TARGET) ** 2).sum())

    def m_step(posts):
        new = TARGET + 0.5 * (posts[0] - TARGET)
        if np.abs(new - TARGET).max() <= 4e-15:
            flip[0] = -flip[0]
            new = TARGET.copy()
            new[1] += flip[0] * ULP
        return new

    return e_step, m_step


def test_steps_at_the_rounding_floor_count_as_steps_of_zero() -> None:
    bound = Distance()
    assert bound(1e-6, 5e-7, 5e-7) == 5e-7 / 0.5
    # one unit each way: a ratio of exactly 1, which is rounding, not creeping
    assert bound(ULP, ULP, ULP) == ULP / 0.5
    assert bound.rates == [0.5, 0.0]


def test_a_rate_above_one_before_the_floor_leaves_after_five_steps_at_the_floor() -> None:
    bound = Distance()
    assert bound(1e-6, 2e-6, 2e-6) == float("inf")  # an extrapolated cycle's steps grew
    dists = [bound(ULP, ULP, ULP) for _ in range(5)]
    assert dists[:4] == [float("inf")] * 4 and dists[4] == ULP


def test_a_run_that_creeps_above_the_floor_is_not_converged() -> None:
    bound = Distance()
    bound(1e-6, 5e-7, 5e-7)
    assert bound(1e-9, 1e-9, 1e-9) == float("inf")
    assert 1e-9 > FLOOR


def test_a_run_at_its_fixed_point_from_the_start_is_converged() -> None:
    assert Distance()(ULP, ULP, 0.0) == ULP


def test_em_ending_in_a_one_unit_cycle_is_converged_plain_and_accelerated() -> None:
    for run in (plain_em, squarem):
        e_step, m_step = _ulp_cycle_map()
        fit = run(e_step, m_step, np.array([0.5, 0.5, 0.5, 0.5]), max_iter=500, tol=1e-15, min_iter=5)
        assert fit.converged, run.__name__
        assert fit.iterations < 200, (run.__name__, fit.iterations)
        assert np.abs(fit.theta - TARGET).max() <= 2 * ULP
