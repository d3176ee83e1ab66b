"""Agreement and adjudication over time (issue 32), no Qt.

* :mod:`.decisions` -- points per day, week or N decisions (counts, scores against the gold so far,
  how often the gold overturns the majority), with :mod:`.replay` (the history as arrays) and
  :mod:`.scores` (every set's score kept incrementally) and :mod:`.resume` (the closed points kept in
  the project: a view after more decisions computes only the new points);
* :mod:`.imports` -- annotator agreement at each import and re-import;
* :mod:`.marks` -- markers, before/after differences, the finishing forecast;
* :mod:`.dated` -- the dates inside the inputs: agreement and drift by week of annotation;
* :mod:`.team` -- the lead's team over time;
* :mod:`.view` -- all of it for one open project (the command line, the report, the window).
"""
