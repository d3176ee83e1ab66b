"""Splitting the open instances (pure), and the lead's per-adjudicator figures against oracles."""

from __future__ import annotations

import io
import json
from collections import Counter
from contextlib import redirect_stderr, redirect_stdout

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

from hieradjudicate.app.team import figures, plan_assignment
from hieradjudicate.cli.entry import main
from hieradjudicate.core.errors import HieradjError

KEYS = [(f"lex{k % 7}", f"i{k}") for k in range(1000)]


def test_split_by_instance_balances_the_load_and_doubles_the_overlap_blind() -> None:
    rows = plan_assignment(KEYS, ["alice", "bob", "carol"], overlap=0.1, seed=3)
    per_key = Counter((r[0], r[1]) for r in rows)
    assert set(per_key) == set(KEYS)
    assert Counter(per_key.values()) == {1: 900, 2: 100}
    for (lex, inst), n in per_key.items():
        halves = [r for r in rows if (r[0], r[1]) == (lex, inst)] if n == 2 else []
        if halves:
            assert halves[0][2] != halves[1][2] and all(h[3] for h in halves)
            break
    assert all(r[3] == (per_key[(r[0], r[1])] == 2) for r in rows)
    load = Counter(r[2] for r in rows)
    assert max(load.values()) - min(load.values()) <= 1 and sum(load.values()) == 1100
    pairs = Counter(frozenset(r[2] for r in rows if (r[0], r[1]) == k) for k, n in per_key.items() if n == 2)
    assert len(pairs) == 3  # partners rotate: every pair of people shares some overlap
    assert rows == plan_assignment(KEYS, ["alice", "bob", "carol"], overlap=0.1, seed=3)  # seeded


def test_split_by_lexelt_keeps_each_lexelt_with_one_owner() -> None:
    rows = plan_assignment(KEYS, ["alice", "bob"], overlap=0.2, by="lexelt")
    owners: dict[str, set[str]] = {}
    for lex, _inst, who, blind in rows:
        if not blind:
            owners.setdefault(lex, set()).add(who)
    assert all(len(v) == 1 for v in owners.values()) and len(owners) == 7
    blind = Counter((r[0], r[1]) for r in rows if r[3])
    assert set(blind.values()) == {2}
    assert sum(1 for k in blind) == sum(round(0.2 * n) for n in Counter(k[0] for k in KEYS).values())


@pytest.mark.parametrize("kwargs, message", [
    ({"overlap": 0.1, "adjudicators": ["alice"]}, "at least two adjudicators"),
    ({"overlap": 1.5, "adjudicators": ["a", "b"]}, "between 0 and 1"),
    ({"overlap": 0.0, "adjudicators": [" "]}, "at least one adjudicator"),
])
def test_impossible_splits_are_refused(kwargs: dict, message: str) -> None:
    people = kwargs.pop("adjudicators")
    with pytest.raises(HieradjError, match=message):
        plan_assignment(KEYS, people, **kwargs)


def test_kappa_on_the_overlap_matches_sklearn_and_statsmodels(cluster, published: str) -> None:
    from hieradjudicate.app.session.session import Session
    from tests.team.conftest import url

    rng = np.random.default_rng(7)
    with Session.open(url(cluster, "lead", published)) as s:
        inv = s.corpus.inventory
        keys = [k for k in s.instances() if k[0] == "bank.n"][:60]
        leaves = ["1.1", "1.2", "4"]
        assert all(inv.lookup("bank.n", t) >= 0 for t in leaves)
        a = rng.integers(0, 3, len(keys))
        b = np.where(rng.random(len(keys)) < 0.6, a, rng.integers(0, 3, len(keys)))
        assignments = [(k[0], k[1], p, True) for k in keys for p in ("alice", "bob")]
        t0 = 1_800_000_000.0
        adj = [(k[0], k[1], "alice", json.dumps([leaves[x]]), "resolved", i, t0 + 30 * i)
               for i, (k, x) in enumerate(zip(keys, a, strict=True))]
        adj += [(k[0], k[1], "bob", json.dumps([leaves[x]]), "resolved", 100 + i, t0 + 20 * i)
                for i, (k, x) in enumerate(zip(keys, b, strict=True))]
        # the lead later decides the first 10 instances as alice did, except 3 of them
        lead = [(k[0], k[1], json.dumps([leaves[(x + (1 if i < 3 else 0)) % 3]]), "resolved", 1000 + i)
                for i, (k, x) in enumerate(zip(keys[:10], a[:10], strict=True))]
        figs = {f.name: f for f in figures(s.corpus, assignments, adj, lead, n_resamples=200)}
    alice, bob = figs["alice"], figs["bob"]
    n = len(keys)
    assert n >= 40 and (alice.assigned, alice.decided, alice.overlap_pairs) == (n, n, n)
    assert alice.cohen.estimate.value == pytest.approx(cohen_kappa_score(a, b), abs=1e-12)
    table, _ = aggregate_raters(np.column_stack([a, b]))
    assert alice.scott.estimate.value == pytest.approx(fleiss_kappa(table, method="fleiss"), abs=1e-12)
    assert bob.cohen.estimate.value == pytest.approx(alice.cohen.estimate.value, abs=1e-12)
    assert alice.cohen.low < alice.cohen.estimate.value < alice.cohen.high
    assert (alice.overturned, bob.overturned) == (3, sum(1 for i in range(10) if leaves[(a[i] + (i < 3)) % 3] != leaves[b[i]]))
    assert alice.overturn_rate == pytest.approx(3 / n)
    assert alice.median_seconds == pytest.approx(30.0) and bob.per_hour == pytest.approx(180.0)


def test_assign_conflicts_and_progress_on_the_command_line(cluster, published: str) -> None:
    from tests.team.conftest import url

    def cli(*args: str) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            code = main(list(args))
        return code, out.getvalue(), err.getvalue()

    u = url(cluster, "lead", published)
    code, out, err = cli("project", "status", u, "--format", "json")
    unresolved = json.loads(out)["status"]["unresolved"]
    assert 0 < unresolved < 400
    code, out, err = cli("project", "assign", u, "--adjudicators", "alice,dave")
    assert code == 1 and "dave not adjudicator(s)" in err
    code, out, err = cli("project", "assign", url(cluster, "alice", published), "--adjudicators", "alice")
    assert code == 1 and "only the project's lead may assign work" in err
    code, out, err = cli("project", "assign", u, "--adjudicators", "alice,bob,carol", "--overlap", "0.1")
    assert code == 0, err
    n_open = int(out.split("assigned ")[1].split()[0])
    assert n_open == unresolved and f"{round(0.1 * unresolved)} decided twice, blind" in out
    code, out, err = cli("project", "assign", u, "--adjudicators", "alice,bob,carol")
    assert code == 0 and out.startswith("assigned 0 open instance(s)")  # nothing twice
    code, out, err = cli("project", "progress", u, "--format", "json", "--resamples", "0")
    rows = json.loads(out)["adjudicators"]  # numbers, not formatted strings (#36)
    assert [r["adjudicator"] for r in rows] == ["alice", "bob", "carol"]
    assert sum(r["assigned"] for r in rows) == n_open + round(0.1 * unresolved) and all(r["decided"] == 0 for r in rows)
    code, out, err = cli("project", "progress", u, "--format", "json", "--resamples", "200", "--seed", "3")
    assert code == 0 and "--resamples 200: with fewer than 1000 resamples" in err and json.loads(out)["seed"] == 3
    code, out, err = cli("project", "conflicts", u)
    assert code == 0 and out.startswith("0 instance(s) in conflict")
    code, out, err = cli("project", "conflicts", url(cluster, "vic", published))
    assert code == 1 and "only the project's lead" in err
