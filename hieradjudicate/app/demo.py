"""The bundled demo project: found in ``resources/demo`` and made once in the user's data folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from hieradjudicate.app.loading.load import AnnotationSpec
from hieradjudicate.core.errors import HieradjError

DEMO_FILES = ("inventory.txt", "annotator_ann.key", "annotator_ben.key", "annotator_cho.key",
              "system_lesk.ans", "system_neural.ans", "contexts.tsv")
#: (file, set name, role) of the demo's annotation files.
DEMO_SETS = (("annotator_ann.key", "ann", "annotator"), ("annotator_ben.key", "ben", "annotator"),
             ("annotator_cho.key", "cho", "annotator"), ("system_lesk.ans", "lesk", "system"),
             ("system_neural.ans", "neural", "system"))


def data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "hieradjudicate"


def resources_dir() -> Path:
    """``resources/demo`` next to the package (source tree) or inside it (installed)."""
    from hieradjudicate.resources import resource_path

    return resource_path("demo")


def demo_inputs() -> Path:
    """The folder holding the demo's input files; written by ``generate.py`` when only it is shipped."""
    src = resources_dir()
    if all((src / f).is_file() for f in DEMO_FILES):
        return src
    gen = src / "generate.py"
    out = data_dir() / "demo-files"
    if not all((out / f).is_file() for f in DEMO_FILES):
        if not gen.is_file():
            raise HieradjError(f"the demo files are missing from {src}")
        out.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, str(gen), "--out", str(out)], check=True, capture_output=True)
    return out


def demo_specs(folder: Path) -> tuple[list[str], list[AnnotationSpec], list[str]]:
    return ([str(folder / "inventory.txt")],
            [AnnotationSpec(str(folder / f), name, role) for f, name, role in DEMO_SETS],
            [str(folder / "contexts.tsv")])


def demo_project_path() -> Path:
    return data_dir() / "demo.hadj"


def ensure_demo_project(path: Path | None = None, *, fresh: bool = False) -> Path:
    """Create the demo project (once) and return its path; ``fresh`` makes it again."""
    from hieradjudicate.app.session.session import Session

    target = path or demo_project_path()
    if target.exists() and not fresh:
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    inv, specs, ctx = demo_specs(demo_inputs())
    Session.create(target, inv, specs, ctx, overwrite=fresh).close()
    return target


def agreement_report() -> str:
    """A short command-line agreement report of the demo (when no display is available)."""
    from hieradjudicate.app.loading.load import load
    from hieradjudicate.app.workbench.columns import CATEGORY_LABELS
    from hieradjudicate.app.workbench.live import agreement_figures
    from hieradjudicate.app.workbench.queue import Workbench

    inv, specs, ctx = demo_specs(demo_inputs())
    corpus = load(inv, specs, ctx, strict=True).corpus
    assert corpus is not None
    wb = Workbench(corpus)
    fig = agreement_figures(wb)
    lines = [f"demo: {corpus.n} instances, {len(corpus.inventory.lexelts)} lexelts, "
             f"annotators {', '.join(fig.raters)}",
             f"Fleiss kappa (soft)      {fig.fleiss}",
             f"Krippendorff alpha       {fig.alpha}",
             f"mean pairwise Cohen      {fig.mean_cohen}", "instances by category:"]
    for c, label in CATEGORY_LABELS.items():
        k = int((wb.cols.category == c).sum())
        if k:
            lines.append(f"  {label:<12} {k}")
    return "\n".join(lines)
