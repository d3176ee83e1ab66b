"""The open project: ``session`` (open/save, execute/undo/redo, navigation), its decisions
(``decisions``) and undoable commands (``commands``), the batch resolutions (``batch``), re-import
of changed inputs (``reimport``) and the derived-array cache (``cache``).  May import ``core``,
``io`` and ``app.loading``; never Qt.
"""
