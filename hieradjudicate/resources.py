"""The files shipped with the program: the demo's inputs, the icons, the desktop files.

They live in the checkout's top-level ``resources/`` folder.  Wheels (and so pip and pipx
installs) carry that folder as the data package ``hieradjudicate._resources`` (a setuptools
``package-dir`` mapping in pyproject.toml), and the PyInstaller bundle puts it at the same place
(packaging/hieradjudicate.spec), so :func:`resource_path` finds it through
:mod:`importlib.resources` wherever the package was imported from.  A source checkout or an
editable install (``pip install -e .``) has no ``hieradjudicate/_resources``: there the folder
next to the package is used.

No Qt here: the command line uses it too.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources as _ilr
from pathlib import Path

#: Name of the data folder inside the installed package.
DATA_PACKAGE = "_resources"


@lru_cache(maxsize=1)
def resources_root() -> Path:
    """The folder holding ``demo/``, ``icons/`` and ``desktop/``."""
    pkg = _ilr.files("hieradjudicate")
    installed = pkg / DATA_PACKAGE
    if installed.is_dir():
        return Path(str(installed))
    checkout = Path(str(pkg)).parent / "resources"
    if (checkout / "demo").is_dir():
        return checkout
    from hieradjudicate.core.errors import HieradjError

    raise HieradjError(f"the program's resources (demo, icons, desktop files) are missing from this "
                       f"installation: neither {installed} nor {checkout} exists")


def resource_path(*parts: str) -> Path:
    """A shipped file or folder, e.g. ``resource_path("demo", "inventory.txt")``."""
    return resources_root().joinpath(*parts)


def icon_path(size: int | None = 256) -> Path:
    """The application icon: a PNG of ``size`` pixels (16, 32, 48, 64, 128, 256) or, with None, the SVG."""
    if size is None:
        return resource_path("icons", "hicolor", "scalable", "apps", "io.github.hieradjudicate.svg")
    return resource_path("icons", "hicolor", f"{size}x{size}", "apps", "io.github.hieradjudicate.png")
