"""The dashboard's panel of system scores against the reference gold given as input (#21 item 3).

The same widget as the live panel's (:mod:`hieradjudicate.gui.workbench.panels.reference_panel`), in a
dashboard frame with its explanation; the figures are computed once per project and shared.
"""

from __future__ import annotations

from typing import Any

from hieradjudicate.app.dashboard.scores import SCORE_FORMULA
from hieradjudicate.gui.dashboard.common import Panel
from hieradjudicate.gui.workbench.panels.reference_panel import ReferenceScores


class ReferencePanel(Panel):
    def __init__(self, wb: Any, parent=None) -> None:
        super().__init__("reference", "System scores against the reference gold", parent)
        self.scores = ReferenceScores(wb)
        self.title_label.setText(self.scores.title.text())  # names the reference set: one title, not two
        self.title_label.setToolTip(self.scores.title.toolTip())
        self.scores.title.hide()
        self.body.addWidget(self.scores, 1)
        self.set_explain("Each system against the gold standard given as input (a set with role gold), over "
                         "every instance of it, under the policies of `hieradjudicate score` (leaf: Melamed & "
                         "Resnik; fine, coarse, mixed: scorer2 with the inventory's tree as the sense map); per "
                         "data set for the WSD framework's ALL files. " + SCORE_FORMULA + ". These figures do "
                         "not use your decisions: the panels 'Agreement with the gold' and 'System scores' "
                         "below use the adjudicated gold (the decisions marked resolved).")
        self.scores.start()

    def update_data(self, data: Any) -> None:  # the reference does not change with decisions or filters
        pass

    def shutdown(self) -> None:
        self.scores.shutdown()
