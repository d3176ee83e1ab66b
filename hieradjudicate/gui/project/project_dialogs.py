"""The dialogs of File ▸ Export gold…, Decide ▸ Resolve what the annotators agree on…,
File ▸ Re-import a set… (the widgets; the work is :mod:`hieradjudicate.app.session.project_ops`,
the very functions the command line runs, so both print the same counts and warnings).

Every path is typed into a line edit or chosen with *Browse…*, which asks :data:`CHOOSER`
(a module-level function, replaced in tests; the buttons stay the ones a user presses).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from hieradjudicate.app.session import project_ops as ops
from hieradjudicate.core.errors import HieradjError

_ERROR = "color:#b00020"


def choose_path(parent: QWidget, title: str, start: str, file_filter: str, save: bool) -> str:
    """Ask the user for a file (a save or an open dialog); ``""`` when cancelled."""
    if save:
        return QFileDialog.getSaveFileName(parent, title, start, file_filter)[0]
    return QFileDialog.getOpenFileName(parent, title, start, file_filter)[0]


#: how *Browse…* asks for a path: ``CHOOSER(parent, title, start, filter, save) -> path``
CHOOSER: Callable[[QWidget, str, str, str, bool], str] = choose_path


def _path_row(edit: QLineEdit, title: str, file_filter: str, save: bool, parent: QWidget) -> QHBoxLayout:
    browse = QPushButton("Browse…")
    browse.setObjectName("browse")

    def ask() -> None:
        path = CHOOSER(parent, title, edit.text(), file_filter, save)
        if path:
            edit.setText(path)
    browse.clicked.connect(ask)
    row = QHBoxLayout()
    row.addWidget(edit, 1)
    row.addWidget(browse)
    return row


def _message(label: QLabel, text: str, error: bool = False) -> None:
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setStyleSheet(_ERROR if error else "")
    label.setText(text)


class ExportGoldDialog(QDialog):
    """Format, file and the unresolved option; *Export* asks the window to write in the background
    (``start(job, done, failed)``), and the dialog shows what the command line would print."""

    def __init__(self, session: Any, start: Callable[..., None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("export_gold_dialog")
        self.setWindowTitle("Export gold")
        self.session, self._start = session, start
        self.format = QComboBox()
        self.format.setObjectName("export_format")
        greyed = []
        for fmt in ops.EXPORT_FORMATS:
            why = ops.export_unavailable(session, fmt)
            self.format.addItem(fmt if why is None else f"{fmt} (not available)", fmt)
            if why is not None:
                k = self.format.count() - 1
                self.format.model().item(k).setEnabled(False)
                self.format.setItemData(k, f"{fmt}: {why}", Qt.ItemDataRole.ToolTipRole)
                greyed.append((fmt, why))
        # why formats are greyed, in sight (a tooltip on a disabled item is found by few)
        self.unavailable = QLabel(_greyed_text(greyed))
        self.unavailable.setObjectName("export_unavailable")
        self.unavailable.setWordWrap(True)
        self.unavailable.setVisible(bool(greyed))
        self.path = QLineEdit()
        self.path.setObjectName("export_path")
        self.unresolved = QCheckBox("Also write the instances not resolved, with their status")
        self.unresolved.setObjectName("export_unresolved")
        left = tuple(getattr(session.store, "left_out", ()))
        # decisions that failed their checksum: the export refuses unless told to go on without them
        self.without_left_out = QCheckBox(f"Export without the {len(left)} decision(s) left out for "
                                          "failing their checksum (named above)")
        self.without_left_out.setObjectName("export_without_left_out")
        self.without_left_out.setVisible(bool(left))
        self.result = QLabel()
        self.result.setObjectName("export_result")
        self.result.setWordWrap(True)
        self.buttons = QDialogButtonBox()
        self.export_button = self.buttons.addButton("Export", QDialogButtonBox.ButtonRole.AcceptRole)
        self.export_button.setObjectName("export_button")
        self.close_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.export_button.clicked.connect(self.export)
        self.close_button.clicked.connect(self.reject)
        form = QFormLayout()
        form.addRow("Format:", self.format)
        form.addRow("", self.unavailable)
        form.addRow("File:", _path_row(self.path, "Export gold to", "All files (*)", True, self))
        form.addRow("", self.unresolved)
        form.addRow("", self.without_left_out)
        lay = QVBoxLayout(self)
        counts = QLabel(self._counts())
        counts.setWordWrap(True)
        lay.addWidget(counts)
        lay.addLayout(form)
        lay.addWidget(self.result)
        lay.addWidget(self.buttons)
        self.format.currentIndexChanged.connect(self._format_changed)
        self.path.textChanged.connect(self._path_changed)
        self._format_changed()
        self.resize(620, 260)

    def _counts(self) -> str:
        statuses: dict[str, int] = {}
        for row in self.session.decisions:
            statuses[row.status] = statuses.get(row.status, 0) + 1
        resolved = statuses.get("resolved", 0)
        text = (f"{resolved} of {self.session.corpus.n} instances are resolved; senseval and wsdeval keys hold "
                "only those (the instances left out are counted after the export).")
        if statuses.get("conflict"):  # a server project's adjudicators differ: left out until the lead decides
            text += f"\n{statuses['conflict']} instance(s) in conflict (adjudicators differ) are left out until decided."
        left = tuple(getattr(self.session.store, "left_out", ()))
        if left:
            from hieradjudicate.app.session.session import left_out_text

            text += f"\nLeft out of the gold: {left_out_text(left)} (`hieradjudicate project repair` keeps what is intact)."
        return text

    def chosen_format(self) -> str:
        return str(self.format.currentData())

    def _default_path(self, fmt: str) -> str:
        """Beside the project; for the demo (kept in the program's own data folder, which the user never
        chose) in the folder last exported to, else the home folder."""
        p = Path(self.session.path)
        folder = p.parent
        from hieradjudicate.app.demo import data_dir

        if folder.resolve() == data_dir().resolve():
            last = QSettings().value("export/folder", "")
            folder = Path(str(last)) if last and Path(str(last)).is_dir() else Path.home()
        return str(folder / (p.stem + ".gold" + ops.EXPORT_SUFFIX[fmt]))

    def _format_changed(self) -> None:
        fmt = self.chosen_format()
        text = self.path.text()
        if not text or any(text == self._default_path(f) for f in ops.EXPORT_FORMATS):
            self.path.setText(self._default_path(fmt))  # the user's own path is kept
        self.unresolved.setEnabled(fmt in ops.UNRESOLVED_FORMATS)
        if fmt not in ops.UNRESOLVED_FORMATS:
            self.unresolved.setChecked(False)
        self._update()

    def _path_changed(self, text: str) -> None:
        self._update()
        exists = bool(text.strip()) and Path(text.strip()).is_file()
        _message(self.result, f"{text.strip()} exists: Export replaces it." if exists else "")

    def _update(self) -> None:
        self.export_button.setEnabled(bool(self.path.text().strip()))

    def export(self) -> None:
        path = self.path.text().strip()
        if not path:
            return
        try:
            job = ops.export_job(self.session, path, self.chosen_format(),
                                 include_unresolved=self.unresolved.isChecked(),
                                 without_left_out=self.without_left_out.isChecked())
        except HieradjError as exc:
            _message(self.result, f"Not exported: {exc}", True)
            return
        self.export_button.setEnabled(False)
        _message(self.result, "Writing…")
        self._start(job, self._done, self._failed)

    def _done(self, summary: Any) -> None:
        self.summary = summary
        QSettings().setValue("export/folder", str(Path(self.path.text().strip()).parent))
        _message(self.result, str(summary))
        self._update()

    def _failed(self, exc: BaseException) -> None:
        _message(self.result, f"Not exported: {exc}", True)
        self._update()


class ResolveAgreedDialog(QDialog):
    """The options of ``resolve-agreed`` and a preview of how many instances it resolves."""

    RULES = (("identical answers only", None), ("nested answers too, taking the most specific", "most"),
             ("nested answers too, taking the least specific", "least"))

    def __init__(self, session: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("resolve_agreed_dialog")
        self.setWindowTitle("Resolve what the annotators agree on")
        self.session = session
        self.plan: ops.AgreedPlan | None = None
        self.message = ""
        self.rule = QComboBox()
        self.rule.setObjectName("agreed_rule")
        for text, value in self.RULES:
            self.rule.addItem(text, value)
        self.min_annotators = QSpinBox()
        self.min_annotators.setObjectName("agreed_min")
        self.min_annotators.setRange(1, max(2, len(session.corpus.sets)))
        self.min_annotators.setValue(2)
        self.systems = QCheckBox("Count the system sets as annotators")
        self.systems.setObjectName("agreed_systems")
        self.preview = QLabel()
        self.preview.setObjectName("agreed_preview")
        self.preview.setWordWrap(True)
        self.buttons = QDialogButtonBox()
        self.resolve_button = self.buttons.addButton("Resolve", QDialogButtonBox.ButtonRole.AcceptRole)
        self.resolve_button.setObjectName("resolve_button")
        self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.buttons.rejected.connect(self.reject)
        self.resolve_button.clicked.connect(self.resolve)
        form = QFormLayout()
        form.addRow("Agreement:", self.rule)
        form.addRow("At least this many answered:", self.min_annotators)
        form.addRow("", self.systems)
        # offered where there is a system set to count (never on a crowd of annotators only)
        form.setRowVisible(self.systems, any(x.role == "system" for x in session.corpus.sets))
        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addWidget(self.preview)
        lay.addWidget(self.buttons)
        self.rule.currentIndexChanged.connect(self.update_preview)
        self.min_annotators.valueChanged.connect(self.update_preview)
        self.systems.toggled.connect(self.update_preview)
        self.update_preview()
        self.resize(620, 240)

    def update_preview(self) -> None:
        try:
            self.plan = ops.plan_resolve_agreed(self.session, compatible=self.rule.currentData(),
                                                min_annotators=self.min_annotators.value(),
                                                include_systems=self.systems.isChecked())
        except HieradjError as exc:
            self.plan = None
            _message(self.preview, str(exc).removesuffix(f"; {ops.WRITE_HINT}"), True)
        else:
            _message(self.preview, self.plan.preview())
        ok = self.plan is not None and self.plan.count > 0 and not self.session.read_only
        self.resolve_button.setEnabled(ok)

    def resolve(self) -> None:
        if self.plan is None:
            return
        try:
            self.message = ops.resolve_agreed(self.session, self.plan)
        except HieradjError as exc:
            _message(self.preview, str(exc), True)
            return
        self.accept()


class ReimportDialog(QDialog):
    """Which set's file to replace and by which file; the result as ``project reimport`` prints it."""

    def __init__(self, session: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("reimport_dialog")
        self.setWindowTitle("Re-import a set")
        self.session = session
        self.lines: list[str] = []
        self.set_box = QComboBox()
        self.set_box.setObjectName("reimport_set")
        for label, file_id in ops.reimport_choices(session):
            self.set_box.addItem(label, file_id)
        self.path = QLineEdit()
        self.path.setObjectName("reimport_path")
        self.skip = QCheckBox("Leave out lines with problems (else they stop the re-import)")
        self.skip.setObjectName("reimport_skip")
        self.result = QLabel("Decisions whose basis changed are flagged; Undo takes the whole re-import back.")
        self.result.setObjectName("reimport_result")
        self.result.setWordWrap(True)
        self.buttons = QDialogButtonBox()
        self.go = self.buttons.addButton("Re-import", QDialogButtonBox.ButtonRole.AcceptRole)
        self.go.setObjectName("reimport_button")
        self.buttons.addButton(QDialogButtonBox.StandardButton.Close).clicked.connect(self.reject)
        self.go.clicked.connect(self.reimport)
        form = QFormLayout()
        form.addRow("Set:", self.set_box)
        form.addRow("New file:", _path_row(self.path, "The changed annotation file", "All files (*)", False, self))
        form.addRow("", self.skip)
        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addWidget(self.result)
        lay.addWidget(self.buttons)
        self.resize(620, 240)

    def reimport(self) -> None:
        path = self.path.text().strip()
        if not path:
            _message(self.result, "Give the changed file (type its path or Browse…)", True)
            return
        if not os.path.isfile(path):
            _message(self.result, f"{path}: no such file", True)
            return
        try:
            notice, result = ops.reimport(self.session, int(self.set_box.currentData()), path,
                                          skip_bad_lines=self.skip.isChecked())
        except HieradjError as exc:
            _message(self.result, f"Not re-imported: {exc}", True)
            return
        self.lines = ([f"warning: {notice}"] if notice else []) + ops.reimport_lines(result)
        _message(self.result, "\n".join(self.lines[:12]) + (f"\n… and {len(self.lines) - 12} more"
                                                             if len(self.lines) > 12 else ""))
        self.go.setEnabled(False)  # done: Close (a second press would re-import again)


class ImportPreviewDialog(QDialog):
    """What an import of decisions would do (how many first decisions, how many replaced), asked
    before anything is recorded -- as Resolve agreed previews its count."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("import_preview_dialog")
        self.setWindowTitle("Import decisions")
        self.preview = QLabel(text)
        self.preview.setObjectName("import_preview")
        self.preview.setWordWrap(True)
        self.buttons = QDialogButtonBox()
        self.import_button = self.buttons.addButton("Import", QDialogButtonBox.ButtonRole.AcceptRole)
        self.import_button.setObjectName("import_button")
        self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(self.preview)
        lay.addWidget(self.buttons)
        self.resize(560, 160)


def _greyed_text(greyed: list[tuple[str, str]]) -> str:
    """"Not available here: xmi, labelstudio, prodigy: each writes the gold back into its tool's file
    (…) the project was built from; this project has none" -- one sentence, not one per format."""
    import re

    tools, other = [], []
    for fmt, why in greyed:
        m = re.fullmatch(r"writes the gold back into the (.+) file the project was built from; this project has none",
                         why)
        (tools.append((fmt, m.group(1))) if m else other.append(f"{fmt}: {why}"))
    parts = other
    if tools:
        parts = [f"{', '.join(f for f, _ in tools)}: each writes the gold back into its tool's file "
                 f"({', '.join(t for _, t in tools)}) the project was built from, and this project has none"] + other
    return "<small>Not available here: " + "; ".join(parts) + ".</small>"
