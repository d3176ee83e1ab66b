"""The report's section on a reference gold given as input (plain HTML, no Qt): every system's P, R,
F1 and coverage against it under each policy, overall and per data set of the WSD framework's
``ALL`` files (the window's "Systems against the reference gold" panel, every policy at once), and
the paired tests between the systems against it (the window's paired panel with the reference gold
chosen; the figures of ``hieradjudicate compare``).  Omitted when the project has no set of role
gold (#31 items 2 and 3: the report said "no system scores" while the window showed them)."""

from __future__ import annotations

from html import escape as esc
from typing import Any

#: the report's section id and title
KEY, TITLE = "reference", "System scores against the reference gold"
HEADS = ["system", "data set", "precision", "recall", "F1", "coverage", "instances"]


def score_rows(ref: Any) -> tuple[list[str], list[list]]:
    """One row per reference gold, policy, system and data set (``all`` first): the CSV table."""
    rows = [[r.gold, r.policy, r.system, r.dataset or "all", r.precision, r.recall, r.f1, r.coverage, r.total,
             r.attempted] for r in ref.rows]
    return ["reference_gold", "policy", "system", "data_set", "precision", "recall", "f1", "coverage", "instances",
            "attempted"], rows


def section(data: Any, tables: dict, render, explain) -> str:
    """``render(headers, rows)`` makes an HTML table, ``explain(Explain)`` the method box."""
    ref = data.reference
    if ref is None:
        return ""
    many = len(ref.golds) > 1
    out = [f"<p>The systems against the gold standard given as input (role gold: "
           f"<b>{esc(', '.join(ref.golds))}</b>), over every instance of it. These figures do not use the "
           "decisions made in the project (the adjudicated gold has its own section below); they are the figures "
           "of <code>hieradjudicate score</code> and <code>hieradjudicate compare</code> on the project's "
           "input files.</p>"]
    if ref.note:
        out.append(f'<p class="muted">{esc(ref.note)}</p>')
    for policy in ref.policies:
        rows = [[f"{r.system} vs {r.gold}" if many else r.system if not r.dataset else "", r.dataset or "all",
                 r.precision, r.recall, r.f1, r.coverage, r.total] for r in ref.rows if r.policy == policy]
        if rows:
            from hieradjudicate.app.workbench.reference import explain as policy_text

            out.append(f"<h3>{esc(policy)} policy</h3><p class=\"muted\">{esc(policy_text(policy))}</p>")
            out.append(render(HEADS, rows))
    tests = data.reference_significance or {}
    if not tests:
        systems = len(ref.systems)
        out.append(f"<p>No paired tests against the reference gold: they compare two systems or more, and this "
                   f"project has {systems} ({esc(', '.join(ref.systems)) or 'none'}).</p>")
    for name, view in tests.items():
        out.append(f"<h3>Paired significance tests against the reference gold {esc(name)}</h3>")
        groups = list(view.groups.get(view.policies[0], {}))
        out.append(f"<p>{esc(view.settings.text())}; every pair over all {view.n} instances and within each "
                   f"group ({esc(', '.join(groups[1:]) or 'none')})"
                   + ("; p Holm = Holm's correction over the pairs of each group" if len(view.names) > 2 else "")
                   + ".</p>")
        out.append(explain(view.explain))
        out.append(paired_table(view, render))
    return "".join(out)


def paired_table(view: Any, render) -> str:
    """The paired tests of a :class:`~hieradjudicate.app.dashboard.significance.SignificanceView` as
    ``compare`` prints them: per policy, group and pair, P, R and F1 (both values, a - b, the interval,
    p) and McNemar; p-values to four decimals (``1.0e-04`` below), p Holm with more than two systems."""
    from hieradjudicate.app.paired import p_text
    from hieradjudicate.core.compare.significance import METRICS

    label = {"precision": "P", "recall": "R", "f1": "F1"}
    holm = len(view.names) > 2

    def num(v):
        return "undefined" if v is None else f"{v:.3f}"

    rows = []
    for policy in view.policies:
        for group, ts in view.groups.get(policy, {}).items():
            for t in ts:
                for m in METRICS:
                    v = t.metrics[m]
                    ci = "undefined" if v.low is None else f"[{v.low:.3f}, {v.high:.3f}]"
                    rows.append([policy, group, t.a, t.b, label[m], num(v.a), num(v.b), num(v.difference), ci,
                                 p_text(v.p_value)] + ([p_text(v.p_holm)] if holm else []))
                mc = t.mcnemar
                rows.append([policy, group, t.a, t.b, "McNemar", f"{mc.a_only} only a right",
                             f"{mc.b_only} only b right", str(mc.a_only - mc.b_only), "", p_text(mc.p_value)]
                            + ([p_text(mc.p_holm)] if holm else []))
    heads = ["policy", "group", "a", "b", "test", "a", "b", "a - b", "95% interval", "p"] + (["p Holm"] if holm else [])
    return render(heads, rows)


__all__ = ["KEY", "TITLE", "paired_table", "score_rows", "section"]
