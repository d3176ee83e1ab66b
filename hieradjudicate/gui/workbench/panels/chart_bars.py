"""The instance chart's bar items: pyqtgraph's, with their bounding rectangle kept between Qt's questions.

Qt asks a graphics item its bounding rectangle several times for one drawing (the exposed items, their
paint, the scene's index after a change).  pyqtgraph's ``BarGraphItem`` pads it by half a pixel, the
pixel measured each time through the view's transform (a device transform, its inverse and new
``Point`` objects, in Python): on MASC some ten such questions an N key, about 0.4 ms of its ~11 ms.
:class:`ChartBars` answers from the rectangle it last computed while what it depends on stays: the
bars' extent (``_dataBounds``, new at every ``setOpts`` that moves them), the pen's width, the view's
transform (a range or size change calls :meth:`viewTransformChanged`) and the view widget's scale.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QRectF


class ChartBars(pg.BarGraphItem):
    """A ``pg.BarGraphItem`` whose :meth:`boundingRect` is computed once per extent, pen and view scale."""

    def __init__(self, **opts) -> None:
        self._bounds_held: tuple | None = None  # (what the rectangle depends on, the rectangle)
        self._transforms = 0  # the view's transform changes seen (see viewTransformChanged)
        super().__init__(**opts)

    def viewTransformChanged(self) -> None:  # noqa: N802 (pyqtgraph's name)
        super().viewTransformChanged()
        self._transforms += 1

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt's name)
        view = self.getViewWidget()
        vt = view.viewportTransform() if view is not None else None
        key = (self._dataBounds, self._penWidth[1], self._transforms,
               None if vt is None else (vt.m11(), vt.m12(), vt.m21(), vt.m22()))
        held = self._bounds_held
        if held is not None and held[0] == key:
            return QRectF(held[1])
        rect = super().boundingRect()
        self._bounds_held = (key, QRectF(rect))
        return rect
