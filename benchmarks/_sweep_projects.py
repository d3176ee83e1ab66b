"""The projects the screen sweep shows (``demo``, ``masc``, ``wsbest``, ``wsd``), built once into a folder.

Shared by ``screen_sweep.py`` (the parent, which builds them before the sizes) and ``sweep_child.py``
(the child on each virtual screen), so neither imports the other.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _data() -> Path | None:
    d = Path(os.environ.get("HIERADJ_REALDATA", ROOT.parent / "shared" / "data"))
    return d if d.is_dir() else None


def build(name: str, folder: Path) -> Path | None:
    """The project ``name`` (built once into ``folder``), or None when its data is missing."""
    from hieradjudicate.app.demo import ensure_demo_project

    if name == "demo":
        return ensure_demo_project(folder / "demo.hadj")
    d = _data()
    out = folder / f"{name}.hadj"
    if out.exists():
        return out
    if d is None or not (d / {"masc": "masc_amt", "wsbest": "wsbest", "wsd": "wsdeval"}[name]).is_dir():
        print(f"  {name}: skipped (no HIERADJ_REALDATA)")
        return None
    w = d / "wsdeval"
    args = {"masc": ["--inventory", d / "masc_amt/inventory_tree.tsv",
                     "--annotations", d / "masc_amt/masc_amt_labels_wide.tsv.gz"],
            "wsbest": ["--inventory", d / "wsbest/inventory_tree.tsv", "--annotations",
                       d / "wsbest/wsbest_selected_senses_per_annotator.tsv", "--contexts", d / "wsbest/uses.tsv.gz"],
            "wsd": ["--inventory", "/usr/share/wordnet", "--annotations", f"gold={w / 'ALL.gold.key.txt'}:gold",
                    "--annotations", f"lesk={w / 'ALL.lesk_example.key.txt'}:system",
                    "--contexts", w / "ALL.data.xml"]}[name]
    subprocess.run([sys.executable, "-m", "hieradjudicate", "project", "new", str(out), *map(str, args)],
                   check=True, stdout=subprocess.DEVNULL, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    return out
