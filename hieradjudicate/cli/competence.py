"""``hieradjudicate competence``: whom to trust, and which instances are hardest (no Qt).

Dawid & Skene over the leaves of each lexelt (:mod:`hieradjudicate.core.crowd.competence`), or MACE
(``--model mace``), from a project or from files as ``agree`` reads them.  Per annotator set: its
labels, its competence (Dawid & Skene: the expected share of its labels that are right, with the
standard error; MACE: the probability that it knows the answer, with its posterior s.d.); per
instance (with ``--instances``): the most probable leaf, its posterior and the entropy, most
uncertain first.  Both models are refused (exit 1, with the reason) where no instance has labels
from three or more sets (:func:`hieradjudicate.core.crowd.competence.require_three_sets`).  ``--max-iter`` and ``--tol`` set the stopping rule; a run that does not reach it
says so (stderr, and ``converged: false``).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from hieradjudicate.app.textout import csv_text, fmt, json_text, text_table
from hieradjudicate.core.errors import HieradjError


def register(sub: Any, add_inputs: Any) -> None:
    from hieradjudicate.cli.options import non_negative, non_negative_float, positive

    p = sub.add_parser("competence", help="annotator competence and instance difficulty (Dawid & Skene "
                       "over the leaves of each lexelt)")
    p.add_argument("project", nargs="?", metavar="P.hadj", help="a project (or give the files as for agree)")
    add_inputs(p)
    p.add_argument("--include-systems", action="store_true",
                   help="count the sets with role system as annotators too")
    p.add_argument("--model", choices=("ds", "mace"), default="ds",
                   help="ds: Dawid & Skene (default); mace: MACE (Hovy et al. 2013), both over the leaves of "
                   "each lexelt, both refused unless some instance has labels from three or more sets (with "
                   "two their figures are not identifiable)")
    p.add_argument("--instances", type=non_negative, default=0, metavar="N",
                   help="also list the N most uncertain instances (their posterior and entropy); with --format "
                   "csv their table follows the sets' table after an empty line")
    p.add_argument("--max-iter", type=positive, default=None, metavar="N",
                   help="iterations at most (default: Dawid & Skene 5000 EM steps per lexelt, its confirming restarts "
                   "included, MACE 2000); a run that stops there is reported as not converged")
    p.add_argument("--plain-em", action="store_true",
                   help="Dawid & Skene without SQUAREM acceleration (crowd-kit's run, iteration for iteration; "
                   "about 1.6 times as many iterations)")
    p.add_argument("--processes", type=positive, default=None, metavar="N",
                   help="Dawid & Skene's lexelts in N worker processes (default: one per CPU, up to four, for "
                   "262,144 labels or more, else 1); the same figures to the bit")
    p.add_argument("--tol", type=non_negative_float, default=None, metavar="X",
                   help="converged when every parameter (confusion probability, prior; MACE: theta, strategy) "
                   "and posterior is estimated within X of the fixed point (default 1e-7; 0 runs --max-iter "
                   "iterations)")
    p.set_defaults(func=cmd_competence)


def _corpus(args: argparse.Namespace):
    if args.project:
        from hieradjudicate.app.session.session import Session

        if args.annotations or args.inventory:
            raise HieradjError("give a project or input files, not both")
        with Session.open(args.project, read_only=True) as s:
            return s.corpus
    from hieradjudicate.app.loading.load import load
    from hieradjudicate.cli.options import reading_policy, specs

    if not args.annotations:
        raise HieradjError("give a project (P.hadj) or --annotations files")
    res = load(args.inventory, specs(args), tree_columns=args.tree_columns, downward=args.downward)
    reading_policy(args, res)
    return res.corpus


def cmd_competence(args: argparse.Namespace) -> int:
    import numpy as np  # not at import time: every command builds the parser

    from hieradjudicate.app.dashboard.competence import MEASURES, MODELS, method_text, unconverged_lexelts
    from hieradjudicate.app.session.batch import annotator_sets, rater_note
    from hieradjudicate.core.crowd.competence import dawid_skene
    from hieradjudicate.core.layout_tags import unit_leaves
    from hieradjudicate.core.crowd.mace import mace

    if args.plain_em and args.model == "mace":
        raise HieradjError("--plain-em applies to Dawid & Skene (--model ds); MACE is not accelerated")
    corpus = _corpus(args)
    sets = annotator_sets(corpus, include_systems=args.include_systems)
    note = rater_note(corpus, sets, include_systems=args.include_systems)
    if len(sets) < 2:
        hint = ("; --include-systems counts the systems as annotators"
                if any(s.role == "system" for s in corpus.sets) and not args.include_systems else "")
        raise HieradjError(f"competence needs three or more annotator sets labelling an instance (Kruskal 1977): "
                           f"{note}{hint}")
    stop: dict[str, Any] = {k: v for k, v in (("max_iter", args.max_iter), ("tol", args.tol)) if v is not None}
    if args.plain_em:
        stop["accelerate"] = False
    if args.model == "ds":  # the lexelts in worker processes (as many as asked, or chosen by the labels)
        stop["processes"] = args.processes
    elif args.processes is not None:
        raise HieradjError("--processes applies to Dawid & Skene (--model ds); MACE runs in one process")
    # a crowd's one-leaf labels go to Dawid & Skene as leaves, in the same order, without the sets' leaf
    # vectors or their long form (MASC: 141 MiB each)
    leaf = unit_leaves(corpus.inventory, [corpus.sets[k] for k in sets]) if args.model == "ds" else None
    if leaf is not None:
        inst = np.concatenate([corpus.sets[k].rows for k in sets]).astype(np.int64)
        rater = np.repeat(np.arange(len(sets), dtype=np.int64), [corpus.sets[k].n for k in sets])
        P, stop["leaf"], stop["K"] = None, leaf, max(corpus.inventory.K, 1)
        order = sets
    else:
        inst, rater, P, order = corpus.long_form(sets=sets)
    stop["names"] = [corpus.sets[k].name for k in order]  # for the refusal: no instance with three sets
    t0 = time.perf_counter()
    fit = mace if args.model == "mace" else dawid_skene
    res = fit(inst, rater, P, corpus.inst_lexelt, corpus.inventory.n_leaves, **stop)
    method = method_text(args.model, args.max_iter, args.tol, accelerate=not args.plain_em)
    measure = MEASURES[args.model]
    seconds = time.perf_counter() - t0
    order = np.argsort(-res.accuracy, kind="stable")
    rows = [[corpus.sets[int(res.workers[k])].name, int(res.n_labels[k]), float(res.accuracy[k]),
             float(res.stderr[k])] for k in order]
    # Dawid & Skene fits each lexelt on its own: those whose fit did not converge are named
    unconverged = [corpus.inventory.lexelts[int(x)] for x in res.unconverged]
    fitted = int(np.unique(corpus.inst_lexelt[res.tasks]).size)
    out: dict[str, Any] = {
        "model": MODELS[args.model], "method": method, "measure": measure, "sets_note": note, "instances": len(res.tasks), "labels": len(inst),
        "iterations": res.iterations, "converged": res.converged,
        "last_change": res.change if np.isfinite(res.change) else None,
        "distance_from_fixed_point": res.distance if np.isfinite(res.distance) else None,
        "seconds": round(seconds, 3),
        **({"lexelts_not_converged": unconverged} if args.model == "ds" else {}),
        "sets": [dict(zip(("set", "labels", "competence", "stderr"), r, strict=True)) for r in rows],
        "difficulty": {"mean_entropy_bits": float(res.entropy.mean()),
                       "quantiles": {q: float(np.quantile(res.entropy, q)) for q in (0.5, 0.9, 0.99)}}}
    if args.instances:
        inv = corpus.inventory
        hard = np.argsort(-res.entropy, kind="stable")[:args.instances]
        out["most_uncertain"] = []
        for t in hard:
            i = int(res.tasks[t])
            x = int(corpus.inst_lexelt[i])
            k = int(res.posterior[t].argmax())
            out["most_uncertain"].append({"lexelt": inv.lexelts[x], "instance": corpus.instance_key(i)[1],
                                          "leaf": inv.label(int(inv.lexelt_leaf_nodes[x][k])),
                                          "posterior": float(res.posterior[t, k]),
                                          "entropy_bits": float(res.entropy[t])})
    if not res.converged:
        # an infinite distance: EM still creeping away, or a probe from where it stopped not yet back
        far = f"estimated {res.distance:.2g} from the fixed point" if np.isfinite(res.distance) else \
            "no fixed point confirmed where it stopped"
        why = f"{far}; --max-iter N runs longer, --tol X sets the criterion"
        why = f" on {unconverged_lexelts(unconverged, fitted)}: {why}" if unconverged else f" ({why})"
        print(f"hieradjudicate: warning: {MODELS[args.model]} stopped after {res.iterations} iterations "
              f"without converging{why}", file=sys.stderr)
    if args.format == "json":
        print(json_text(out))
    elif args.format == "csv":
        # MACE's columns say what they hold: the probability of knowing (not an accuracy), its posterior s.d.
        head = ["set", "labels", "competence", "stderr"] if args.model == "ds" else \
            ["set", "labels", "p_knows_answer", "posterior_sd"]
        sys.stdout.write(csv_text(head, rows))
        if args.instances:
            keys = ["lexelt", "instance", "leaf", "posterior", "entropy_bits"]
            sys.stdout.write("\n" + csv_text(keys, [[r[k] for k in keys] for r in out["most_uncertain"]]))
    else:
        shown = note if len(sets) <= 20 else f"{len(sets)} annotator sets compared (--format json names them)"
        state = "converged" if res.converged else \
            f"NOT converged on {unconverged_lexelts(unconverged, fitted)}" if unconverged else "NOT converged"
        print(f"Annotator competence ({MODELS[args.model]}), {out['labels']} labels on {out['instances']} instances "
              f"({res.iterations} iterations, {state}, {seconds:.2f} s); {shown}.")
        spread = "+/- s.d." if args.model == "mace" else "+/- s.e."  # posterior s.d. / binomial s.e.
        print(text_table(["set", "labels", measure, spread], rows))
        d = out["difficulty"]
        print(f"\nDifficulty (posterior entropy, bits): mean {fmt(d['mean_entropy_bits'])}, median "
              f"{fmt(d['quantiles'][0.5])}, 90% {fmt(d['quantiles'][0.9])}, 99% {fmt(d['quantiles'][0.99])}")
        if args.instances:
            print(text_table(["lexelt", "instance", "most probable leaf", "posterior", "entropy"],
                             [list(r.values()) for r in out["most_uncertain"]]))
        print(f"\n({method})")
    return 0
