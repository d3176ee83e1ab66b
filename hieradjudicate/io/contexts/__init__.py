"""Readers of instance contexts (the sentence or passage shown beside an instance).

``read`` reads the Senseval lexical-sample XML and context tables.  May import ``core`` and
``io.textfile``; never ``app`` or Qt.
"""
