"""Colours of disagreement categories and annotation sets, for light and dark palettes."""

from __future__ import annotations

from PySide6.QtGui import QBrush, QColor, QPalette
from PySide6.QtWidgets import QApplication

# category code -> (light background, dark background); -1 = a single annotator
_CATEGORY = {
    3: ("#f6c1c1", "#6b2a2a"),  # disjoint: red
    2: ("#f9dfb0", "#6a4b1c"),  # overlapping: orange
    1: ("#fff3b0", "#5c5520"),  # compatible (granularity only): yellow
    0: ("#d4edd4", "#24492a"),  # identical: green
    -1: ("#e6e6e6", "#3a3a3a"),  # one answer only: grey
}
# Okabe-Ito, distinguishable with the common colour-vision deficiencies
SET_COLORS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"]
GOLD = "#b8860b"
#: the tags a flagged instance holds (its decision, not gold until unflagged): grey, never gold
HELD = "#7a7a9a"
HELD_TIP = "Held under the flag: the decision you made, not gold until you unflag it (F)"
HEAD_LIGHT, HEAD_DARK = "#ffe066", "#8a6d00"


def is_dark() -> bool:
    app = QApplication.instance()
    if app is None:
        return False
    return app.palette().color(QPalette.ColorRole.Window).lightness() < 128


def category_color(code: int) -> QColor:
    light, dark = _CATEGORY.get(int(code), _CATEGORY[-1])
    return QColor(dark if is_dark() else light)


def category_brushes() -> dict[int, QBrush]:
    """One brush per category, made once (table models hand them out for every cell)."""
    return {c: QBrush(category_color(c)) for c in _CATEGORY}


def set_color(k: int) -> QColor:
    return QColor(SET_COLORS[k % len(SET_COLORS)])


def head_color() -> str:
    return HEAD_DARK if is_dark() else HEAD_LIGHT
