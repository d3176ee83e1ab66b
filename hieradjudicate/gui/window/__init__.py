"""Parts of the main window (see :mod:`hieradjudicate.gui.main_window`)."""
