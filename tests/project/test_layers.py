"""The layer split: core, io and app never load Qt, nor does any non-GUI command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
QT = ("PySide6", "shiboken6", "pyqtgraph")


def _run(code: str) -> list[str]:
    env = dict(os.environ)
    env.pop("QT_QPA_PLATFORM", None)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_core_io_app_load_no_qt():
    code = (
        "import sys, json, pkgutil, importlib\n"
        "import hieradjudicate.core, hieradjudicate.io, hieradjudicate.app\n"
        "for pkg in (hieradjudicate.core, hieradjudicate.io, hieradjudicate.app):\n"
        "    for m in pkgutil.iter_modules(pkg.__path__):\n"
        "        importlib.import_module(pkg.__name__ + '.' + m.name)\n"
        f"print(json.dumps([m for m in sys.modules if m.split('.')[0] in {QT!r}]))\n"
    )
    assert _run(code) == []


def test_core_is_pure_numpy():
    code = (
        "import sys, json, pkgutil, importlib\n"
        "import hieradjudicate.core as c\n"
        "for m in pkgutil.iter_modules(c.__path__):\n"
        "    importlib.import_module('hieradjudicate.core.' + m.name)\n"
        "print(json.dumps([m for m in sys.modules if m.split('.')[0] in ('pandas', 'scipy', 'PySide6')]))\n"
    )
    assert _run(code) == []


def test_cli_non_gui_commands_load_no_qt():
    demo = ROOT / "resources" / "demo"
    args = ["validate", "--inventory", str(demo / "inventory.txt"), "--annotations", str(demo / "annotator_ann.key"),
            "--format", "json"]
    code = (
        "import sys, json, io, contextlib\n"
        "from hieradjudicate.cli.entry import main\n"
        "buf = io.StringIO()\n"
        f"with contextlib.redirect_stdout(buf):\n    rc = main({args!r})\n"
        "assert rc in (0, 1), rc\n"
        f"print(json.dumps([m for m in sys.modules if m.split('.')[0] in {QT!r}]))\n"
    )
    assert _run(code) == []
