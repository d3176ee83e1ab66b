"""Where the user guide is on this machine, for **Help ▸ User guide** (no Qt here).

The guide is the Markdown of the checkout's ``docs/`` folder, built into HTML by MkDocs
(``mkdocs build`` writes ``site/`` beside ``docs/``).  Wheels carry the Markdown and its pictures as
the data package ``hieradjudicate._guide`` (a ``package-dir`` mapping in pyproject.toml, as for
``_resources``).  The best copy found is opened: the built HTML, else the Markdown pages; with
neither, :data:`NOT_FOUND` says where to read the guide.
"""

from __future__ import annotations

from importlib import resources as _ilr
from pathlib import Path

#: Inside the installed package: the guide's Markdown and pictures.
DATA_PACKAGE = "_guide"

NOT_FOUND = ("The user guide is not installed with this copy of hieradjudicate. It is the docs/ folder "
             "of the program's source (start with docs/index.md, or build it as HTML with "
             "`pip install -e '.[docs]' && mkdocs build`); every command is also described by "
             "`hieradjudicate COMMAND --help`.")


def guide_candidates() -> list[Path]:
    """The places the guide's front page may be, best first."""
    pkg = Path(str(_ilr.files("hieradjudicate")))
    shipped = [pkg / DATA_PACKAGE / "site" / "index.html",  # a built copy shipped inside the package
               pkg / DATA_PACKAGE / "index.md"]             # the Markdown a wheel carries
    checkout = pkg.parent
    if not (checkout / "mkdocs.yml").is_file():  # site-packages: its docs/ or site/ would be another's
        return shipped
    return [checkout / "site" / "index.html", *shipped, checkout / "docs" / "index.md"]


def guide_entry() -> Path | None:
    """The guide's front page on this machine (an existing file), or None when there is none."""
    return next((p for p in guide_candidates() if p.is_file()), None)
