"""The pages of the new-project wizard: input files, column mapping, preview and output path."""

from __future__ import annotations

import html
import os
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
    QWizardPage,
)

from hieradjudicate.app.loading.load import NAMED_SETS, AnnotationSpec, sets_summary
from hieradjudicate.app.loading.roles import guess_role
from hieradjudicate.app.loading.sniff import (
    ANNOTATION_FIELDS,
    INVENTORY_FIELDS,
    Sniffed,
    default_name,
    mapping_to_columns,
)
from hieradjudicate.gui.wizard.server_choice import ServerChoice

ROLES = ("annotator", "system", "gold")
AUTO = "(automatic)"
_ERROR, _WARNING = QColor("#b00020"), QColor("#8a5a00")


class FilesPage(QWizardPage):
    """A list of input files of one kind with their detected format (annotations: sets, role, name)."""

    def __init__(self, kind: str, title: str, subtitle: str, file_filter: str, *, required: bool) -> None:
        super().__init__()
        self.kind, self.file_filter, self.required = kind, file_filter, required
        self.setTitle(title)
        self.setSubTitle(subtitle)
        heads = ["File", "Format"] + (["Sets in the file", "Role", "Name"] if self.annotations else [])
        self.table = QTableWidget(0, len(heads))
        self.table.setObjectName(f"files_{kind}")
        self.table.setHorizontalHeaderLabels(heads)
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for c in range(1, len(heads)):
            hh.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        add, remove = QPushButton("Add…"), QPushButton("Remove")
        add.clicked.connect(self._browse)
        remove.clicked.connect(self.remove_selected)
        buttons = QHBoxLayout()
        buttons.addWidget(add)
        buttons.addWidget(remove)
        if kind == "inventory":  # WordNet is a database folder, not a file to pick
            from hieradjudicate.io.inventories.wordnet import wordnet_folder

            self.wordnet = QPushButton("WordNet 3.0")
            self.wordnet.setObjectName("add_wordnet")
            folder = wordnet_folder("wordnet")
            found = folder is not None and (folder / "index.noun").is_file()
            self.wordnet.setEnabled(found)
            self.wordnet.setToolTip(
                f"WordNet's senses of the lemmas the annotations use ({folder}): lemma -> supersense -> "
                "sense key" if found else f"WordNet is not installed at {folder} (Debian: apt install wordnet-base)")
            self.wordnet.clicked.connect(lambda: self.add_paths([str(folder)]))
            buttons.addWidget(self.wordnet)
        buttons.addStretch(1)
        lay = QVBoxLayout(self)
        lay.addWidget(self.table, 1)
        lay.addLayout(buttons)
        self._paths: list[str] = []

    @property
    def annotations(self) -> bool:
        return self.kind == "annotations"

    # ------------------------------------------------------------------ files
    def paths(self) -> list[str]:
        return list(self._paths)

    def add_paths(self, paths: list[str]) -> None:
        for p in paths:
            p = os.path.abspath(p)
            if p in self._paths:
                continue
            self._paths.append(p)
            r = self.table.rowCount()
            self.table.insertRow(r)
            item = QTableWidgetItem(os.path.basename(p))
            item.setToolTip(p)
            item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
            self.table.setItem(r, 0, item)
            self.table.setItem(r, 1, self._fixed("reading…"))
            if self.annotations:
                self.table.setItem(r, 2, self._fixed(""))
                role = QComboBox()
                role.addItems(ROLES)
                guess, why = guess_role(p)  # the name (gold, lesk, *.ans, ...) or weighted answers
                role.setCurrentText(guess)
                role.setToolTip(f"Guessed: {why}. Change it if it is wrong.")
                role.setObjectName(f"role_{r}")
                self.table.setCellWidget(r, 3, role)
                self.table.setItem(r, 4, QTableWidgetItem(default_name(p)))
        self.completeChanged.emit()
        self._wizard_sniff()

    def remove_selected(self) -> None:
        for r in sorted({i.row() for i in self.table.selectedIndexes()}, reverse=True):
            self.table.removeRow(r)
            del self._paths[r]
        self.completeChanged.emit()

    def _browse(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, self.title(), "", self.file_filter)
        if paths:
            self.add_paths(paths)

    def _wizard_sniff(self) -> None:
        wiz = self.wizard()
        if wiz is not None:
            wiz.sniff_files()  # type: ignore[attr-defined]

    @staticmethod
    def _fixed(text: str) -> QTableWidgetItem:
        item = QTableWidgetItem(text)
        item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
        return item

    def show_sniffed(self, found: dict[str, Sniffed]) -> None:
        """Fill the format (and sets) cells from what the wizard detected."""
        for r, p in enumerate(self._paths):
            s = found.get(p)
            if s is None:
                continue
            fmt = self.table.item(r, 1)
            if s.problem:
                fmt.setText("needs a column mapping (step 4)" if s.is_table else "cannot read")
                fmt.setForeground(QBrush(_ERROR))
                fmt.setToolTip(s.problem)
            elif s.suspect_table:
                fmt.setText("a table? map its columns (step 4)")
                fmt.setForeground(QBrush(_WARNING))
                fmt.setToolTip(f"read as Senseval lines, but it has a header: {', '.join(s.columns)}")
            else:
                fmt.setText(s.format)
                fmt.setForeground(QBrush())
                fmt.setToolTip("")
            if self.annotations:
                sets = self.table.item(r, 2)
                sets.setText(_sets_cell(s.sets))
                sets.setToolTip(_names_tip(s.sets))
                name = self.table.item(r, 4)
                multi = len(s.sets) > 1
                name.setFlags((name.flags() & ~Qt.ItemFlag.ItemIsEnabled) if multi
                              else (name.flags() | Qt.ItemFlag.ItemIsEnabled))
                name.setToolTip("the file names its sets" if multi else "the set's name in the project")

    # ------------------------------------------------------------------ annotations
    def set_role(self, row: int, role: str) -> None:
        self.table.cellWidget(row, 3).setCurrentText(role)

    def set_name(self, row: int, name: str) -> None:
        self.table.item(row, 4).setText(name)

    def specs(self, mappings: dict[str, dict[str, str] | None]) -> list[AnnotationSpec]:
        out = []
        for r, p in enumerate(self._paths):
            name = self.table.item(r, 4).text().strip() or None
            if not self.table.item(r, 4).flags() & Qt.ItemFlag.ItemIsEnabled:
                name = None  # a file holding several sets names them itself
            out.append(AnnotationSpec(p, name, self.table.cellWidget(r, 3).currentText(),
                                      columns=mappings.get(p)))
        return out

    def isComplete(self) -> bool:
        return bool(self._paths) or not self.required


class MappingPage(QWizardPage):
    """Combo boxes per field for every table whose columns are not (or not only) the default names."""

    INVENTORY_KEY = "(inventory tables)"

    def __init__(self) -> None:
        super().__init__()
        self.setTitle("Column names")
        self.setSubTitle("For tables whose columns are not the default names, choose which column holds "
                         "each field. '(automatic)' uses the usual names (lexelt, instance, annotator, "
                         "tag, sense, parent, gloss, …).")
        self.area = QScrollArea()
        self.area.setWidgetResizable(True)
        lay = QVBoxLayout(self)
        lay.addWidget(self.area)
        self.boxes: dict[str, dict[str, QComboBox]] = {}
        self._chosen: dict[str, dict[str, str]] = {}

    def initializePage(self) -> None:
        self._remember()
        wiz = self.wizard()
        inner = QWidget()
        lay = QVBoxLayout(inner)
        self.boxes = {}
        tables = wiz.table_files()  # type: ignore[attr-defined]
        for key, title, columns, fields in tables:
            group = QGroupBox(title)
            form = QFormLayout(group)
            combos = {}
            for fld in fields:
                box = QComboBox()
                box.setObjectName(f"map_{fld}")
                box.addItem(AUTO)
                box.addItems(columns)
                box.setCurrentText(self._chosen.get(key, {}).get(fld, AUTO))
                form.addRow(fld, box)
                combos[fld] = box
            self.boxes[key] = combos
            lay.addWidget(group)
        if not tables:
            lay.addWidget(QLabel("No table among the files needs a column mapping: the formats were "
                                 "recognised from their content."))
        lay.addStretch(1)
        self.area.setWidget(inner)

    def _remember(self) -> None:
        for key, combos in self.boxes.items():
            self._chosen[key] = {f: b.currentText() for f, b in combos.items()}

    def set_mapping(self, key: str, field: str, column: str) -> None:
        self.boxes[key][field].setCurrentText(column)

    def mapping(self, key: str) -> dict[str, str] | None:
        """The fields chosen for one file (``None`` when all are automatic)."""
        self._remember()
        chosen = {f: c for f, c in self._chosen.get(key, {}).items() if c != AUTO}
        return mapping_to_columns(chosen) or None


class PreviewPage(QWizardPage):
    """What was detected in every file and every problem, before anything is created."""

    def __init__(self) -> None:
        super().__init__()
        self.setTitle("Preview")
        self.setSubTitle("What the files hold and every problem found. Nothing has been created yet.")
        self.summary = QLabel()
        self.summary.setObjectName("preview_summary")
        self.summary.setWordWrap(True)
        self.summary.linkActivated.connect(lambda _link: self.summary.setText(self._expanded))
        self._expanded = ""
        self.files = QTreeWidget()
        self.files.setObjectName("preview_files")
        self.files.setHeaderLabels(["Kind", "File", "Format", "Sets", "Problems"])
        self.files.setRootIsDecorated(False)
        self.problems = QListWidget()
        self.problems.setObjectName("preview_problems")
        # a long problem wraps in the list's width instead of running off its right edge (#23)
        self.problems.setWordWrap(True)
        self.problems.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.problems.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.problems.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.output = QLineEdit()
        self.output.setObjectName("output_path")
        self.output.setPlaceholderText("where the project file (.hadj) is written")
        self.output.textChanged.connect(self._output_changed)
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        self.replace = QCheckBox("Replace the existing file")
        self.replace.toggled.connect(self.completeChanged.emit)
        self.replace.hide()
        self.status = QLabel()
        self.status.setObjectName("preview_status")
        self.status.setWordWrap(True)
        self.server = ServerChoice(self)  # or: create it on a PostgreSQL server (a URL)
        self.server.changed.connect(self._where_changed)
        self._file_row = [QLabel("Project file:"), self.output, browse]
        out = QHBoxLayout()
        for k, w in enumerate(self._file_row):
            out.addWidget(w, 1 if k == 1 else 0)
        lay = QVBoxLayout(self)
        lay.addWidget(self.summary)
        lay.addWidget(self.files, 2)
        lay.addWidget(QLabel("<b>Problems</b>"))
        lay.addWidget(self.problems, 2)
        lay.addLayout(out)
        lay.addWidget(self.replace)
        lay.addWidget(self.server)
        lay.addWidget(self.status)
        self.report: dict | None = None
        self.created = False

    def initializePage(self) -> None:
        self.created = False
        self.status.clear()
        if not self.output.text():
            wiz = self.wizard()
            self.output.setText(str(default_project_path(wiz.annotation.paths())))  # type: ignore[attr-defined]
        self.wizard().run_preview()  # type: ignore[attr-defined]

    def show_report(self, report: dict | None) -> None:
        self.report = report
        self.files.clear()
        self.problems.clear()
        if report is None:
            self.summary.setText("The preview was cancelled: go back and forth to read the files again.")
            self.completeChanged.emit()
            return
        for f in report["files"]:
            n = sum(1 for p in report["errors"] + report["warnings"] if p["file"] == f["path"])
            row = QTreeWidgetItem([f["kind"], os.path.basename(f["path"]),
                                   "failed" if f["failed"] else (f["format"] or ""),
                                   _sets_cell(f["sets"], name_one=True),
                                   str(n) if n else ""])
            row.setToolTip(1, f["path"])
            row.setToolTip(3, _names_tip(f["sets"]))
            if f["failed"]:
                row.setForeground(2, QBrush(_ERROR))
            self.files.addTopLevelItem(row)
        for c in range(5):
            self.files.resizeColumnToContents(c)
        for severity, color, mark in (("errors", _ERROR, "✖ error"), ("warnings", _WARNING, "⚠ warning")):
            for p in report[severity]:
                where = os.path.basename(p["file"]) + (f":{p['line']}" if p["line"] is not None else "")
                item = QListWidgetItem(f"{mark}  {where}: {p['message']}")
                item.setForeground(QBrush(color))
                item.setToolTip(p["file"])
                self.problems.addItem(item)
        if not report["errors"] and not report["warnings"]:
            self.problems.addItem("No problem found.")
        sets = sets_summary(report)
        if len(report["sets"]) > NAMED_SETS:  # a crowd: counted; its names one click away
            sets += " (<a href='expand'>name every set</a>)"
        bad = bad_line_count(report)
        if any(f["failed"] for f in report["files"]):
            verdict = "<b style='color:#b00020'>A file could not be read: fix it before creating the project.</b>"
        elif bad:
            verdict = (f"<b style='color:#b00020'>{bad} line(s) with problems: fix them, or create the project "
                       "without them (you will be asked).</b>")
        else:
            verdict = "<b>Ready to create.</b>"
        no_inventory = not any(f["kind"] == "inventory" for f in report["files"])
        flat = "<br>No inventory: every tag becomes a sense of its own (a flat inventory per lexelt)." if no_inventory else ""
        senses = (f"{len(report['outside_tags'])} distinct tags as senses" if no_inventory
                  else f"{report['senses']} senses")
        self.summary.setText(f"{report['lexelts']} lexelts, {senses}, {report['instances']} "
                             f"instances. Sets: {sets or 'none'}.{flat}<br>{verdict}")
        self._expanded = (f"{report['lexelts']} lexelts, {senses}, {report['instances']} instances. Sets: "
                          f"{html.escape(sets_summary(report, expand=True)) or 'none'}.{flat}<br>{verdict}")
        self.completeChanged.emit()

    def _output_changed(self, text: str) -> None:
        self.replace.setVisible(bool(text) and Path(text).exists())
        self.completeChanged.emit()

    def _browse(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Project file", self.output.text(), "Projects (*.hadj)")
        if path:
            self.output.setText(path if path.endswith(".hadj") else path + ".hadj")
            if Path(self.output.text()).exists():
                self.replace.setChecked(True)  # the save dialog asked already

    def _where_changed(self) -> None:
        on = self.server.chosen()
        for w in self._file_row:
            w.setEnabled(not on)
        self.replace.setVisible(not on and bool(self.output.text()) and Path(self.output.text()).exists())
        self.status.setText((self.server.problem() or "") if on else "")
        self.completeChanged.emit()

    def output_path(self) -> str:
        """The new project's location: the file, or the server URL when that is chosen."""
        return self.server.location() if self.server.chosen() else self.output.text().strip()

    def isComplete(self) -> bool:
        r = self.report
        path = self.output_path()
        if self.server.chosen():
            ok_path = self.server.problem() is None
        else:
            ok_path = bool(path) and (not Path(path).exists() or self.replace.isChecked())
        # lines with problems do not block: creating asks first (validatePage)
        return r is not None and not any(f["failed"] for f in r["files"]) and ok_path

    def validatePage(self) -> bool:
        if self.created:
            return True
        bad = bad_line_count(self.report) if self.report else 0
        if bad and not self.ask_skip(bad):
            self.status.setText("Not created: fix the lines listed above, or create again and choose to "
                                "leave them out.")
            return False
        self.wizard().create_project(skip_bad_lines=bool(bad))  # type: ignore[attr-defined]
        return False

    def ask_skip(self, bad: int) -> bool:
        """Ask whether to create the project without the ``bad`` lines (default: no)."""
        first = (self.report or {}).get("errors", [])[:3]
        where = "; ".join(os.path.basename(p["file"]) + (f":{p['line']}" if p["line"] is not None else "")
                          + f": {p['message']}" for p in first)
        answer = QMessageBox.question(
            self, "Lines with problems",
            f"{bad} line(s) of the input files have problems and would be left out of the project"
            + (f" (first: {where})" if where else "") + ".\n\nCreate the project without them?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No)
        return answer == QMessageBox.StandardButton.Yes


def default_project_path(data: list[str]) -> Path:
    """Where a new project goes unless the user says otherwise: the user's documents folder (made
    when missing), never the data's own folder (a system or read-only place such as
    /usr/share/wordnet), named after the first annotation file and not replacing a file."""
    from PySide6.QtCore import QStandardPaths

    folder = Path(QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
                  or Path.home())
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        pass
    if not (folder.is_dir() and os.access(folder, os.W_OK)):
        folder = Path.home()
    stem = Path(data[0]).name.split(".")[0] if data else ""
    stem = "".join(c if c.isalnum() or c in "-_ " else "_" for c in stem).strip() or "project"
    path, k = folder / f"{stem}.hadj", 2
    while path.exists():
        path, k = folder / f"{stem}-{k}.hadj", k + 1
    return path


def bad_line_count(report: dict) -> int:
    """Lines the readers dropped (errors and duplicate answers), as the reading policy counts them."""
    per_file = sum(f["skipped_lines"] + f["duplicates"] for f in report["files"])
    return max(per_file, len(report["errors"]))


FIELDS = {"inventory": INVENTORY_FIELDS, "annotations": ANNOTATION_FIELDS}


def _sets_cell(names, *, name_one: bool = False) -> str:
    """A file's sets in one table cell: named when few, counted for a crowd (228 ids pushed Role and
    Name off-screen); a single set is "one set" unless ``name_one``."""
    names = list(names)
    if len(names) > NAMED_SETS:
        return f"{len(names)} sets (a crowd)"
    return ", ".join(names) if len(names) > 1 or name_one else ("one set" if names else "")


def _names_tip(names) -> str:
    names = list(names)
    shown = names[:40]
    return "\n".join(shown) + (f"\n… and {len(names) - 40} more" if len(names) > 40 else "")
