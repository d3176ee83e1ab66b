"""One palette for disagreement categories, annotation sets and value scales (no Qt).

The workbench table, the dashboard plots and the HTML report take their
colours from here, so that "disjoint" is the same red and annotator ``ben``
the same orange everywhere.  Every colour is a ``#rrggbb`` string; the GUI
wraps them in ``QColor``, the report writes them into SVG and CSS.

* Category colours come in three shades: ``light`` and ``dark`` are cell
  backgrounds for a light or dark theme (text drawn on them in the theme's
  text colour stays readable), ``strong`` is a mid-tone for bars and lines
  that reads on both backgrounds.
* Set colours are the Okabe-Ito palette (distinguishable with the common
  colour-vision deficiencies); every mid-tone reads on white and on a dark
  grey.  Black, the eighth Okabe-Ito colour, is replaced by a grey that stays
  visible on a dark background.
* :func:`scale_color` maps an agreement value to a colour of a diverging
  scale: below zero (worse than chance) orange to red, above zero light to
  dark blue; :func:`text_color_on` picks black or white text for a fill.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "CATEGORY_COLORS",
    "CATEGORY_KEYS",
    "GOLD_COLOR",
    "SET_COLORS",
    "CategoryColor",
    "category_color",
    "mix",
    "scale_color",
    "set_color",
    "text_color_on",
]


@dataclass(frozen=True)
class CategoryColor:
    name: str
    label: str
    light: str  # cell background, light theme
    dark: str  # cell background, dark theme
    strong: str  # bars and lines, both themes


#: Category code (as in :mod:`hieradjudicate.core.agreement.granularity`; -1 = fewer than two answers).
CATEGORY_COLORS: dict[int, CategoryColor] = {
    0: CategoryColor("identical", "identical", "#d4edd4", "#24492a", "#2e9d4a"),
    1: CategoryColor("compatible", "compatible (granularity only)", "#fff3b0", "#5c5520", "#c9a400"),
    2: CategoryColor("overlapping", "overlapping", "#f9dfb0", "#6a4b1c", "#e07b00"),
    3: CategoryColor("disjoint", "disjoint", "#f6c1c1", "#6b2a2a", "#d1352b"),
    -1: CategoryColor("single", "one answer only", "#e6e6e6", "#3a3a3a", "#8c8c8c"),
}
CATEGORY_KEYS = (0, 1, 2, 3)

SET_COLORS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#7f7f7f")
GOLD_COLOR = "#b8860b"


def category_color(code: int, shade: str = "strong") -> str:
    """Colour of a disagreement category; ``shade`` is ``light``, ``dark`` or ``strong``."""
    c = CATEGORY_COLORS.get(int(code), CATEGORY_COLORS[-1])
    return str(getattr(c, shade))


def set_color(k: int) -> str:
    """Colour of the ``k``-th annotation set (project order), cycling after eight."""
    return SET_COLORS[int(k) % len(SET_COLORS)]


def _rgb(color: str) -> tuple[int, int, int]:
    c = color.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


def mix(a: str, b: str, t: float) -> str:
    """Linear mix of two colours (``t = 0`` gives ``a``, ``t = 1`` gives ``b``)."""
    t = min(max(float(t), 0.0), 1.0)
    ra, rb = _rgb(a), _rgb(b)
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(ra, rb))


_POS = ("#eef4fa", "#9ecae1", "#3182bd", "#08306b")
_NEG = ("#fdf0e6", "#fdae6b", "#e6550d", "#a50f15")


def _ramp(stops: tuple[str, ...], t: float) -> str:
    t = min(max(t, 0.0), 1.0) * (len(stops) - 1)
    i = min(int(t), len(stops) - 2)
    return mix(stops[i], stops[i + 1], t - i)


def scale_color(value: float | None, lo: float = -1.0, hi: float = 1.0) -> str:
    """Fill colour of an agreement value on a diverging scale centred at 0.

    ``None`` (an undefined figure) is a neutral grey.  Values are clipped to
    ``[lo, hi]``; with ``lo >= 0`` the scale is the blue half only.
    """
    if value is None:
        return "#bdbdbd"
    v = float(value)
    if v >= 0:
        return _ramp(_POS, v / hi if hi > 0 else 0.0)
    return _ramp(_NEG, v / lo if lo < 0 else 0.0)


def text_color_on(fill: str) -> str:
    """Black or white, whichever contrasts more with ``fill`` (WCAG relative luminance)."""

    def lin(c: int) -> float:
        s = c / 255.0
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(c) for c in _rgb(fill))
    lum = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return "#000000" if (lum + 0.05) / 0.05 > 1.05 / (lum + 0.05) else "#ffffff"
