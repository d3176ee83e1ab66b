"""``compare``: systems against each other (Pedersen 2002), paired significance tests, the
regression view against a baseline (a file or a run stored in a project) and the range
of each figure while the gold is still being adjudicated (no Qt)."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

import numpy as np

from hieradjudicate.app.textout import csv_text, fmt, json_text, text_table
from hieradjudicate.cli.evaluation.compare_out import changes_rows, history_text, regression_text, tests_rows, tests_text
from hieradjudicate.cli.options import positive, unit_interval
from hieradjudicate.core.errors import HieradjError
from hieradjudicate.core.compare.significance import METRICS

SQLITE_MAGIC = b"SQLite format 3\x00"
#: policies whose difference range is worked out over the joint outcomes of the open instances
JOINT = ("fine", "coarse")  # and leaf, by the subtree recursion (core/scoring/open_range_tree.py)


def register(sub, add_inputs) -> None:
    from hieradjudicate.cli.metrics import add_scoring_inputs

    q = sub.add_parser("compare", help="compare systems: agreement (Pedersen 2002), paired significance "
                       "tests, the regression view against a baseline")
    add_scoring_inputs(q, add_inputs, "the gold standard (any annotation file, or a project P.hadj still "
                                      "being adjudicated: its resolved decisions)")
    q.add_argument("--threshold", type=unit_interval, default=1.0,
                   help="score an answer needs to be correct, in (0, 1] (default 1)")
    add_options(q)
    q.set_defaults(func=cmd_compare)


def add_options(q: argparse.ArgumentParser) -> None:
    q.add_argument("--shuffles", type=positive, default=10_000, metavar="N",
                   help="approximate randomization shuffles per test (default 10,000)")
    q.add_argument("--resamples", type=positive, default=1_000, metavar="N",
                   help="paired bootstrap resamples per test (default 1,000)")
    q.add_argument("--seed", type=int, default=0, help="seed of the shuffles and resamples (default 0)")
    q.add_argument("--by-lexelt", action="store_true",
                   help="also test every pair within every lexelt (by default: whole, data set, part of speech)")
    q.add_argument("--baseline", metavar="NAME|FILE",
                   help="the regression view: every --system against this run (a file, or the name of a run "
                        "stored with 'project add-run'; then give --project)")
    q.add_argument("--project", metavar="P.hadj",
                   help="the project holding the stored runs (--baseline NAME, and the run history)")
    q.add_argument("--csv-table", choices=("tests", "changes"), default="tests",
                   help="--format csv: the paired tests (default) or the gained/lost instances")


def _is_project(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(16) == SQLITE_MAGIC
    except OSError:
        return False


def _open_project(path: str):
    from hieradjudicate.app.session.session import Session

    if not Path(path).exists():
        raise HieradjError(f"{path}: no such project")
    return Session.open(path, read_only=True)


def _project_gold(args, tmp: Path) -> dict:
    """``--gold P.hadj``: the resolved decisions become the gold key; every other instance of the
    project is open (still being adjudicated)."""
    from hieradjudicate.app.runs import positions
    from hieradjudicate.cli.evaluation.compare_groups import project_categories

    with _open_project(args.gold) as s:
        key = tmp / "adjudicated.key"
        s.export(key, format="senseval")
        resolved = [(r.lexelt, r.instance) for r in s.decisions if r.status == "resolved"]
        every = s.instances()
        cat_keys, cats = project_categories(s)  # the annotators' worst pair, per instance
    decided = np.zeros(len(every), bool)
    at = positions(every, [k[0] for k in resolved], [k[1] for k in resolved])
    decided[at[at >= 0]] = True
    open_ = [every[i] for i in np.flatnonzero(~decided).tolist()]
    if not resolved:
        raise HieradjError(f"{args.gold}: no instance is resolved yet; there is no gold to score against "
                           f"({len(every)} instance(s) open)")
    args.project = args.project or args.gold
    project_path = args.gold
    args.gold = str(key)
    return {"project": project_path, "decided": len(every) - len(open_), "open": open_, "total": len(every),
            "category_keys": cat_keys, "category": cats}


def _baseline_spec(args, tmp: Path) -> str:
    b = args.baseline
    if os.path.exists(b):
        return f"baseline={b}"
    if not args.project:
        raise HieradjError(f"--baseline {b}: no such file; to compare against a stored run give the project "
                           "too (--project P.hadj)")
    from hieradjudicate.io.store.runs import run_bytes

    with _open_project(args.project) as s:
        data = run_bytes(s.store, b)
    path = tmp / f"run-{len(os.listdir(tmp))}.key"
    path.write_bytes(data)
    return f"{b}={path}"


def _scores(args, warn: bool = False):
    """``(names, scores (S, n), attempted (S, n), lexelt names per instance, ids_at(idx))``; ``warn``:
    say which answers name instances the gold lacks (not for a project's gold: its open instances)."""
    from hieradjudicate.cli.metrics import _leaf_scores, _senseval_scores, warn_unscored

    if args.policy == "leaf":
        corpus, results = _leaf_scores(args)
        gold_inst = results[0][1].gold_instances
        lex = np.asarray(corpus.inventory.lexelts, dtype=object)[corpus.inst_lexelt[gold_inst]]
        inst_ids = np.asarray(corpus.inst_id, dtype=object)[gold_inst]
        ids_at = lambda idx: inst_ids[idx].tolist()  # noqa: E731
        lexelts, lex_code = list(corpus.inventory.lexelts), corpus.inst_lexelt[gold_inst]
        extra = {"sense depth": _gold_depth(corpus, gold_inst)}
        args.leaf_corpus = corpus  # the open instances' leaf vectors (a gold still being adjudicated)
    else:
        results = _senseval_scores(args)
        r0 = results[0][1]
        lexelts, lex_code = list(r0.lexelts), r0.instance_lexelt
        lex = np.asarray(lexelts, dtype=object)[lex_code]
        ids_at = lambda idx: list(args.gold_ids_at(r0.instance_item[idx]))  # noqa: E731
        extra = {}
    if warn:
        warn_unscored(args, results)
    names = [n for n, _ in results]
    scores = np.vstack([r.instance_score for _, r in results])
    attempted = np.vstack([r.instance_attempted for _, r in results])
    return names, scores, attempted, lex, lex_code, lexelts, ids_at, extra


def _gold_depth(corpus, gold_inst: np.ndarray) -> np.ndarray:
    """Depth in the sense tree of each gold instance's deepest gold tag ("1" = top level)."""
    g = next(s for s in corpus.sets if s.role == "gold")
    n_tags = np.diff(g.tag_ptr)
    depth = np.zeros(g.n, dtype=np.int64)
    has = n_tags > 0
    if has.any():
        d = corpus.inventory.node_depth[g.tag_node]
        depth[has] = np.maximum.reduceat(d, g.tag_ptr[:-1][has])
    at = np.searchsorted(g.rows, gold_inst)
    return depth[at].astype(str)


def _open_ranges(args, names, scores, attempted, gold_info) -> dict:
    """Each system's P, R, F1 over every outcome of the open instances, and (fine, coarse, leaf)
    the range of every pair's difference over the joint outcomes (:mod:`hieradjudicate.core.scoring.open_range`,
    :mod:`hieradjudicate.core.scoring.open_range_tree`); mixed: from each system's own range."""
    from hieradjudicate.app.loading.load import read_annotation_file
    from hieradjudicate.app.loading.specs import AnnotationSpec
    from hieradjudicate.app.runs import positions
    from hieradjudicate.core.scoring.open_range import difference_range, normalise, system_range

    open_keys = gold_info["open"]
    tags: dict[str, int] = {}
    n_dec, n_open = scores.shape[1], len(open_keys)
    out = {"project": gold_info["project"], "decided": n_dec, "open": n_open, "total": n_dec + n_open,
           "systems": {}, "pairs": [], "joint": args.policy in JOINT}
    smap = getattr(args, "sense_map", None)
    # coarse: an answer's credit is its weight under the top-level senses the gold reaches, so the
    # top-level senses are the free choices of the outcome (the same sum as fine's over tags)
    label = (lambda t: smap.top(t)) if args.policy == "coarse" and smap is not None else (lambda t: t)
    sums = []
    for k, spec in enumerate(args.system):
        src = read_annotation_file(AnnotationSpec.parse(spec, "system"))
        item_code = positions(open_keys, src.item_lexelt, src.item_instance)
        tag_code = np.array([tags.setdefault(label(t), len(tags)) for t in src.tags] or [0], dtype=np.int64)
        first = src.set == 0
        rows = item_code[src.item[first]]
        keep = rows >= 0
        ans = normalise(rows[keep], tag_code[src.tag[first]][keep], src.weight[first][keep])
        S, W = float(np.nansum(scores[k])), float(attempted[k].sum())
        sums.append((S, W, ans))
        out["systems"][names[k]] = {"answered_open": ans.answered, **system_range(S, W, n_dec, ans, n_open)}
    leaf = _leaf_open(args, names, scores, attempted, open_keys) if args.policy == "leaf" else None
    out["joint"] = out["joint"] or leaf is not None
    for a in range(len(names)):
        for b in range(a + 1, len(names)):
            if leaf is not None:
                from hieradjudicate.core.scoring.open_range_tree import leaf_difference_range

                d = leaf_difference_range(leaf[0], leaf[1], leaf[2][a], leaf[2][b], n_dec)
            elif out["joint"]:
                d = difference_range(sums[a], sums[b], n_dec, n_open)
            else:  # mixed: each system's own range; overlapping ranges may flip
                d = {}
                for m in METRICS:
                    ra, rb = out["systems"][names[a]][m], out["systems"][names[b]][m]
                    ok = None not in ra and None not in rb
                    d[m] = {"observed": None, "low": ra[0] - rb[1] if ok else None,
                            "high": ra[1] - rb[0] if ok else None,
                            "could_flip": bool(ra[0] < rb[1] and rb[0] < ra[1]) if ok else None}
            out["pairs"].append({"a": names[a], "b": names[b], **d})
    return out


def _leaf_open(args, names, scores, attempted, open_keys):
    """Leaf policy: ``(inventory, lexelt per open instance, [(S, W, P, att)] per system)`` from the
    corpus the scores were computed on (the systems' leaf vectors on the open instances)."""
    from hieradjudicate.app.runs import positions

    c = getattr(args, "leaf_corpus", None)
    if c is None:
        return None
    lex = c.inventory.lexelts
    every = [(lex[x], i) for x, i in zip(c.inst_lexelt.tolist(), c.inst_id, strict=True)]
    at = positions(every, [k[0] for k in open_keys], [k[1] for k in open_keys])
    inst = at[at >= 0]  # an open instance no file mentions has no answer and no leaves: 0 either way
    by_name = {s.name: s for s in c.sets if s.role == "system"}
    systems = []
    for k, name in enumerate(names):
        s = by_name[name]
        pos = s.position(inst)
        P = np.zeros((inst.size, c.inventory.K))
        att = np.zeros(inst.size)
        ok = pos >= 0
        P[ok] = s.leaves[pos[ok]]
        att[ok] = s.attempted[pos[ok]]
        systems.append((float(np.nansum(scores[k])), float(attempted[k].sum()), P, att))
    return c.inventory, c.inst_lexelt[inst], systems


def _history(args, threshold) -> list[dict]:
    """P, R, F1 of every stored run of the project against the gold, oldest first."""
    from hieradjudicate.io.store.runs import run_bytes, runs

    with _open_project(args.project) as s:
        stored = runs(s.store)
        if not stored:
            return []
        blobs = [(r, run_bytes(s.store, r.name)) for r in stored]
    with tempfile.TemporaryDirectory(prefix="hadj-runs-") as tmp:
        specs = []
        for k, (r, data) in enumerate(blobs):
            p = Path(tmp) / f"run{k}.key"
            p.write_bytes(data)
            specs.append(f"{r.name}={p}")
        sub = argparse.Namespace(**{**vars(args), "system": specs})
        names, scores, attempted, *_ = _scores(sub)
    out = []
    from hieradjudicate.core.compare.significance import _metric

    for k, (r, _) in enumerate(blobs):
        n = scores.shape[1]
        S, W = float(np.nansum(scores[k])), float(attempted[k].sum())
        vals = {m: (None if np.isnan(v := _metric(m, np.array(S), np.array(W), n)) else float(v)) for m in METRICS}
        out.append({"name": r.name, "added_at": r.added_at, "note": r.note, **vals})
    return out


def cmd_compare(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="hadj-compare-") as tmp:
        gold_info = _project_gold(args, Path(tmp)) if _is_project(args.gold) else None
        if args.baseline:
            args.system = [_baseline_spec(args, Path(tmp))] + list(args.system)
        return _compare(args, gold_info)


def _compare(args, gold_info) -> int:
    from hieradjudicate.cli.evaluation.compare_groups import regression_groups
    from hieradjudicate.core.compare.comparison import compare_systems
    from hieradjudicate.app.paired import Settings, groupings, run_tests, tests_json
    from hieradjudicate.core.compare.regression import regression
    from hieradjudicate.core.compare.significance import pairs_of

    names, scores, attempted, lex, lex_code, lexelts, ids_at, extra = _scores(args, warn=gold_info is None)
    if len(set(names)) < len(names):
        raise HieradjError(f"two systems have the same name ({', '.join(names)}); name them NAME=FILE")
    n = scores.shape[1]
    cmp = compare_systems(scores, names=names, threshold=args.threshold, inst_lexelt=lex_code, lexelts=lexelts)
    pw = cmp.pairwise
    pairs = []
    for a, b in pairs_of(len(names)):
        k = pw.kappa[a, b]
        pairs.append({"a": names[a], "b": names[b], "kappa": None if k is np.ma.masked else float(k),
                      "both_correct": float(pw.both[a, b]), "one_correct": float(pw.one[a, b]),
                      "both_wrong": float(pw.neither[a, b]), "undefined": pw.reason(a, b)})
    d = cmp.difficulty
    unsolved = d.unsolved.tolist()
    groups = groupings(ids_at, n, lex_code, lexelts, by_lexelt=args.by_lexelt)
    test_pairs = [(0, b) for b in range(1, len(names))] if args.baseline else pairs_of(len(names))
    tests = run_tests(scores, attempted, names, groups, test_pairs,
                      Settings(args.shuffles, args.resamples, args.seed, threshold=args.threshold))
    out = {"policy": args.policy, "threshold": args.threshold, "systems": names, "instances": n,
           "accuracy": dict(zip(names, [None if cmp.accuracy is None else float(v) for v in cmp.accuracy])),
           "pairs": pairs, "optimal_combination": cmp.optimal_all,
           "best_subsets": [{"systems": list(s.names), "share": s.optimal} for s in cmp.best_subsets],
           "difficulty_histogram": [int(v) for v in d.histogram],
           "unsolved": len(unsolved),
           "unsolved_instances": [[str(lex[i]), str(x)] for i, x in zip(unsolved[:1000], ids_at(np.array(unsolved[:1000], dtype=np.int64)))],
           "by_lexelt": {k: (None if v is None else float(v)) for k, v in d.by_lexelt.items()},
           "tests": {g: {name: [tests_json(t) for t in ts] for name, ts in by.items()} for g, by in tests.items()},
           "test_settings": {"shuffles": args.shuffles, "resamples": args.resamples, "seed": args.seed,
                             "confidence": 0.95, "holm": len(test_pairs) > 1}}
    if args.baseline:
        out["baseline"] = names[0]
        out["regression"] = []
        reg_groups, out["regression_notes"] = regression_groups(args, groups, lex_code, lexelts, extra, gold_info,
                                                                lex, ids_at, n)
        for b in range(1, len(names)):
            reg = regression(cmp.correct[0], cmp.correct[b], reg_groups, baseline=names[0], system=names[b])
            rows = []
            for change, idx in (("gained", reg.gained), ("lost", reg.lost)):
                for i, inst in zip(idx.tolist(), ids_at(idx)):
                    rows.append({"change": change, "lexelt": str(lex[i]), "instance": str(inst),
                                 "baseline_score": _num(scores[0, i]), "system_score": _num(scores[b, i])})
            out["regression"].append({"system": names[b], "gained": int(reg.gained.size),
                                      "lost": int(reg.lost.size),
                                      "by": {g: {k: {"gained": v[0], "lost": v[1]} for k, v in by.items()}
                                             for g, by in reg.by.items()},
                                      "instances": rows})
    if gold_info is not None:
        out["adjudication"] = _open_ranges(args, names, scores, attempted, gold_info)
    if args.project:
        out["history"] = _history(args, args.threshold)
    return _print(args, out)


def _num(v) -> float | None:
    return None if np.isnan(v) else float(v)


def _print(args, out: dict) -> int:
    if args.format == "json":
        print(json_text(out))
        return 0
    if args.format == "csv":
        if args.csv_table == "changes":
            if "regression" not in out:
                raise HieradjError("--csv-table changes lists the instances gained and lost against a "
                                   "baseline: give --baseline NAME|FILE")
            heads, rows = changes_rows(out)
        else:
            heads, rows = tests_rows(out)
        sys.stdout.write(csv_text(heads, rows))
        return 0
    names = out["systems"]
    keys = ["a", "b", "kappa", "both_correct", "one_correct", "both_wrong"]
    print(f"correct = score >= {args.threshold} ({args.policy} policy)")
    print(text_table(["system", "accuracy"], [[n, out["accuracy"][n]] for n in names]))
    print()
    print(text_table(["a", "b", "kappa", "both right", "one right", "both wrong"],
                     [[p[k] for k in keys] for p in out["pairs"]]))
    print(f"\noptimal combination of all systems: {fmt(out['optimal_combination'])}")
    for s in out["best_subsets"]:
        print(f"  best of size {len(s['systems'])}: {', '.join(s['systems'])} -> {fmt(s['share'])}")
    print("instances by number of systems right: "
          + ", ".join(f"{k}: {v}" for k, v in enumerate(out["difficulty_histogram"])))
    print(f"{out['unsolved']} instance(s) no system gets right")
    print()
    print(tests_text(out))
    if "regression" in out:
        print()
        print(regression_text(out))
    if "adjudication" in out:
        print()
        print(_adjudication_text(out["adjudication"]))
    if "history" in out:
        print()
        print(history_text(out["history"]))
    return 0


def _adjudication_text(a: dict) -> str:
    lines = [f"the gold is still being adjudicated ({a['project']}): these figures rest on {a['decided']} "
             f"decided instance(s) of {a['total']}; {a['open']} open",
             "range of each figure over every outcome of the open instances (none to all of the system's "
             "answer chosen):"]
    rows = [[n, s["answered_open"]] + [f"[{fmt(s[m][0])}, {fmt(s[m][1])}]" for m in METRICS]
            for n, s in a["systems"].items()]
    lines.append(text_table(["system", "answered open", "precision", "recall", "F1"], rows))
    how = ("over the joint outcomes (the same gold for both systems)" if a["joint"] else
           "from each system's own range (the joint outcomes are worked out for the fine, coarse and leaf "
           "policies; under mixed an answer's credit is capped and not a sum over the gold tags, so each "
           "system's own range is used: the flag is conservative)")
    lines.append(f"range of each difference a - b {how}:")
    rows = [[p["a"], p["b"], m, f"[{fmt(p[m]['low'])}, {fmt(p[m]['high'])}]",
             "could flip" if p[m]["could_flip"] else ("undefined" if p[m]["could_flip"] is None else "holds")]
            for p in a["pairs"] for m in METRICS]
    lines.append(text_table(["a", "b", "metric", "range", "with the open instances"], rows))
    return "\n".join(lines)
