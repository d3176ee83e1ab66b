"""Readers of annotation sets (annotators' tags, systems' weighted answers).

One module per format (``senseval``, ``tables``, ``wide``, ``jsonl``); ``build`` turns parsed rows
into the core annotation arrays; ``read`` detects the format and dispatches.  May import
``core`` and ``io.textfile``; never ``app`` or Qt.
"""
