"""What the program writes for other tools: gold-standard exports (``gold``) and spreadsheet-safe
CSV text (``csvsafe``).  May import ``core``, the ``io`` readers and ``io.store``; never ``app`` or Qt.
"""
