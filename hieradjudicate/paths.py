"""Where the shipped resources (demo, icons, desktop files) are.

In the source tree and in editable installs they are the top-level ``resources/`` folder;
wheels and the PyInstaller bundle carry the same folder as ``hieradjudicate/resources``.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def resources_root() -> Path:
    for cand in (_PACKAGE / "resources", _PACKAGE.parent / "resources"):
        if (cand / "demo").is_dir():
            return cand
    from hieradjudicate.core.errors import HieradjError

    raise HieradjError("the program's resources (demo, icons) are missing from this installation")


def resource_path(*parts: str) -> Path:
    """A shipped file or folder, e.g. ``resource_path("demo", "inventory.txt")``."""
    return resources_root().joinpath(*parts)
