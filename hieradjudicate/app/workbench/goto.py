"""Go > Go to instance (no Qt): what a typed instance reference names.

Accepted forms: ``lexelt instance`` (``work-n 1.1``, as the table's two
columns read), ``lexelt/instance`` and a bare instance id when only one
lexelt has it.  One comparison over the id column (vectorised), never a loop
per instance.
"""

from __future__ import annotations

from typing import Any

import numpy as np

Workbench = Any  # hieradjudicate.app.workbench.queue.Workbench (imported by it: no cycle)


def find_instance(wb: Workbench, text: str) -> tuple[int, str]:
    """``(instance index, "")`` of the instance ``text`` names, or ``(-1, why not)``."""
    text = text.strip()
    if not text:
        return -1, "Type an instance id, or a lexelt and an instance id (e.g. “work-n 1.1”)"
    for sep in (" ", "\t", "/"):
        if sep in text:
            lex, inst = (p.strip() for p in text.split(sep, 1))
            i = wb.corpus.instance_index(lex, inst)
            if i >= 0:
                return i, ""
    hits = np.flatnonzero(wb.cols.inst_id == text)
    if hits.size == 1:
        return int(hits[0]), ""
    if hits.size > 1:
        lexelts = sorted({wb.cols.lexelt_names[int(x)] for x in wb.cols.lexelt[hits[:20]]})
        return -1, (f"{hits.size} lexelts have an instance {text!r} ({', '.join(lexelts[:5])}"
                    f"{', …' if len(lexelts) > 5 else ''}): type the lexelt too, e.g. “{lexelts[0]} {text}”")
    return -1, f"No instance {text!r} in this project"
