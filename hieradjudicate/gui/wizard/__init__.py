"""The new-project wizard (``wizard``) and its pages (``pages``).  May import ``app``,
``core`` and ``gui`` base modules.
"""
