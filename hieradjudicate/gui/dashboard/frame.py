"""The dashboard tab's frame: the controls over the plots, the scrolling grid, the side panel.

:func:`build_frame` makes the widgets that cost next to nothing (no pyqtgraph
plot among them), so that the tab and its step box stand at once while the
panels are built into the grid (:class:`~hieradjudicate.gui.dashboard.dashboard.DashboardView`).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from hieradjudicate.gui.dashboard.work import MEASURES


def build_frame(view: Any) -> QGridLayout:
    """Give ``view`` (a DashboardView) its controls (``measure``, ``scope``, ``ci_button``, ``ci_state``,
    ``state``) and side panel (``explain``, ``list_title``, ``instances``); returns the empty grid."""
    top = QHBoxLayout()
    top.setContentsMargins(4, 2, 4, 2)
    view.measure = QComboBox(objectName="dash_measure")
    for text, key in MEASURES:
        view.measure.addItem(text, key)
    view.measure.setToolTip("Pairwise coefficient of the heatmap and depth curves; the group figure is "
                            "Fleiss' kappa for the kappas and Krippendorff's alpha for alpha")
    view.scope = QComboBox(objectName="dash_scope")
    view.scope.addItem("Instances of the workbench filter", True)
    view.scope.addItem("Whole project", False)
    view.ci_button = QPushButton("Compute intervals", objectName="dash_ci")
    view.ci_button.setToolTip("Bootstrap 95% intervals of the per-lexelt and gold-dependent figures "
                              "(slow on a large project: computed in the background)")
    view.ci_state = QLabel(objectName="dash_ci_state")
    view.state = QLabel(objectName="dash_state")
    view.state.setStyleSheet("color: gray")
    # the controls on one row, every word of the scope box's text in sight (it was cut at 1024 px:
    # "Instances of the workb"); what the figures are and when they were computed on a row of its
    # own under them, where a 1024 px window has room for it on one line (it wrapped into 5)
    for label in (view.state, view.ci_state):
        label.setWordWrap(True)
        label.setMinimumWidth(110)
    view.scope.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
    view.measure.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
    for w in (QLabel("Measure"), view.measure, QLabel("Scope"), view.scope, view.ci_button):
        top.addWidget(w)
    top.addStretch(1)
    under = QHBoxLayout()
    under.setContentsMargins(4, 0, 4, 2)
    under.addWidget(view.ci_state, 1)
    under.addWidget(view.state, 2)
    view.state.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    view.measure.currentIndexChanged.connect(lambda _: view.refresh())
    view.scope.currentIndexChanged.connect(lambda _: view.refresh())
    view.ci_button.clicked.connect(view.request_intervals)
    grid_host = QWidget()
    grid = QGridLayout(grid_host)
    grid.setContentsMargins(2, 2, 2, 2)
    grid.setSpacing(6)
    scroll = QScrollArea(objectName="dash_scroll")
    scroll.setWidgetResizable(True)
    scroll.setWidget(grid_host)
    scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

    side = QWidget()
    sl = QVBoxLayout(side)
    sl.setContentsMargins(2, 2, 2, 2)
    view.explain = QTextBrowser(objectName="dash_explain")
    # the hint as the box's first text, in grey: Qt draws a placeholder on one line, cut at the box's
    # edge ("Hover over a cell, bar or point for"); this one wraps
    view.explain.setHtml("<span style='color: gray'>Hover over a cell, bar or point for its figures; "
                         "press ? on a plot for what it is and how it is computed.</span>")
    view.list_title = QLabel("<b>Instances</b><br><small>Click a confusion cell, a histogram bar or a "
                             "category bar; double-click an instance to open it.</small>")
    view.list_title.setWordWrap(True)
    view.instances = QListWidget(objectName="dash_instances")
    view.instances.itemActivated.connect(view._open_item)
    sl.addWidget(QLabel("<b>About this figure</b>"))
    sl.addWidget(view.explain, 2)
    sl.addWidget(view.list_title)
    sl.addWidget(view.instances, 3)
    split = QSplitter(Qt.Orientation.Horizontal)
    split.addWidget(scroll)
    split.addWidget(side)
    split.setStretchFactor(0, 1)
    split.setSizes([1040, 230])
    lay = QVBoxLayout(view)
    lay.setContentsMargins(0, 0, 0, 0)
    lay.addLayout(top)
    lay.addLayout(under)
    lay.addWidget(split, 1)
    return grid
