"""The HTML report a lead can mail: one self-contained page of the dashboard's figures (``html``)
with its SVG charts (``svg``), and the tables written beside it as CSV.  May import ``core``,
``io`` and ``app.dashboard``; never Qt.
"""
