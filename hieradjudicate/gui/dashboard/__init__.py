"""The dashboard tab: its controller owned by the main window (``controller``), the tab
widget (``dashboard``), the agreement/score plots (``plots``, ``gold_plots``) and shared helpers
(``common``).  May import ``app``, ``core``, ``gui`` base modules and the workbench's workspace (the
controller filters it on a click in a plot).
"""
