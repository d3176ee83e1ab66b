"""The regression view's breakdowns beyond the tests' groupings: lexelt, sense depth and the
annotators' disagreement category, under every policy (no Qt).

* **sense depth** = depth in the sense tree of each instance's deepest gold tag ("1" = top
  level).  The leaf policy reads it from the loaded inventory; fine, coarse and mixed from
  the inventory given with ``--inventory`` (a sense map or a tree inventory: a sense's depth
  is one more than its number of ancestors).  Without an inventory it is not given, and the
  output says why.
* **category** = the instance's worst disagreement category over the annotators' pairs; it
  needs the annotators' labels: a project (the gold itself, or ``--project``).  Otherwise it
  is not given, and the output says why.
"""

from __future__ import annotations

import numpy as np

#: the label of an instance whose gold tags the inventory does not hold
NOT_IN_INVENTORY = "not in the inventory"
#: the label of an instance the project does not hold
NOT_IN_PROJECT = "not in the project"


def joined(lexelts, ids) -> np.ndarray:
    return np.char.add(np.char.add(np.asarray(lexelts, dtype=str), "\x00"), np.asarray(ids, dtype=str))


def project_categories(session) -> tuple[np.ndarray, np.ndarray]:
    """``(sorted keys "lexelt\\0instance", category name per key)`` of every instance of an open project."""
    from hieradjudicate.app.dashboard.dashboard import Dashboard
    from hieradjudicate.core.agreement.granularity import CATEGORY_NAMES

    every = session.instances()
    worst = np.asarray(Dashboard(session.corpus).worst_category, np.int64)
    names = np.array(list(CATEGORY_NAMES) + ["fewer than two annotators"])
    keys = joined([k[0] for k in every], [k[1] for k in every])
    order = np.argsort(keys)
    return keys[order], names[worst[order]]


def lookup(keys: np.ndarray, values: np.ndarray, want: np.ndarray, missing: str) -> np.ndarray:
    """``values`` at each of ``want`` in the sorted ``keys`` (``missing`` where absent)."""
    if not len(keys):
        return np.full(len(want), missing)
    pos = np.clip(np.searchsorted(keys, want), 0, len(keys) - 1)
    return np.where(keys[pos] == want, values[pos], missing)


def senseval_depth(args, lex: np.ndarray, ids: list) -> tuple[np.ndarray | None, str | None]:
    """Fine, coarse, mixed: ``(depth label per scored instance, None)``, or ``(None, why not)``."""
    smap, known = getattr(args, "sense_map", None), getattr(args, "sense_known", None)
    if not args.inventory or smap is None or not known:
        return None, ("sense depth is not given: no sense inventory was given (--inventory), so the depth "
                      "of a gold sense in the sense tree is unknown")
    from hieradjudicate.app.loading.load import read_annotation_file
    from hieradjudicate.app.loading.specs import AnnotationSpec

    src = read_annotation_file(AnnotationSpec.parse(args.gold, "gold"))
    tag_depth = np.array([len(smap.ancestors(t)) + 1 if t in known else 0 for t in src.tags] or [0], np.int64)
    item_depth = np.zeros(len(src.item_lexelt), np.int64)
    first = src.set == 0
    np.maximum.at(item_depth, src.item[first], tag_depth[src.tag[first]])
    labels = np.where(item_depth > 0, item_depth.astype(str), NOT_IN_INVENTORY)
    keys = joined(src.item_lexelt, src.item_instance)
    order = np.argsort(keys)
    return lookup(keys[order], labels[order], joined(lex, ids), NOT_IN_INVENTORY), None


def regression_groups(args, groups, lex_code, lexelts, extra, gold_info, lex, ids_at, n: int
                      ) -> tuple[list, list[str]]:
    """The test groupings and, for gained/lost, lexelt (always), sense depth and agreement
    category; with a sentence for each of the last two that cannot be given."""
    from hieradjudicate.core.compare.regression import Grouping, grouping

    out, notes = list(groups), []
    if not any(g.title == "lexelt" for g in out):
        out.append(Grouping("lexelt", np.asarray(lex_code, np.int64), list(lexelts)))
    ids = ids_at(np.arange(n)) if n else []
    if "sense depth" in extra:
        out.append(grouping("sense depth", extra["sense depth"]))
    else:
        depth, why = senseval_depth(args, lex, ids)
        if depth is not None:
            out.append(grouping("sense depth", depth))
        else:
            notes.append(why)
    if gold_info is not None:
        keys, cats = gold_info["category_keys"], gold_info["category"]
    elif args.project:
        from pathlib import Path

        from hieradjudicate.app.session.session import Session
        from hieradjudicate.core.errors import HieradjError

        if not Path(args.project).exists():
            raise HieradjError(f"{args.project}: no such project")
        with Session.open(args.project, read_only=True) as s:
            keys, cats = project_categories(s)
    else:
        notes.append("category is not given: the disagreement category of an instance needs the annotators' "
                     "labels; give the gold as a project (--gold P.hadj) or name one (--project P.hadj)")
        return out, notes
    if n:
        out.append(grouping("category", lookup(keys, cats, joined(lex, ids), NOT_IN_PROJECT)))
    return out, notes
