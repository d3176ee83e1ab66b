"""The one action table: every command's id, text, shortcut, handler and menu.

Menus, toolbar buttons and the ``?`` help overlay are all generated from
:data:`ACTIONS`, so a shortcut cannot be documented in one place and bound
differently in another.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu, QToolBar


@dataclass(frozen=True)
class ActionSpec:
    id: str
    text: str
    shortcut: str | QKeySequence.StandardKey | None
    handler: str  # method name on the main window, or "dashboard.NAME" on its dashboard controller
    menu: str
    toolbar: bool = False
    tip: str = ""
    arg: object = None


def _take(k: int) -> ActionSpec:
    return ActionSpec(f"take{k}", f"Take answer of set {k}", str(k), "take_set", "Decide", False,
                      f"Make the answer of the {k}th set shown the gold and move on", k)


ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec("new", "&New project…", QKeySequence.StandardKey.New, "new_project", "File"),
    ActionSpec("open", "&Open project…", QKeySequence.StandardKey.Open, "open_project", "File"),
    ActionSpec("open_server", "Open from &server…", None, "server.open_dialog", "File", False,
               "Open a team project on a PostgreSQL server"),
    ActionSpec("demo", "Open the &demo", None, "open_demo", "File"),
    ActionSpec("close", "&Close project", QKeySequence.StandardKey.Close, "close_project", "File"),
    ActionSpec("export_gold", "Export &gold…", "Ctrl+Shift+E", "project_ops.export_gold", "File", False,
               "Write the adjudicated gold standard in any format the command line's project export writes"),
    ActionSpec("import_decisions", "&Import decisions (CSV)…", None, "project_ops.import_decisions", "File", False,
               "Record the decisions of a CSV file (lexelt, instance, tags) as one undoable step"),
    ActionSpec("reimport", "Re-import a &set…", None, "project_ops.reimport_set", "File", False,
               "Replace a changed annotation file; the decisions whose basis changed are flagged"),
    ActionSpec("export_report", "Export &report…", "Ctrl+Shift+R", "dashboard.export_report", "File", False,
               "Write the agreement report of the whole project as one self-contained HTML file"),
    ActionSpec("export_tables", "Export dashboard &tables…", None, "dashboard.export_tables", "File", False,
               "Write every dashboard table as CSV or JSON"),
    ActionSpec("export_plots", "Export dashboard &plots (PNG)…", None, "dashboard.export_plots", "File", False,
               "Write every dashboard plot as a PNG file"),
    ActionSpec("quit", "&Quit", QKeySequence.StandardKey.Quit, "close", "File"),
    ActionSpec("undo", "&Undo", QKeySequence.StandardKey.Undo, "undo", "Edit", True, "Undo the last decision"),
    ActionSpec("redo", "&Redo", QKeySequence.StandardKey.Redo, "redo", "Edit", True, "Redo"),
    ActionSpec("find", "&Find in table", QKeySequence.StandardKey.Find, "focus_search", "Edit"),
    ActionSpec("clear_filter", "Show &all instances", "Ctrl+Shift+A", "clear_filter", "Edit"),
    ActionSpec("disjoint", "Show &disjoint disagreements", "Ctrl+D", "filter_disjoint", "Edit"),
    *(_take(k) for k in range(1, 10)),
    ActionSpec("suggest", "&Suggestion", "A", "take_suggestion", "Decide", True,
               "Take the suggested answer (most annotators) and move on"),
    ActionSpec("suggest_weighted", "&Competence-weighted suggestion", "Shift+A", "take_weighted_suggestion",
               "Decide", True, "Take the most probable sense of the competence model (annotators weighted by "
               "their estimated competence) and move on"),
    ActionSpec("pick", "&Pick…", "Space", "pick_senses", "Decide", True,
               "Choose one or more senses in the tree"),
    ActionSpec("resolve_agreed", "&Resolve what the annotators agree on…", "Ctrl+Shift+G",
               "project_ops.resolve_agreed", "Decide", False,
               "Resolve every unresolved instance all annotator sets agree on, as one undoable step (with a "
               "preview of how many)"),
    ActionSpec("flag", "&Flag or unflag", "F", "flag", "Decide", True, "Flag for discussion, or unflag"),
    ActionSpec("skip", "S&kip", "S", "skip", "Decide", True, "Mark as skipped and move on"),
    ActionSpec("note", "&Note…", "E", "edit_note", "Decide", True, "Write a note on the instance"),
    ActionSpec("next", "&Next", "N", "next_unresolved", "Go", True, "Next unresolved instance"),
    ActionSpec("prev", "&Previous", "P", "prev_unresolved", "Go", True,
               "Previous unresolved instance"),
    ActionSpec("goto", "&Go to instance…", "Ctrl+G", "go_to_instance", "Go", False,
               "Select an instance by its lexelt and id (e.g. work-n 1.1)"),
    ActionSpec("document", "Document &context…", "D", "show_document", "Go", False,
               "The sentences around the instance or its whole document, the other instances of its lemma "
               "marked, and its senses' definitions and examples"),
    ActionSpec("auto", "Move on after &deciding", None, "toggle_auto_advance", "Go"),
    ActionSpec("uncertain", "Most &uncertain first", "Ctrl+U", "order_most_uncertain", "Go", False,
               "Order the instances by the competence model's uncertainty (posterior entropy), "
               "most uncertain first"),
    ActionSpec("workbench_tab", "&Workbench", "Ctrl+1", "dashboard.show_workbench", "Go", False, "Show the instance table"),
    ActionSpec("dashboard_tab", "Das&hboard", "Ctrl+2", "dashboard.show_dashboard", "Go", False,
               "Show the agreement dashboard (plots of the current filter)"),
    ActionSpec("mine", "Only &my assignments", "Ctrl+Shift+M", "server.show_mine", "Go", False,
               "A server project: show only the instances assigned to you"),
    ActionSpec("team", "&Team progress and conflicts…", "Ctrl+Shift+T", "server.show_team", "Go", False,
               "A server project's adjudicators (progress, speed, kappa on the overlap, overturns) and "
               "the conflict queue (the lead's)"),
    ActionSpec("help", "&Keyboard shortcuts", "?", "show_help", "Help"),
    ActionSpec("guide", "&User guide", None, "show_guide", "Help", False,
               "Open the user guide installed with the program (docs/: tasks, input formats, every command)"),
    ActionSpec("about", "&About hieradjudicate", None, "show_about", "Help"),
)

MENUS = ("File", "Edit", "Decide", "Go", "Help")
#: Actions that change decisions: disabled while a project is open read-only.
DECIDING = tuple(s.id for s in ACTIONS if s.menu == "Decide") + ("undo", "redo", "import_decisions", "reimport")


def shortcut_text(spec: ActionSpec) -> str:
    if spec.shortcut is None:
        return ""
    seq = QKeySequence(spec.shortcut)
    return seq.toString(QKeySequence.SequenceFormat.NativeText)


def _handler(window: QMainWindow, path: str):
    """The bound method a dotted handler name leads to from the window (``dashboard.show_dashboard``)."""
    obj: object = window
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def build_actions(window: QMainWindow) -> dict[str, QAction]:
    """Create every action, wire it to its handler and build the menus and the toolbar."""
    actions: dict[str, QAction] = {}
    menus: dict[str, QMenu] = {name: window.menuBar().addMenu("&" + name) for name in MENUS}
    toolbar = QToolBar("Decide", window)
    toolbar.setObjectName("toolbar")
    window.addToolBar(toolbar)
    for spec in ACTIONS:
        act = QAction(spec.text, window)
        act.setObjectName(f"action_{spec.id}")
        if isinstance(spec.shortcut, QKeySequence.StandardKey):
            # every binding of the platform's standard key (Close is Ctrl+F4 *and* Ctrl+W on
            # Linux; QKeySequence(StandardKey) keeps only the first)
            act.setShortcuts(spec.shortcut)
        elif spec.shortcut is not None:
            act.setShortcut(QKeySequence(spec.shortcut))
        if spec.toolbar and spec.shortcut is not None and spec.id not in ("undo", "redo"):
            act.setIconText(f"{spec.text.replace('&', '').rstrip('…')} [{shortcut_text(spec)}]")
        if spec.tip:
            act.setStatusTip(spec.tip)
            act.setToolTip(f"{spec.tip} ({shortcut_text(spec)})")
        handler = _handler(window, spec.handler)
        if spec.id in ("auto", "mine"):
            act.setCheckable(True)
            act.setChecked(spec.id == "auto")
            act.toggled.connect(handler)
        elif spec.arg is not None:
            act.triggered.connect(lambda _=False, h=handler, a=spec.arg: h(a))
        else:
            act.triggered.connect(lambda _=False, h=handler: h())
        menus[spec.menu].addAction(act)
        if spec.toolbar:
            toolbar.addAction(act)
        window.addAction(act)
        actions[spec.id] = act
    return actions


def help_html() -> str:
    """The ``?`` overlay: every shortcut of the action table, grouped by menu, in two columns
    (one column was 729 px high: more than a 768 px screen leaves a window)."""
    columns: list[list[str]] = [[], []]
    for menu in MENUS:
        specs = [s for s in ACTIONS if s.shortcut is not None and s.menu == menu]
        if menu == "Decide":
            specs = [s for s in specs if not s.id.startswith("take") or s.id == "take1"]
        if not specs:
            continue
        col = columns[0 if menu in ("File", "Edit") else 1]
        col.append(f"<tr><td colspan=2><b>{menu}</b></td></tr>")
        for s in specs:
            key = "1 – 9" if s.id == "take1" else shortcut_text(s)
            text = "Take answer 1–9 (as numbered in the table or the answer list)" if s.id == "take1" else s.text
            # room between a long shortcut and its action ("Ctrl+Shift+EExport gold…" ran together)
            col.append(f"<tr><td style='padding-right:10px'><code>{key}</code></td>"
                       f"<td>{text.replace('&', '')}</td></tr>")
    cells = "".join(f"<td valign=top><table cellspacing=3>{''.join(c)}</table></td>" for c in columns)
    return (f"<h3>Keyboard shortcuts</h3><table cellspacing=8><tr>{cells}</tr></table>"
            "<p>Press any key or click to close.</p>")
