"""The dashboard's figures without Qt: the ``Dashboard`` facade (``dashboard``), its agreement
(``agree``), system-score (``scores``) and gold-progress (``gold``) parts, the records they
return (``records``) and their tables (``tables``).  May import ``core``, ``io`` and
``app.stats``; never Qt, never ``app.session``.
"""
