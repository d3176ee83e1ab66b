"""From file names to a corpus: set specifications (``specs``), format sniffing (``sniff``)
and loading with validation reports (``load``).  May import ``core`` and ``io``; never Qt.
"""
