"""The workbench's model without Qt: the instance queue with its filters and sort
(``queue``), the queue's columns (``columns``), suggested decisions (``suggest``) and the live
agreement panel's figures (``live``).  May import ``core``, ``io`` and ``app.stats``; never Qt.
"""
