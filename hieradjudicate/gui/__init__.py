"""The only package that imports PySide6 and pyqtgraph."""

from hieradjudicate.gui._pyside_compat import make_none_immortal

make_none_immortal()  # before any PySide6 call: see the module's docstring
