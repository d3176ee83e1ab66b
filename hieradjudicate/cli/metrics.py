"""``agree``, ``score`` and ``compare``: the metrics from the command line (no Qt)."""

from __future__ import annotations

import argparse
import sys

import numpy as np

from hieradjudicate.app.datasets import by_dataset as _by_dataset  # one rule for the command line and the window
from hieradjudicate.app.loading.swap import Shape, multi_unweighted, swap_warning
from hieradjudicate.app.textout import csv_text, fmt, json_text, text_table
from hieradjudicate.cli.coverage import corpus_absent, gold_absent_lexelts, lexelt_policy, need_tree
from hieradjudicate.cli.options import add_seed_option, non_negative, resample_warning
from hieradjudicate.core.errors import HieradjError


def register(sub, add_inputs) -> None:
    p = sub.add_parser("agree", help="inter-annotator agreement over leaf distributions (kappa, alpha)")
    add_inputs(p)
    p.add_argument("--granularity", default="leaf", metavar="leaf|top|depth=N",
                   help="cut of the sense tree the figures are computed at (default: leaf; top and depth=N "
                        "need an --inventory with parents)")
    p.add_argument("--ci", type=non_negative, default=0, metavar="N",
                   help="bootstrap confidence intervals with N resamples")
    p.add_argument("--ci-method", choices=("bca", "percentile"), default="bca",
                   help="interval: bca (bias-corrected and accelerated, the default) or percentile")
    add_seed_option(p, "20240601")
    p.add_argument("--by-lexelt", action="store_true",
                   help="also give the figures of every lexelt (with --format csv their table follows the "
                        "pairs' table after an empty line)")
    p.add_argument("--include-systems", action="store_true",
                   help="count the sets with role system as annotators too (by default only the sets with "
                        "role annotator are compared)")
    p.add_argument("--category", action="append", choices=("identical", "compatible", "overlapping", "disjoint"),
                   help="only the instances whose worst annotator-pair category is this (the workbench's "
                        "category filter); repeatable")
    p.set_defaults(func=cmd_agree)

    q = sub.add_parser("score", help="score systems against a gold standard")
    add_scoring_inputs(q, add_inputs)
    q.add_argument("--ci", type=non_negative, default=0, metavar="N", help="bootstrap intervals of precision/recall")
    q.add_argument("--ci-method", choices=("bca", "percentile"), default="bca",
                   help="interval: bca (bias-corrected and accelerated, the default) or percentile")
    add_seed_option(q, "0")
    q.set_defaults(func=cmd_score)


def add_scoring_inputs(q, add_inputs, gold_help: str = "the gold standard (any annotation file)") -> None:
    """The inputs ``score`` and ``compare`` share: inventories, the gold, the systems, the policy."""
    add_inputs(q, annotations=False)
    q.add_argument("--gold", required=True, metavar="PATH", help=gold_help)
    q.add_argument("--system", action="append", default=[], required=True, metavar="[NAME=]PATH",
                   help="a system's answers; repeatable")
    q.add_argument("--policy", choices=("leaf", "fine", "coarse", "mixed"), default="leaf",
                   help="scoring policy (leaf = Melamed & Resnik; fine/coarse/mixed = scorer2)")
    q.add_argument("--minimal", action="store_true", help="scorer2 -m: leave out multi-tag key instances")


# -- agree -----------------------------------------------------------------------------------------
_TEXT_PAIRS = 60  # the most pairs the text output lists one per row
def cmd_agree(args: argparse.Namespace) -> int:
    from hieradjudicate.app.loading.load import load
    from hieradjudicate.app.raters import annotator_sets, rater_note
    from hieradjudicate.app.stats import Stats, parse_granularity
    from hieradjudicate.cli.options import reading_policy, specs

    depth = parse_granularity(args.granularity)
    if depth is not None:
        need_tree(args)  # before reading: no tree, no level above the leaves
    res = load(args.inventory, specs(args), tree_columns=args.tree_columns, downward=args.downward)
    reading_policy(args, res)
    corpus = res.corpus
    if depth is not None:
        need_tree(args, corpus.inventory)
        deepest = corpus.inventory.max_depth()
        if depth >= deepest:  # a cut at or below the deepest sense keeps every sense: the leaf figures
            print(f"hieradjudicate agree: warning: --granularity {args.granularity}: the inventory is {deepest} "
                  f"level(s) deep, so a cut at depth {depth} keeps every sense as it is; the figures are the leaf "
                  "figures", file=sys.stderr)
    lexelt_policy(args, corpus_absent(corpus), of="the annotations",
                  consequence="their tags would count as senses of their own, with no level above them")
    stats = Stats(corpus)
    sets = annotator_sets(corpus, include_systems=args.include_systems)
    note = rater_note(corpus, sets, include_systems=args.include_systems)
    if len(sets) < 2:
        # systems are never counted as annotators behind the user's back (#13)
        hint = ("; --include-systems counts the systems as annotators"
                if not args.include_systems and any(s.role == "system" for s in corpus.sets) else "")
        raise HieradjError(f"agreement needs at least two annotator sets ({note}){hint}; give two "
                           "--annotations files or one table holding several annotators")
    instances = None
    if args.category:
        from hieradjudicate.app.workbench.columns import CATEGORY_LABELS, group_category

        codes = [c for c, name in CATEGORY_LABELS.items() if name in args.category]
        instances = np.flatnonzero(np.isin(group_category(corpus, sets)[0], codes))
    # the text output of a crowd prints how many pairs there are, not each one
    listed = args.format != "text" or len(sets) * (len(sets) - 1) // 2 <= _TEXT_PAIRS
    out = stats.agreement_dict(sets, depth=depth, instances=instances, by_lexelt=args.by_lexelt, pairs=listed)
    out["sets_compared"] = [corpus.sets[k].name for k in sets]
    out["sets_note"] = note
    if args.category:
        out["category"] = args.category
    if args.ci:
        resample_warning(args.ci)
        stats.forget_figures()  # they are in `out`: the intervals' working memory takes their place
        out["ci"] = _agree_ci(stats, sets, depth, args.ci, instances, args.ci_method, args.seed)
    if args.format == "json":
        print(json_text(out))
    elif args.format == "csv":
        keys = ["a", "b", "n", "observed", "expected_scott", "kappa_scott", "expected_cohen", "kappa_cohen"]
        sys.stdout.write(csv_text(keys, [[p[k] for k in keys] for p in out["pairs"]]))
        if "by_lexelt" in out:  # the lexelts' table follows the pairs' after an empty line
            keys = ["n", "fleiss", "fleiss_gwet", "conger", "alpha"]
            sys.stdout.write("\n" + csv_text(["lexelt"] + keys, [[lx] + [v[k] for k in keys]
                                                                 for lx, v in out["by_lexelt"].items()]))
    else:
        print(_agree_text(out))
    return 0


def _agree_ci(stats, sets, depth, n_resamples: int, instances=None, method: str = "bca",
              seed: int | None = None) -> dict:
    from hieradjudicate.core.stats.bca import METHOD_TEXT
    from hieradjudicate.core.agreement.bootstrap import DEFAULT_SEED, bootstrap_figures

    seed = DEFAULT_SEED if seed is None else seed
    c = stats.corpus
    # the figures' own layout (a crowd's: one leaf per row, no dense (rows x leaves) P; MASC 147 MB)
    lay = stats.layout(sets, depth, instances)
    pairs = [(a, b) for a in range(len(sets)) for b in range(a + 1, len(sets))]
    bf = bootstrap_figures(lay.inst, lay.rater, None, c.inst_lexelt, pairs=pairs,
                           n_lexelts=len(c.inventory.lexelts), n_resamples=n_resamples, method=method,
                           seed=seed, layout=lay)
    out = {"resamples": n_resamples, "level": 0.95, "seed": seed,
           "method": f"{METHOD_TEXT[method]} over instances; pairs sharing no instance have no interval",
           # Fleiss' and alpha's units: the instances at least two annotated (a pair's: its shared ones)
           "strata": bf.fleiss.strata, "pairs": []}
    if bf.pairs_skipped:
        out["pairs_note"] = bf.pairs_skipped
    for a, b in pairs if not bf.pairs_skipped else []:
        s, k = bf.pairs[(a, b)]
        out["pairs"].append({"a": c.sets[sets[a]].name, "b": c.sets[sets[b]].name,
                             "kappa_scott": [s.low, s.high], "kappa_cohen": [k.low, k.high],
                             "strata": s.strata})
    for key, ci in (("fleiss", bf.fleiss), ("alpha", bf.alpha)):
        out[key] = [ci.low, ci.high]
        out[f"{key}_method"] = ci.method
        out[f"{key}_bias"] = ci.bias
    return out


def _agree_text(out: dict) -> str:
    note = out["sets_note"]
    if len(out["sets"]) > 20:  # a crowd: the names fill screens; the JSON and CSV outputs list them
        systems = note.partition("; ")[2]
        note = f"{len(out['sets'])} annotator sets compared (--format json names them)" + (
            f"; {systems}" if systems else "")
    lines = [f"Agreement at granularity {out['granularity']}; chance {out['chance']}.",
             f"{note[0].upper()}{note[1:]}.", ""]
    ci = {(p["a"], p["b"]): p for p in out.get("ci", {}).get("pairs", [])}
    head = ["a", "b", "n", "Pr(A)", "Pr(E) S&C", "kappa S&C", "Pr(E) Cohen", "kappa Cohen"]
    n_pairs = out["n_pairs"] if out["pairs"] is None else len(out["pairs"])
    if n_pairs > _TEXT_PAIRS:  # a crowd's pairs (25,878 for MASC) are not listed: no rows made
        lines.append(f"{n_pairs} pairs (mean Cohen kappa {fmt(out['mean_kappa_cohen'])}); "
                     "use --format json or csv for each pair")
    else:
        rows = []
        for p in out["pairs"]:
            row = [p["a"], p["b"], p["n"], p["observed"], p["expected_scott"], p["kappa_scott"],
                   p["expected_cohen"], p["kappa_cohen"]]
            if ci and (p["a"], p["b"]) in ci:
                lo, hi = ci[(p["a"], p["b"])]["kappa_cohen"]
                row.append(f"[{fmt(lo)}, {fmt(hi)}]")
            rows.append(row)
        lines.append(text_table(head + (["95% CI Cohen"] if ci else []), rows))
    f, g, a, fg = out["fleiss"], out["conger"], out["alpha"], out["fleiss_gwet"]
    lines += ["",
              f"Fleiss (soft)        kappa {fmt(f['kappa'])}  Pr(A) {fmt(f['observed'])}  Pr(E) {fmt(f['expected'])}"
              f"  on {f['n']} instances" + _ci_text(out, "fleiss"),
              f"  ({f['method']})",
              f"Fleiss, Gwet's form  kappa {fmt(fg['kappa'])}  Pr(E) {fmt(fg['expected'])}",
              f"  ({fg['method']})",
              f"Davies & Fleiss      kappa {fmt(g['kappa'])}  Pr(E) {fmt(g['expected'])}",
              f"  ({g['method']})",
              f"Krippendorff alpha   {fmt(a['value'])}  D_o {fmt(a['observed_disagreement'])}  "
              f"D_e {fmt(a['expected_disagreement'])}  on {a['n_pairable']:.0f} pairable values" + _ci_text(out, "alpha"),
              f"mean pairwise kappa  Cohen {fmt(out['mean_kappa_cohen'])}  S&C {fmt(out['mean_kappa_scott'])}"]
    if "ci" in out:
        lines.append(f"(Intervals {_strata_note(out['ci'])}.)")
    if out.get("ci", {}).get("pairs_note"):
        lines.append(f"({out['ci']['pairs_note']})")
    for key in ("fleiss", "alpha"):
        if out[key].get("undefined"):
            lines.append(f"  {key}: undefined ({out[key]['undefined']})")
    if out["thin_lexelts"]["note"]:  # all-words data: a lexelt per lemma
        note = out["thin_lexelts"]["note"].replace("this chance-corrected figure rests", "every kappa and alpha rests")
        lines += ["", f"Note: {note}."]
    if "by_lexelt" in out:
        rows = [[lx, v["n"], v["fleiss"], v["fleiss_gwet"], v["conger"], v["alpha"]]
                for lx, v in out["by_lexelt"].items()]
        lines += ["", text_table(["lexelt", "n", "Fleiss", "Fleiss (Gwet)", "Davies&Fleiss", "alpha"], rows),
                  f"macro mean over lexelts: Fleiss {fmt(out['macro']['fleiss'])}, alpha {fmt(out['macro']['alpha'])}"]
    return "\n".join(lines)


def _strata_note(ci: dict) -> str:
    """How the agreement intervals were stratified: Fleiss' and alpha's, and the pairs' (each over its
    shared instances) when some pooled lexelts."""
    pooled = sum("resampled whole" in p["strata"] for p in ci["pairs"])
    if not pooled:
        return ci["strata"]
    return (f"{ci['strata']}; in {pooled} of {len(ci['pairs'])} pairs, their lexelts of fewer than 10 shared "
            "instances likewise")


def _ci_text(out: dict, key: str) -> str:
    if "ci" not in out:
        return ""
    lo, hi = out["ci"][key]
    bias = out["ci"].get(f"{key}_bias")
    extra = f"; bootstrap bias {bias:+.3f}" if bias is not None else ""
    return f"  95% CI [{fmt(lo)}, {fmt(hi)}] ({out['ci'].get(f'{key}_method', '')}{extra})"


# -- score / compare -------------------------------------------------------------------------------
def _warn(text: str | None) -> None:
    if text:
        print(f"hieradjudicate: warning: {text}", file=sys.stderr)


def _warn_unscored(name: str, n: int, examples: list) -> None:
    """Say on stderr that answers naming instances outside the gold were left out (scorer2's
    "Does not exist"), so a coverage of 0 from mismatched ids is never a silent figure."""
    if n:
        first = ", ".join(" ".join(map(str, x)) for x in examples[:3])
        _warn(f"{name}: {n} answer line(s) name an instance that is not in the gold (first: {first}); "
              "they are not scored. Do the ids match the gold's (lexelt and instance)?")


def _leaf_unscored(corpus, g: int) -> dict[str, tuple[int, list]]:
    """Per system set of a leaf-policy corpus: how many of its instances the gold ``g`` lacks (left
    out of its score) and the first few as ``(lexelt, instance)``, like scorer2's route reports them."""
    gold_rows, lexelts = corpus.sets[g].rows, corpus.inventory.lexelts
    out = {}
    for s in corpus.sets:
        if s.role == "system":
            extra = np.setdiff1d(s.rows, gold_rows)
            out[s.name] = (int(extra.size), [(lexelts[corpus.inst_lexelt[i]], corpus.inst_id[i]) for i in extra[:3]])
    return out


def warn_unscored(args, results) -> None:
    """Warn, per system, of the answers naming instances the gold lacks (either route)."""
    leaf = getattr(args, "leaf_unscored", None)
    for name, r in results:
        n, examples = leaf.get(name, (0, [])) if leaf is not None else (r.unknown_answers, r.unknown_examples)
        _warn_unscored(name, n, examples)


def _system_specs(args):
    """The ``--system`` specs; a NAME given to two of them is refused (a figure per name, or none)."""
    from hieradjudicate.app.loading.specs import AnnotationSpec

    specs = [AnnotationSpec.parse(s, "system") for s in args.system]
    named = [s.name for s in specs if s.name]
    twice = sorted({n for n in named if named.count(n) > 1})
    if twice:
        files = ", ".join(s.path for s in specs if s.name == twice[0])
        raise HieradjError(f"--system: the name {twice[0]!r} is given to more than one file ({files}); give each "
                           "system a name of its own (NAME=FILE)")
    return specs


def _senseval_scores(args) -> list[tuple[str, object]]:
    """fine/coarse/mixed straight from the files, as scorer2 does (no corpus needed).

    Clean Senseval files take the byte-level route (:mod:`hieradjudicate.app.scorer2_fast`);
    any other file, and any doubt, the strict readers."""
    from hieradjudicate.app.loading.notes import gold_weights_note, weights_given
    from hieradjudicate.app.loading.specs import AnnotationSpec
    from hieradjudicate.app.scorer2_fast import scan_key
    from hieradjudicate.cli.options import reading_policy
    from hieradjudicate.core.scoring.senseval import SenseMap, score_senseval
    from hieradjudicate.io.inventories.read import read_inventory
    from hieradjudicate.io.inventories.wordnet import read_wordnet, wordnet_folder

    gold, systems = AnnotationSpec.parse(args.gold, "gold"), _system_specs(args)
    fast = scan_key(gold, systems)
    records = []
    sources = []
    key = None
    for path in args.inventory:
        if wordnet_folder(path) is not None:  # only the lemmas of the gold are read
            if fast is not None:
                inv = read_wordnet(path, fast.lexelts)
            else:
                from hieradjudicate.app.loading.load import read_annotation_file

                key = key or read_annotation_file(gold)
                inv = read_wordnet(path, key.item_lexelt)
        else:
            inv = read_inventory(path, columns=args.tree_columns)
        sources.append(inv)
        records.extend(inv.senses)
    smap = SenseMap.from_records(r for r in records if r.parent is not None or r.branching is not None)
    args.sense_map, args.sense_known = smap, {r.sense for r in records}  # compare's sense depth
    if args.policy in ("coarse", "mixed") and not smap.parent:
        given = ", ".join(str(p) for p in args.inventory) or "none"
        # Without parents every sense is its own top: the coarse figure would be the fine one, mislabelled.
        raise HieradjError(f"--policy {args.policy} needs a sense hierarchy (a Senseval sense map or a tree "
                           f"inventory with parents); the inventory given ({given}) has no parent relations. "
                           "Pass --inventory EnglishLS.sensemap (or similar), or use --policy fine")
    if fast is not None:
        lex = fast.line_lexelt
        _gold_coverage(args, fast.lexelts, lex, lex[fast.item], fast.tag, fast.tags, records)
        out = _scanned_scores(args, fast, systems, smap, sources)
        if out is not None:
            return out
    from hieradjudicate.app.loading.load import read_annotation_file

    key = key or read_annotation_file(gold)
    gold_ids = np.asarray(key.item_instance, dtype=object)
    args.gold_ids_at = lambda rows: gold_ids[rows]  # per-dataset figures of an ALL key
    answers = [(spec, read_annotation_file(spec)) for spec in systems]
    reading_policy(args, sources=sources + [key] + [a for _, a in answers])
    _one_gold_set(key.path, key.set_names)
    lexelts, item_lexelt = np.unique(np.asarray(key.item_lexelt, dtype=object), return_inverse=True)
    _gold_coverage(args, lexelts.tolist(), item_lexelt, item_lexelt[key.item], key.tag, key.tags, records)
    _warn(gold_weights_note(key.path, *weights_given(key)))
    out, shapes = [], []
    for spec, ans in answers:
        for k, name in enumerate(ans.set_names):  # a table of several systems: each one scored
            res = score_senseval(key, ans, policy=args.policy, sense_map=smap, minimal=args.minimal,
                                 answer_set=k)
            _warn(_answers_outside(args, (spec.name or name) if len(ans.set_names) == 1 else name,
                                   np.asarray(ans.tag)[np.asarray(ans.set) == k], ans.tags, sources))
            out.append(((spec.name or name) if len(ans.set_names) == 1 else name, res))
            rows = ans.set == k
            shapes.append(Shape(spec.path, _given_role(spec, "system"),
                                multi_unweighted(ans.item[rows], ans.weight[rows], len(ans.item_instance)),
                                res.attempted == res.total, res.unknown_answers, res.total))
    _warn(swap_warning(Shape(gold.path, _given_role(gold, "gold"),
                             multi_unweighted(key.item, key.weight, len(key.item_instance))), shapes))
    return out


def _given_role(spec, default: str) -> str | None:
    """The role written after the path (``PATH:system``) when it is not the option's own."""
    return spec.role if spec.role != default else None


def _gold_coverage(args, lexelts, item_lexelt, label_lexelt, label_tag, tags, records) -> None:
    """The scorer2 route's :func:`~hieradjudicate.cli.coverage.lexelt_policy` over the gold."""
    if not args.inventory:
        return
    absent, mask = gold_absent_lexelts(lexelts, label_lexelt, label_tag, tags, records)
    per_lexelt = np.bincount(np.asarray(item_lexelt, dtype=np.int64), minlength=len(lexelts))
    lexelt_policy(args, absent, of="the gold", consequence=_uncovered(args.policy),
                  share=(int(per_lexelt[mask].sum()), int(per_lexelt.sum())))
    if args.policy in ("coarse", "mixed") and len(label_tag):
        _warn(_tags_outside(args.policy, lexelts, np.asarray(label_lexelt), np.asarray(label_tag), tags, records))


#: tags scorer2 knows as no sense (unassignable, proper name, typo): outside any sense map by nature
NON_SENSES = {"U", "P", "TYPO"}


def _answers_outside(args, name: str, label_tag, tags, sources) -> str | None:
    """The sentence saying how many of a system's answer tags are not senses of the inventory given
    (they score only where the gold has the same string: another id scheme scores 0 everywhere), or
    ``None``; nothing without an inventory."""
    if not args.inventory or not len(label_tag):
        return None
    hit = _not_senses([r for src in sources for r in src.senses], tags, np.asarray(label_tag))
    return _outside_text(name, hit, tags[int(np.asarray(label_tag)[np.flatnonzero(hit)[0]])]) if hit.any() else None


def _not_senses(records, tags, label_tag: np.ndarray) -> np.ndarray:
    """Per label: whether its tag (``tags[label_tag]``) is neither a sense id nor an alias of ``records``
    nor one of :data:`NON_SENSES` (a loop over the distinct tags, not the labels)."""
    known = {r.sense for r in records} | {a for r in records for a in r.aliases} | NON_SENSES
    return np.fromiter((t not in known for t in tags), bool, len(tags))[label_tag]


def _outside_text(name: str, hit: np.ndarray, first: str) -> str:
    return (f"{name}: {int(hit.sum())} of its {hit.size} answer tags are not senses of the inventory (first: "
            f"{first}); they score only where the gold has the same string. Does the system use the inventory's "
            "sense ids?")


def _tags_outside(policy: str, lexelts, label_lexelt, label_tag, tags, records) -> str | None:
    """The sentence saying how many of the gold's tags the inventory does not hold (scored by exact
    match only: their coarse or mixed figure is the fine one), or ``None``. An inventory of other
    sense ids (WordNet for Senseval-3's numeric verb senses) otherwise passes unnoticed."""
    hit = _not_senses(records, tags, label_tag)
    if not hit.any():
        return None
    first = int(np.flatnonzero(hit)[0])
    return (f"{int(hit.sum())} of the gold's {hit.size} tags are not senses of the inventory (first: "
            f"{lexelts[int(label_lexelt[first])]} {tags[int(label_tag[first])]}); --policy {policy} matches them "
            "only exactly, so there the figure is the fine one. Is it the inventory of these tags? (validate "
            "lists them)")


def _uncovered(policy: str) -> str:
    """What scoring does with the senses of a lexelt the inventory lacks."""
    if policy in ("coarse", "mixed"):
        return (f"their senses would be scored as groups of their own: the fine figure there, labelled "
                f"{policy}")
    return "their tags would be scored as senses of their own, outside any sense tree"


def _scanned_scores(args, key, systems, smap, sources) -> list[tuple[str, object]] | None:
    """The scores of clean Senseval files, one answer file in memory at a time; ``None`` when
    a file is not clean or a join on hashes is in doubt (then the strict route reads them all)."""
    from hieradjudicate.app.loading.notes import gold_weights_note, weights_given
    from hieradjudicate.app.loading.specs import AnnotationSpec
    from hieradjudicate.app.scorer2_fast import score_file
    from hieradjudicate.cli.options import reading_policy

    out, shapes = [], []
    for spec in systems:
        seen: list = []
        res = score_file(key, spec, policy=args.policy, sense_map=smap, minimal=args.minimal, shapes=shapes,
                         answer_tags=seen)
        if res is None:
            return None
        out.append(res)
        _warn(_answers_outside(args, res[0], *seen[0], sources))
        shapes[-1].role = _given_role(spec, "system")
    reading_policy(args, sources=sources)  # the inventories' own dropped lines; clean files have none
    args.gold_ids_at = key.instances
    _warn(gold_weights_note(key.path, *weights_given(key)))
    _warn(swap_warning(Shape(key.path, _given_role(AnnotationSpec.parse(args.gold, "gold"), "gold"),
                             multi_unweighted(key.item, key.weight, key.n_items)), shapes))
    return out


def _one_gold_set(path: str, names: list[str]) -> None:
    """A gold standard is one answer per instance: a file of several sets (a wide table of
    annotators) is refused, not reduced to its first set behind the user's back."""
    if len(names) > 1:
        shown = ", ".join(names[:5]) + (" ..." if len(names) > 5 else "")
        raise HieradjError(f"the gold {path} holds {len(names)} annotation sets ({shown}); a gold standard is "
                           "one set: expected a Senseval key ('lexelt instance_id tag ...' lines) or a table "
                           "with lexelt, instance and tag columns (adjudicate the annotators first: project "
                           "new, then project export)")


def _leaf_scores(args):
    from hieradjudicate.app.loading.load import AnnotationSpec, gold_weights_note, load
    from hieradjudicate.app.stats import Stats
    from hieradjudicate.cli.options import reading_policy

    gold = AnnotationSpec.parse(args.gold, "gold")
    gold_role, gold.role = _given_role(gold, "gold"), "gold"
    system_specs = _system_specs(args)
    res = load(args.inventory, [gold] + system_specs, tree_columns=args.tree_columns,
               downward=args.downward)
    reading_policy(args, res)
    rep = next(f for f in res.files if f.kind == "annotations")  # the gold: the first annotation file
    _one_gold_set(rep.path, rep.sets)
    c = res.corpus
    g = next(k for k, s in enumerate(c.sets) if s.role == "gold")
    per_lexelt = np.bincount(c.inst_lexelt[c.sets[g].rows], minlength=len(c.inventory.lexelts))
    absent = [x for x in corpus_absent(c) if per_lexelt[c.inventory.lexelt_index(x)]]  # the gold's only
    lexelt_policy(args, absent, of="the gold", consequence=_uncovered("leaf"),
                  share=(int(sum(per_lexelt[c.inventory.lexelt_index(x)] for x in absent)), c.sets[g].n))
    _warn(gold_weights_note(rep.path, rep.weighted_labels, rep.first_weight_line))
    _warn(swap_warning(_set_shape(c, g, rep, gold_role),
                       [_set_shape(c, k, f, _given_role(spec, "system"), gold=c.sets[g])
                        for k, f, spec in _system_sets(c, res.files[-len(system_specs):], system_specs)]))
    stats = Stats(c)
    args.leaf_unscored = _leaf_unscored(c, g)
    if args.inventory:  # answers in another id scheme: their own leaves, scored 0
        inv = c.inventory
        for s in c.sets:
            if s.role == "system" and s.tag_node.size:
                hit = inv.node_outside[s.tag_node] & ~np.isin(np.asarray(inv.node_id, dtype=object)[s.tag_node],
                                                              list(NON_SENSES))
                if hit.any():
                    _warn(_outside_text(s.name, hit, inv.node_id[int(s.tag_node[np.flatnonzero(hit)[0]])]))
    return c, [(c.sets[k].name, stats.score(k, g)) for k, s in enumerate(c.sets) if s.role == "system"]


def _system_sets(c, files, specs):
    """``(set index, file report, spec)`` of every system set, in the corpus's order."""
    by_name = {name: (f, spec) for f, spec in zip(files, specs) for name in f.sets}
    return [(k, *by_name[s.name]) for k, s in enumerate(c.sets) if s.role == "system" and s.name in by_name]


def _set_shape(c, k: int, file, role: str | None, gold=None) -> Shape:
    """A corpus set's :class:`~hieradjudicate.app.loading.swap.Shape` (coverage against ``gold``);
    ``file``: its file's report (the set's own weights are normalised, the file says if it gave any)."""
    s = c.sets[k]
    shape = Shape(file.path, role, 0 if file.weighted_labels else int((s.n_tags() > 1).sum()))
    if gold is not None:
        shape.answers_all = bool(np.isin(gold.rows, s.rows).all())
        shape.beyond_gold = int(np.setdiff1d(s.rows, gold.rows).size)
        shape.gold_total = gold.n
    return shape


def cmd_score(args: argparse.Namespace) -> int:
    resample_warning(args.ci)
    if args.policy == "leaf":
        if args.minimal:
            raise HieradjError("--minimal belongs to the scorer2 policies (fine, coarse, mixed)")
        corpus, results = _leaf_scores(args)
        strata = lambda r: corpus.inst_lexelt[r.gold_instances]
        inst_ids = np.asarray(corpus.inst_id, dtype=object)
        ids = lambda r: (lambda rows: inst_ids[rows], r.gold_instances)
    else:
        results = _senseval_scores(args)
        strata = lambda r: r.instance_lexelt
        ids = lambda r: (args.gold_ids_at, r.instance_item)
    warn_unscored(args, results)
    systems = []
    for name, r in results:
        d = r.as_dict()
        entry = {"name": name, "precision": d["precision"], "recall": d["recall"], "coverage": d["coverage"],
                 "f1": d["f1"], "score_sum": d["score_sum"], "attempted": d["attempted"], "total": d["total"],
                 "cross_entropy": d.get("cross_entropy"), "zero_score_instances": d.get("zero_score_instances"),
                 "distance_cost": d.get("distance_cost"), "undefined": d.get("undefined", {}),
                 "per_lexelt": d["by_lexelt"], "per_pos": d["by_pos"]}
        if "unknown_answers" in d:  # scorer2 policies: what was not scored, and why
            entry["unknown_answers"] = d["unknown_answers"]
            entry["unknown_examples"] = d["unknown_examples"]
            entry["excluded_multi_tag"] = d["excluded_multi_tag"]
        by_dataset = _by_dataset(*ids(r), r.instance_score, r.instance_attempted)
        if by_dataset:
            entry["by_dataset"] = by_dataset
        if getattr(args, "ci", 0):
            from hieradjudicate.core.scoring.score_bootstrap import bootstrap_scores
            from hieradjudicate.core.stats.strata import score_strata, strata_text

            score = np.nan_to_num(r.instance_score, nan=0.0)
            seed = 0 if args.seed is None else args.seed
            boot = bootstrap_scores(score, r.instance_attempted, strata=strata(r), n_resamples=args.ci,
                                    method=args.ci_method, seed=seed)
            entry["ci"] = {"precision": [boot.precision.low, boot.precision.high],
                           "recall": [boot.recall.low, boot.recall.high], "resamples": args.ci,
                           "seed": seed, "method": boot.recall.method,
                           "strata": strata_text(score_strata(strata(r))[1])}
        systems.append(entry)
    out = {"policy": args.policy, "minimal": bool(args.minimal), "systems": systems}
    if args.format == "json":
        print(json_text(out))
        return 0
    keys = ["name", "precision", "recall", "coverage", "f1", "score_sum", "attempted", "total"]
    heads = ["system", "precision", "recall", "coverage", "F1", "score", "attempted", "total"]
    if args.policy == "leaf":  # cross-entropy and cost belong to the leaf-distribution policy only
        keys += ["cross_entropy", "zero_score_instances", "distance_cost"]
        heads += ["cross-entropy", "zero", "cost"]
    rows = [[s[k] for k in keys] for s in systems]
    if args.format == "csv":
        sys.stdout.write(csv_text(keys, rows))
    else:
        from hieradjudicate.core.scoring.senseval import SPLIT_CREDIT  # not the dashboard's modules (0.1-0.2 s)

        print(f"policy {args.policy}" + (" (minimal)" if args.minimal else ""))
        print(text_table(heads, rows))
        print(f"({SPLIT_CREDIT}.)")
        for s in systems:
            if "by_dataset" in s:
                print(f"{s['name']} per data set (the framework's ALL prefix):")
                print(text_table(["data set", "precision", "recall", "F1", "attempted", "total"],
                                 [[k, v["precision"], v["recall"], v["f1"], v["attempted"], v["total"]]
                                  for k, v in s["by_dataset"].items()]))
            if "ci" in s:
                p, r = s["ci"]["precision"], s["ci"]["recall"]
                print(f"{s['name']}: 95% CI precision [{fmt(p[0])}, {fmt(p[1])}], recall [{fmt(r[0])}, "
                      f"{fmt(r[1])}] ({s['ci']['method']} bootstrap, {s['ci']['resamples']} resamples, "
                      f"{s['ci']['strata']})")
    return 0
