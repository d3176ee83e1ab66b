"""The Timeline's time axis: the x values are days since the first event, the ticks say how long in
the unit that reads (``40 s``, ``15 min``, ``6 h``, ``3 d``).  A project a few minutes old spans
thousandths of a day: pyqtgraph's own axis then wrote ``0 … 800`` and ``(x1e-06)`` beside "days"."""

from __future__ import annotations

import pyqtgraph as pg

#: (days per unit, its name), the largest first
UNITS = ((1.0, "d"), (1 / 24, "h"), (1 / 1440, "min"), (1 / 86400, "s"))


def unit_for(spacing_days: float) -> tuple[float, str]:
    """The largest unit of which the tick spacing is at least one."""
    return next(((size, name) for size, name in UNITS if spacing_days >= size * 0.999), UNITS[-1])


class TimeAxis(pg.AxisItem):
    """A bottom axis in days whose ticks carry their unit; no SI prefix."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.enableAutoSIPrefix(False)
        self.unit: tuple[float, str] | None = None  # the unit of the range shown (see tickSpacing)

    def tickSpacing(self, minVal, maxVal, size):  # noqa: N802 (pyqtgraph's names)
        # round steps in the unit the range reads in (1, 2, 5 min; not 2.88 min, a power of ten of days)
        self.unit = unit_for((maxVal - minVal) / 4)
        u = self.unit[0]
        return [(step * u, offset * u) for step, offset in super().tickSpacing(minVal / u, maxVal / u, size)]

    def tickStrings(self, values, scale, spacing):  # noqa: N802 (pyqtgraph's name)
        size, name = self.unit or unit_for(spacing * scale)
        return ["0" if abs(v) < 1e-12 else f"{v * scale / size:.6g} {name}" for v in values]
