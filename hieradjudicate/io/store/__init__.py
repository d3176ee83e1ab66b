"""The SQLite project store: schema and migrations (``schema``), row codecs for decisions
and input copies (``records``), and the store itself (``project_store``).  May import ``core``
and ``io``; never ``app`` or Qt.
"""
