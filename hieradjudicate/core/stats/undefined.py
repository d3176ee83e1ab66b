"""Result types shared by the agreement metrics, with an explicit undefined policy.

A chance-corrected coefficient is undefined when its denominator vanishes
(``Pr(E) = 1`` for kappa, ``D_e = 0`` for alpha) or when there is nothing to
compute it on (no instance annotated by both raters).  Such a figure is
never shown as ``0``, ``NaN`` or an exception: it is an :class:`Estimate`
whose ``value`` is ``None`` and whose ``reason`` says why.  Arrays of
figures (the pairwise matrix) use :class:`numpy.ma.MaskedArray` with the
undefined cells masked, plus an integer array of reason codes
(:data:`REASONS` maps a code to its text).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: Reason codes for arrays of figures (0 = defined).
DEFINED = 0
NO_SHARED = 1
CHANCE_ONE = 2
SAME_RATER = 3
NO_DEFINED_LEXELT = 4
NO_PAIRABLE = 5
NO_EXPECTED_DISAGREEMENT = 6

REASONS: dict[int, str] = {
    NO_SHARED: "no instance annotated by both raters",
    CHANCE_ONE: "chance agreement Pr(E) = 1 (a single category in use), kappa is 0/0",
    SAME_RATER: "a rater compared with itself",
    NO_DEFINED_LEXELT: "no lexelt with a defined figure to average",
    NO_PAIRABLE: "no instance with at least two annotations",
    NO_EXPECTED_DISAGREEMENT: "expected disagreement D_e = 0 (a single category in use), alpha is 0/0",
}

#: ``1 - Pr(E)`` (or ``D_e``) at or below this is treated as zero: the figure is undefined.
ZERO_TOL = 1e-12


@dataclass(frozen=True)
class Estimate:
    """A figure that may be undefined.

    Attributes
    ----------
    value : float or None
        The figure, or ``None`` when it is undefined.
    reason : str or None
        Why the figure is undefined (``None`` when it is defined).
    n : int
        How many units it was computed over (instances, or lexelts for a
        macro mean).
    """

    value: float | None
    reason: str | None = None
    n: int = 0

    @property
    def defined(self) -> bool:
        return self.value is not None

    def __str__(self) -> str:
        return f"{self.value:.4f}" if self.value is not None else f"undefined ({self.reason})"

    @classmethod
    def undefined(cls, code: int, n: int = 0) -> Estimate:
        return cls(None, REASONS[code], n)


@dataclass(frozen=True)
class Agreement:
    """Observed agreement, chance agreement and the chance-corrected coefficient.

    ``observed`` and ``expected`` are ``None`` only when there was no
    instance to compute them on; ``kappa`` carries its own undefined policy.
    """

    observed: float | None
    expected: float | None
    kappa: Estimate
    n: int


def chance_corrected(observed: float | None, expected: float | None, n: int) -> Agreement:
    """``(Pr(A) - Pr(E)) / (1 - Pr(E))`` with the undefined policy applied."""
    if n == 0 or observed is None or expected is None:
        return Agreement(None, None, Estimate.undefined(NO_SHARED, 0), 0)
    if 1.0 - expected <= ZERO_TOL:
        return Agreement(observed, expected, Estimate.undefined(CHANCE_ONE, n), n)
    return Agreement(observed, expected, Estimate((observed - expected) / (1.0 - expected), None, n), n)


def macro_mean(values: list[Estimate]) -> Estimate:
    """Unweighted mean of the defined estimates; ``n`` = how many were averaged."""
    ok = [v.value for v in values if v.value is not None]
    if not ok:
        return Estimate.undefined(NO_DEFINED_LEXELT, 0)
    return Estimate(float(np.mean(ok)), None, len(ok))


def masked(values: np.ndarray, codes: np.ndarray) -> np.ma.MaskedArray:
    """A masked array of ``values`` with every cell whose reason code is not 0 masked."""
    out = np.where(codes == DEFINED, values, 0.0)
    return np.ma.MaskedArray(out, mask=codes != DEFINED)
