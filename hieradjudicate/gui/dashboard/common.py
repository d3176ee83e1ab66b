"""Shared pieces of the dashboard plots: theme colours, the panel frame, bar picking, PNG export.

Colours come from :mod:`hieradjudicate.core.palette` (the same as the
instance table and the HTML report); backgrounds and text follow the
QPalette, and category fills take the palette's dark variants when the
window colour is dark.  Plots are exported as PNG with pyqtgraph's
``ImageExporter`` (its SVG exporter is broken with PySide6 >= 6.11, so the
scene's own "Export..." menu, which offers SVG, is removed).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pyqtgraph as pg
from pyqtgraph.exporters import ImageExporter
from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtGui import QColor, QCursor, QFontMetrics, QPalette, QTextOption
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QToolButton,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from hieradjudicate.core.errors import HieradjError
from hieradjudicate.core.palette import category_color, mix, scale_color
from hieradjudicate.gui.colors import is_dark
from hieradjudicate.io.atomic import write_atomic

_CENTRED = QTextOption(Qt.AlignmentFlag.AlignHCenter)


def png_bytes(image: Any) -> bytes:
    """A QImage encoded as PNG, in memory (written by the caller through an atomic write)."""
    from PySide6.QtCore import QBuffer, QIODevice

    buf = QBuffer()
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buf, "PNG"):
        raise OSError("the figure could not be encoded as PNG")
    return bytes(buf.data())


def theme() -> dict[str, str]:
    """Background, foreground, muted and grid colours of the current QPalette."""
    app = QApplication.instance()
    pal = app.palette() if app is not None else QPalette()  # type: ignore[union-attr]
    bg = pal.color(QPalette.ColorRole.Base).name()
    fg = pal.color(QPalette.ColorRole.WindowText).name()
    return {"bg": bg, "fg": fg, "muted": mix(fg, bg, 0.45), "grid": mix(fg, bg, 0.8), "dark": str(is_dark())}


def cat_fill(code: int) -> str:
    """Category colour for a filled bar: the strong shade, readable on both themes."""
    return category_color(code, "strong")


def cat_cell(code: int) -> str:
    """Category colour as a cell background: light or dark variant by theme."""
    return category_color(code, "dark" if is_dark() else "light")


def scale_lut(lo: float = -1.0, hi: float = 1.0, n: int = 256) -> np.ndarray:
    """A pyqtgraph lookup table (n, 4) of :func:`palette.scale_color` over ``[lo, hi]``."""
    out = np.zeros((n, 4), np.ubyte)
    for k, v in enumerate(np.linspace(lo, hi, n)):
        c = QColor(scale_color(float(v), lo if lo < 0 else -1.0, hi))
        out[k] = (c.red(), c.green(), c.blue(), 255)
    return out


def fmt(v: Any, digits: int = 3) -> str:
    if v is None:
        return "undefined"
    try:
        f = float(v)
    except (TypeError, ValueError):
        return str(v)
    return "undefined" if np.isnan(f) else f"{f:.{digits}f}"


def nan_or(v: Any) -> float:
    return float("nan") if v is None else float(v)


def make_plot(*, menu: bool = False) -> pg.PlotWidget:
    """A PlotWidget in the theme's colours, without the SVG-offering scene menu."""
    t = theme()
    w = pg.PlotWidget(background=t["bg"])
    w.scene().contextMenu = []  # the scene's "Export..." dialog offers the broken SVG exporter
    pi = w.getPlotItem()
    pi.setMenuEnabled(menu)
    pi.hideButtons()
    for name in ("left", "bottom", "right", "top"):
        ax = pi.getAxis(name)
        ax.setPen(pg.mkPen(t["muted"]))
        ax.setTextPen(pg.mkPen(t["fg"]))
    w.setMinimumHeight(150)
    return w


def set_ticks(plot: pg.PlotWidget, axis: str, labels: list[str], max_labels: int = 40) -> None:
    """Category ticks at 0, 1, 2, ... (every k-th label when there are many, and on the x axis when
    they would run together at the plot's width: set names were written over one another)."""
    stride = max(1, int(np.ceil(len(labels) / max_labels)))
    if axis == "bottom" and labels:
        fm = QFontMetrics(plot.getAxis(axis).style.get("tickFont") or plot.font())
        widest = max(fm.horizontalAdvance(t) for t in labels) + fm.horizontalAdvance("  ")
        width = max(plot.getPlotItem().getViewBox().width(), 120.0)
        stride = max(stride, int(np.ceil(len(labels) * widest / width)))
    plot.getAxis(axis).setTicks([[(k, s) for k, s in enumerate(labels) if k % stride == 0], []])


def view_pos(plot: pg.PlotWidget, scene_pos: QPointF) -> QPointF | None:
    """Data coordinates of a scene position inside the plot's view box, else ``None``."""
    vb = plot.getPlotItem().getViewBox()
    if not vb.sceneBoundingRect().contains(scene_pos):
        return None
    return vb.mapSceneToView(scene_pos)


def widget_pos(plot: pg.PlotWidget, x: float, y: float):
    """Widget (viewport) coordinates of a data point: what a real mouse click must hit."""
    vb = plot.getPlotItem().getViewBox()
    return plot.mapFromScene(vb.mapViewToScene(QPointF(x, y)))


def nearest_slot(v: float, n: int, half: float = 0.45) -> int:
    """Index k of the category slot ``k - half <= v <= k + half``, or -1."""
    k = round(v)
    return k if 0 <= k < n and abs(v - k) <= half else -1


class Panel(QFrame):
    """A titled frame holding one figure: "?" puts its explanation in the side panel, "PNG" saves it."""

    explain_requested = Signal(str, str)  # title, text
    instances_requested = Signal(str, object)  # what, instance index array

    def __init__(self, key: str, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.key = key
        self.title = title
        self.setObjectName(f"dash_{key}")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.explain_text = ""
        self.plots: list[pg.PlotWidget] = []
        head = QHBoxLayout()
        head.setContentsMargins(0, 0, 0, 0)
        self.title_label = QLabel(f"<b>{title}</b>")
        self.title_label.setTextFormat(Qt.TextFormat.RichText)
        self.title_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        # a long title ("… per lexelt (1000 bootstrap resamples …)") takes a second line in a 1024 px
        # window instead of running under the ? and PNG buttons (#23)
        self.title_label.setWordWrap(True)
        head.addWidget(self.title_label, 1)
        self.controls = QHBoxLayout()  # selectors: a row of their own under the title
        self.controls.setContentsMargins(0, 0, 0, 0)
        qb = QToolButton(text="?")
        qb.setToolTip("What this figure is: formula, observed and chance agreement, instances it rests on")
        qb.clicked.connect(lambda: self.explain_requested.emit(self.title, self.explain_text))
        pb = QToolButton(text="PNG")
        pb.setObjectName(f"png_{key}")
        pb.setToolTip("Save this figure as PNG")
        pb.clicked.connect(self._save_png_dialog)
        head.addWidget(qb)
        head.addWidget(pb)
        self.body = QVBoxLayout(self)
        self.body.setContentsMargins(6, 4, 6, 6)
        self.body.setSpacing(3)
        self.body.addLayout(head)
        self.body.addLayout(self.controls)

    def add_plot(self, stretch: int = 1) -> pg.PlotWidget:
        w = make_plot()
        self.plots.append(w)
        self.body.addWidget(w, stretch)
        return w

    def set_empty(self, text: str | None, plots: list[pg.PlotWidget] | None = None) -> None:
        """Nothing to draw: a sentence saying why (what is missing, what would make the figure appear)
        over each of ``plots`` (default: every plot of the panel) instead of bare axes from -400 to 400;
        the axes keep their titles and lose their numbers.  ``None`` takes it away."""
        for p in self.plots if plots is None else plots:
            item = p.__dict__.get("_empty_text")
            if item is None:
                t = theme()  # on the background colour: a grid or zero line never strikes it through
                item = p.__dict__["_empty_text"] = pg.TextItem("", color=t["muted"], anchor=(0.5, 0.5),
                                                               fill=pg.mkBrush(t["bg"]))
                item.setParentItem(p.getPlotItem())  # in widget coordinates: no axis range needed
                p.getPlotItem().getViewBox().sigResized.connect(lambda *_a, p=p: _centre_empty(p))
            item.setText(text or "")
            item.setVisible(bool(text))
            for ax in ("left", "bottom", "right"):  # no numbers, and no "(x0.001)" after a title
                p.getPlotItem().getAxis(ax).setStyle(showValues=not text)
                p.getPlotItem().getAxis(ax).enableAutoSIPrefix(not text)
            _centre_empty(p)

    def empty_text(self, plot: pg.PlotWidget) -> str:
        """The sentence shown over ``plot`` ("" when it draws figures)."""
        item = plot.__dict__.get("_empty_text")
        return item.toPlainText() if item is not None and item.isVisible() else ""

    def set_explain(self, text: str) -> None:
        """The figure's explanation: tooltip of the frame and its plots, and the "?" text."""
        self.explain_text = text
        self.setToolTip(text)
        for p in self.plots:
            p.setToolTip(text)

    def export_png(self, path: str | Path, width: int = 1000) -> list[Path]:
        """Write every plot of the panel (``name.png``, ``name-2.png``, ...); returns the paths.

        Each file is written whole or not at all and never through a link planted at its name
        (:func:`~hieradjudicate.io.atomic.write_atomic`); raises ``OSError`` when it cannot be."""
        target = Path(path)
        out = []
        for k, plot in enumerate(self.plots):
            p = target if k == 0 else target.with_name(f"{target.stem}-{k + 1}{target.suffix or '.png'}")
            exp = ImageExporter(plot.getPlotItem())
            exp.parameters()["width"] = width
            write_atomic(p, png_bytes(exp.export(toBytes=True)))
            out.append(p)
        return out

    def _save_png_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, f"Save {self.title} as PNG", f"{self.key}.png", "PNG (*.png)")
        if path:
            path = path if path.lower().endswith(".png") else path + ".png"
            try:
                self.export_png(path)
            except OSError as exc:
                win = self.window()
                if hasattr(win, "error"):
                    win.error("The PNG was not saved", HieradjError(f"{path}: {exc.strerror or exc}"))


def _centre_empty(plot: pg.PlotWidget) -> None:
    """The empty plot's sentence in the middle of its view box, wrapped to its width (again on resize:
    it stayed where the plot's first, smaller size had put it)."""
    item = plot.__dict__.get("_empty_text")
    if item is None:
        return
    pi = plot.getPlotItem()
    box = pi.getViewBox().geometry()  # the data area, in the plot item's coordinates
    item.textItem.setTextWidth(-1)  # its natural width, then wrapped where the plot is narrower
    natural = item.textItem.boundingRect().width()
    item.setTextWidth(min(natural, max(box.width() - 16, 80.0)))
    item.textItem.document().setDefaultTextOption(_CENTRED)
    item.setPos(box.center().x(), box.center().y())


def none_in_view(data: Any) -> str:
    """The sentence for a scope without an instance (a workbench filter that leaves none), else ""."""
    if getattr(data, "selection_n", 1):
        return ""
    return "No instance in the workbench filter: widen it, or choose Scope: Whole project"


class TextPool:
    """Reusable TextItems on one plot (hidden when not needed)."""

    def __init__(self, plot: pg.PlotWidget) -> None:
        self.plot = plot
        self.items: list[pg.TextItem] = []

    def place(self, k: int, x: float, y: float, text: str, color: str) -> None:
        while len(self.items) <= k:
            t = pg.TextItem(anchor=(0.5, 0.5))
            t.setZValue(10)
            self.plot.addItem(t)
            self.items.append(t)
        t = self.items[k]
        t.setText(text, color=color)
        t.setPos(x, y)
        t.setVisible(True)

    def hide_from(self, k: int) -> None:
        for t in self.items[k:]:
            t.setVisible(False)


def matrix_plot(panel: Panel) -> tuple[pg.PlotWidget, pg.ImageItem]:
    """A plot holding one row-major image, row 0 at the top, not pannable."""
    plot = panel.add_plot()
    plot.setMouseEnabled(x=False, y=False)
    plot.getPlotItem().getViewBox().invertY(True)
    img = pg.ImageItem(axisOrder="row-major")
    plot.addItem(img)
    return plot, img


def tip(plot: pg.PlotWidget, text: str | None) -> None:
    """Show ``text`` as a tooltip at the mouse (hovering a cell, bar or point)."""
    if text:
        QToolTip.showText(QCursor.pos(), text, plot)
