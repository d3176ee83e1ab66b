"""The only package that imports PySide6 and pyqtgraph."""
