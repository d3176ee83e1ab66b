"""Text and CSV of ``compare``'s paired tests, regression view and run history (no Qt)."""

from __future__ import annotations

from hieradjudicate.app.paired import p_text
from hieradjudicate.app.textout import fmt, text_table
from hieradjudicate.core.compare.regression import ALL
from hieradjudicate.core.compare.significance import METRICS

LABEL = {"precision": "P", "recall": "R", "f1": "F1"}
#: Gained/lost instances listed in the text output per system (JSON and CSV list all).
TEXT_CHANGES = 20


def _p(v) -> str:
    return p_text(v)  # as the window and the report print it


def tests_text(out: dict) -> str:
    s = out["test_settings"]
    if not any(ts for by in out["tests"].values() for ts in by.values()):
        return "paired tests: one system only; give two or more (--system), or a --baseline"
    head = (f"paired tests (difference a - b; {s['confidence']:.0%} paired bootstrap interval, "
            f"{s['resamples']} resamples; approximate randomization, {s['shuffles']} shuffles swapping the "
            f"two systems' answers per instance, unanswered included; seed {s['seed']}")
    holm = any(t["holm_over_pairs"] for by in out["tests"].values() for ts in by.values() for t in ts)
    head += ("; p Holm = Holm's correction over the pairs of each group)" if holm else ")")
    rows, mrows = [], []
    for grouping, by in out["tests"].items():
        for group, ts in by.items():
            where = group if grouping == ALL else f"{grouping} {group}"
            for t in ts:
                for m in METRICS:
                    v = t[m]
                    rows.append([where, t["a"], t["b"], LABEL[m], v["a"], v["b"], v["difference"],
                                 _ci(v["ci"]), _p(v["p_randomization"])]
                                + ([_p(v["p_holm"])] if holm else []))
                mc = t["mcnemar"]
                mrows.append([where, t["a"], t["b"], t["n"], mc["a_only"], mc["b_only"], _p(mc["p"])]
                             + ([_p(mc["p_holm"])] if holm else []))
    extra = ["p Holm"] if holm else []
    return "\n".join([head, text_table(["group", "a", "b", "metric", "a value", "b value", "a - b", "interval",
                                        "p"] + extra, rows),
                      "", "McNemar's exact test on per-instance correctness (score >= threshold):",
                      text_table(["group", "a", "b", "instances", "only a right", "only b right", "p"] + extra,
                                 mrows)])


def tests_rows(out: dict) -> tuple[list[str], list[list]]:
    heads = ["grouping", "group", "a", "b", "instances", "kappa", "both_correct", "one_correct", "both_wrong"]
    for m in METRICS:
        heads += [f"{m}_a", f"{m}_b", f"{m}_difference", f"{m}_ci_low", f"{m}_ci_high", f"{m}_p",
                  f"{m}_p_holm"]
    heads += ["mcnemar_a_only", "mcnemar_b_only", "mcnemar_p", "mcnemar_p_holm", "shuffles", "resamples", "seed"]
    kappa = {(p["a"], p["b"]): p for p in out["pairs"]}
    s = out["test_settings"]
    rows = []
    for grouping, by in out["tests"].items():
        for group, ts in by.items():
            for t in ts:
                k = kappa.get((t["a"], t["b"])) if grouping == ALL else None
                row = [grouping, group, t["a"], t["b"], t["n"]]
                row += [k[c] if k else None for c in ("kappa", "both_correct", "one_correct", "both_wrong")]
                for m in METRICS:
                    v = t[m]
                    row += [v["a"], v["b"], v["difference"], v["ci"][0], v["ci"][1], v["p_randomization"],
                            v["p_holm"]]
                mc = t["mcnemar"]
                row += [mc["a_only"], mc["b_only"], mc["p"], mc["p_holm"], s["shuffles"], s["resamples"], s["seed"]]
                rows.append(row)
    return heads, rows


def changes_rows(out: dict) -> tuple[list[str], list[list]]:
    heads = ["baseline", "system", "change", "lexelt", "instance", "baseline_score", "system_score"]
    rows = [[out["baseline"], r["system"], c["change"], c["lexelt"], c["instance"], c["baseline_score"],
             c["system_score"]] for r in out["regression"] for c in r["instances"]]
    return heads, rows


def regression_text(out: dict) -> str:
    lines = [f"regression view against the baseline {out['baseline']} (correct = score >= {out['threshold']})"]
    lines += out.get("regression_notes", [])
    for r in out["regression"]:
        lines.append(f"{r['system']}: {r['gained']} instance(s) gained, {r['lost']} lost "
                     f"(net {r['gained'] - r['lost']:+d})")
        for grouping, by in r["by"].items():
            if by:
                rows = [[k, v["gained"], v["lost"], v["gained"] - v["lost"]] for k, v in by.items()]
                lines.append(text_table([grouping, "gained", "lost", "net"], rows))
        shown = r["instances"][:TEXT_CHANGES]
        for c in shown:
            lines.append(f"  {c['change']:6s} {c['lexelt']} {c['instance']} (baseline {fmt(c['baseline_score'])}, "
                         f"now {fmt(c['system_score'])})")
        if len(r["instances"]) > len(shown):
            lines.append(f"  ... {len(r['instances']) - len(shown)} more (--format json or --format csv "
                         "--csv-table changes list them all)")
    return "\n".join(lines)


def history_text(history: list[dict]) -> str:
    if not history:
        return "run history: no run stored in the project (project add-run P.hadj NAME=FILE)"
    rows = [[h["name"], h["added_at"], h["precision"], h["recall"], h["f1"], h["note"]] for h in history]
    lines = ["run history (every stored run against this gold, oldest first):",
             text_table(["run", "stored", "precision", "recall", "F1", "note"], rows)]
    for m in METRICS:
        vals = [h[m] for h in history]
        lines.append(f"  {LABEL[m]:2s} {_spark(vals)}")
    return "\n".join(lines)


def _spark(vals: list) -> str:
    """The run history of one metric as a row of block characters (oldest left), scaled to 0..1."""
    bars = " ▁▂▃▄▅▆▇█"
    return "".join("?" if v is None else bars[min(8, int(round(v * 8)))] for v in vals) + \
        "  " + " ".join(fmt(v) for v in vals)


def _ci(ci: list) -> str:
    return "undefined" if ci[0] is None else f"[{fmt(ci[0])}, {fmt(ci[1])}]"
