"""Readers of sense inventories (every format becomes core.inventory statements).

``common`` holds what the readers share; one module per format (``table``, ``outline``,
``sensemap``, ``dictionary``, ``json_tree``); ``read`` detects the format and dispatches.
May import ``core`` and ``io.textfile``; never ``app`` or Qt.
"""
