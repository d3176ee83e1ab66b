"""hieradjudicate: adjudicate word-sense annotations over hierarchical sense inventories."""

__version__ = "0.1.0"
