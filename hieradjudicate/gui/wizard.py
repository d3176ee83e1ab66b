"""New project wizard (placeholder until the full wizard lands)."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox, QWidget


class NewProjectWizard:
    def __init__(self, parent: QWidget) -> None:
        self.parent = parent
        self.created_path: str | None = None

    def exec(self) -> bool:
        QMessageBox.information(self.parent, "New project", "The new-project wizard is not available yet; "
                                "use 'hieradjudicate project create' on the command line.")
        return False
