"""Options and argument parsing shared by every command group (imported by them, importing none)."""

from __future__ import annotations

import argparse

from hieradjudicate.core.errors import HieradjError


def add_inputs(p: argparse.ArgumentParser, *, annotations: bool = True) -> None:
    p.add_argument("--inventory", action="append", default=[], metavar="PATH",
                   help="sense inventory file (sense map, dictionary XML, tree table, outline, JSON); repeatable")
    if annotations:
        p.add_argument("--annotations", action="append", default=[], metavar="[NAME=]PATH[:ROLE]",
                       help="annotation file (Senseval key/answers, long/wide table, JSON Lines); repeatable")
    p.add_argument("--tree-columns", metavar="FIELD=COL,...",
                   help="column mapping for tree tables, e.g. sense=node_id,parent=parent_id,gloss=label")
    p.add_argument("--downward", default="uniform", metavar="uniform|estimate:SET",
                   help="downward probabilities: uniform (default; explicit weights and branching factors "
                        "of the inventory apply) or estimated from the leaf tags of annotation set SET, add-one smoothed")
    p.add_argument("--format", choices=("text", "json", "csv"), default="text", help="output format")


def specs(args: argparse.Namespace, attr: str = "annotations", role: str = "annotator"):
    """The ``--annotations``-style options of ``args`` as annotation set specifications."""
    from hieradjudicate.app.loading.specs import AnnotationSpec

    return [AnnotationSpec.parse(a, role) for a in getattr(args, attr, [])]


def parse_columns(text: str | None) -> dict[str, str] | None:
    if not text:
        return None
    out = {}
    for part in text.split(","):
        k, sep, v = part.partition("=")
        if not sep or not k.strip() or not v.strip():
            raise HieradjError(f"--tree-columns: expected FIELD=COLUMN pairs separated by commas, got {part!r}")
        out[k.strip()] = v.strip()
    return out
