"""The adjudication workbench's widgets: the instance list model (``instance_model``),
the detail panel with the sense tree (``detail_panel``, ``inventory_tree``), the live agreement
panel, the pick dialog, the help overlay, the read-only banner and the dock ``workspace``.
May import ``app``, ``core`` and ``gui`` base modules (``colors``, ``actions``, ``workers``).
"""
