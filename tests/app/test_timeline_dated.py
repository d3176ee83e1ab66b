"""Dates inside the inputs (issue 32): a Label Studio export whose annotations carry created_at and
lead_time gives agreement by week of annotation, drift per annotator and time per item equal to an
independent computation (scikit-learn's Cohen's kappa, statsmodels' Fleiss' kappa), read again from
the project's stored copy."""

from __future__ import annotations

import itertools
import json
import random
import warnings
from datetime import datetime, timedelta, timezone
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from hieradjudicate.app.loading.load import AnnotationSpec
from hieradjudicate.app.session.session import Session
from hieradjudicate.app.timeline.dated import GAP_CAP, dated_answers, dated_timeline, input_sources, project_dated

NAMES = ("ann", "ben", "cho")
SENSES = ("1", "2", "3")
START = datetime(2024, 3, 4, 9, 0, tzinfo=timezone.utc)  # a Monday


def make_answers(seed: int = 7, n: int = 60) -> list[dict]:
    """Answers (annotator, instance, sense, time, lead): each annotator answers most instances, at a
    time spread over three weeks (the same instance in different weeks for different annotators),
    agreeing less as the weeks go (drift)."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        truth = rng.choice(SENSES)
        for a, who in enumerate(NAMES):
            if rng.random() < 0.15:
                continue
            day = rng.randrange(21)
            at = START + timedelta(days=day, minutes=rng.randrange(600), seconds=rng.randrange(60))
            noise = 0.1 + 0.25 * (day // 7) * (a == 2)  # cho drifts
            sense = truth if rng.random() > noise else rng.choice(SENSES)
            out.append({"who": who, "inst": f"b{i:03d}", "sense": sense, "at": at,
                        "lead": round(rng.uniform(2, 90), 3)})
    return out


def write_labelstudio(answers: list[dict], path: Path, *, lead: bool = True) -> Path:
    tasks: dict[str, dict] = {}
    for x in answers:
        t = tasks.setdefault(x["inst"], {"id": len(tasks) + 1, "data": {"lexelt": "bank.n", "instance": x["inst"]},
                                         "annotations": []})
        a = {"completed_by": {"id": NAMES.index(x["who"]), "email": x["who"]},
             "created_at": x["at"].strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
             "updated_at": (x["at"] + timedelta(days=30)).isoformat(),
             "result": [{"from_name": "sense", "type": "choices", "value": {"choices": [x["sense"]]}}]}
        if lead:
            a["lead_time"] = x["lead"]
        t["annotations"].append(a)
    path.write_text(json.dumps(list(tasks.values())))
    return path


def make_project(tmp_path: Path, answers: list[dict], *, lead: bool = True) -> Session:
    inv = tmp_path / "inventory.txt"
    inv.write_text("# lexelt bank.n\n1: one\n2: two\n3: three\n")
    ls = write_labelstudio(answers, tmp_path / "export.json", lead=lead)
    return Session.create(tmp_path / "p.hadj", [str(inv)], [AnnotationSpec(str(ls), name="ls")])


def monday(at: datetime) -> str:
    return (at - timedelta(days=at.weekday())).strftime("%Y-%m-%d")


def oracle_week(answers: list[dict], week: str) -> tuple[float, dict[str, float]]:
    """Mean pairwise Cohen's kappa over the instances both answered that week, and each annotator's
    mean kappa with the others over the instances they answered that week (the others' answers
    whenever given), by scikit-learn; a pair whose kappa is undefined (chance agreement 1: one sense
    on both sides; scikit-learn's NaN) is not in the mean, as the dashboard's mean kappa leaves it."""
    this = {(x["who"], x["inst"]): x["sense"] for x in answers if monday(x["at"]) == week}
    every = {(x["who"], x["inst"]): x["sense"] for x in answers}
    pair_k = []
    for a, b in itertools.combinations(NAMES, 2):
        shared = sorted({i for w, i in this if w == a} & {i for w, i in this if w == b})
        if shared:
            pair_k.append(_kappa([this[a, i] for i in shared], [this[b, i] for i in shared]))
    drift = {}
    for a in NAMES:
        mine = sorted(i for w, i in this if w == a)
        ks = []
        for b in NAMES:
            shared = [i for i in mine if (b, i) in every] if b != a else []
            if shared:
                ks.append(_kappa([every[a, i] for i in shared], [every[b, i] for i in shared]))
        if ks:
            drift[a] = _mean(ks)
    return _mean(pair_k), drift


def same(got: float | None, want: float | None) -> bool:
    """Equal to 1e-12, or both undefined."""
    return got is None and want is None or (got is not None and want is not None and abs(got - want) <= 1e-12)


def _kappa(x: list[str], y: list[str]) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scikit-learn warns where the kappa is undefined
        return float(cohen_kappa_score(x, y))


def _mean(values: list[float]) -> float | None:
    v = [k for k in values if not np.isnan(k)]
    return float(np.mean(v)) if v else None


def test_agreement_by_week_equals_scikit_learn_on_each_weeks_pairs(tmp_path):
    answers = make_answers()
    s = make_project(tmp_path, answers)
    try:
        d = project_dated(s.store, s.corpus)
    finally:
        s.close()
    assert d is not None
    weeks = sorted({monday(x["at"]) for x in answers})
    assert [p.week for p in d.weeks] == weeks
    for p in d.weeks:
        mean_k, drift = oracle_week(answers, p.week)
        assert p.answers == sum(monday(x["at"]) == p.week for x in answers)
        assert same(p.figures["mean_kappa_cohen"].value, mean_k)
        assert p.drift.keys() == drift.keys()
        for who, k in drift.items():
            assert same(p.drift[who].value, k), (p.week, who)


def test_fleiss_by_week_equals_statsmodels_on_the_weeks_complete_instances(tmp_path):
    """Every annotator answers every instance in the same week: the week's Fleiss' kappa is
    statsmodels' on that week's instances."""
    sm = pytest.importorskip("statsmodels.stats.inter_rater")
    rng = random.Random(3)
    answers = []
    for i in range(45):
        day = rng.randrange(14)
        truth = rng.choice(SENSES)
        for who in NAMES:
            sense = truth if rng.random() > 0.3 else rng.choice(SENSES)
            answers.append({"who": who, "inst": f"b{i:03d}", "sense": sense, "lead": 5.0,
                            "at": START + timedelta(days=day, hours=NAMES.index(who))})
    s = make_project(tmp_path, answers)
    try:
        d = project_dated(s.store, s.corpus)
    finally:
        s.close()
    for p in d.weeks:
        insts = sorted({x["inst"] for x in answers if monday(x["at"]) == p.week})
        table = np.zeros((len(insts), len(SENSES)))
        for x in answers:
            if x["inst"] in insts:
                table[insts.index(x["inst"]), SENSES.index(x["sense"])] += 1
        assert p.figures["fleiss"].value == pytest.approx(sm.fleiss_kappa(table, method="fleiss"), abs=1e-12)


def test_time_per_item_is_the_median_lead_time_of_the_weeks_answers(tmp_path):
    answers = make_answers(seed=11)
    s = make_project(tmp_path, answers)
    try:
        d = project_dated(s.store, s.corpus)
    finally:
        s.close()
    assert d.time_source == "lead_time" and "lead_time" in d.note
    for p in d.weeks:
        week = [x for x in answers if monday(x["at"]) == p.week]
        assert p.seconds_per_item == pytest.approx(float(np.median([x["lead"] for x in week])))
        for who in NAMES:
            mine = [x["lead"] for x in week if x["who"] == who]
            assert p.seconds_per_item_by.get(who) == (pytest.approx(float(np.median(mine))) if mine else None)


def test_without_lead_time_time_per_item_is_the_capped_gap_between_consecutive_answers(tmp_path):
    answers = make_answers(seed=5)
    s = make_project(tmp_path, answers, lead=False)
    try:
        d = project_dated(s.store, s.corpus)
    finally:
        s.close()
    assert d.time_source == "gaps" and "breaks" in d.note
    gaps: dict[str, list[float]] = {}
    for who in NAMES:
        mine = sorted((x for x in answers if x["who"] == who), key=lambda x: x["at"])
        for prev, x in zip(mine, mine[1:]):
            g = (x["at"] - prev["at"]).total_seconds()
            if g <= GAP_CAP:
                gaps.setdefault(monday(x["at"]), []).append(g)
    for p in d.weeks:
        expected = float(np.median(gaps[p.week])) if p.week in gaps else None
        assert p.seconds_per_item == (pytest.approx(expected) if expected is not None else None)


def test_stored_copy_read_again_gives_the_dates(tmp_path):
    """The project reads its stored copy (not the original, which is gone) and finds every date."""
    answers = make_answers(seed=2)
    s = make_project(tmp_path, answers)
    (tmp_path / "export.json").unlink()
    s.close()
    s = Session.open(tmp_path / "p.hadj", read_only=True)
    try:
        ans = dated_answers(s.corpus, input_sources(s.store))
        got = sorted((s.corpus.sets[k].name, s.corpus.inst_id[int(s.corpus.sets[k].rows[r])], t, ld)
                     for k, r, t, ld in zip(ans.set_index.tolist(), ans.row.tolist(), ans.time.tolist(),
                                            ans.lead.tolist()))
    finally:
        s.close()
    want = sorted((x["who"], x["inst"], x["at"].timestamp(), x["lead"]) for x in answers)
    assert [g[:2] for g in got] == [w[:2] for w in want]
    assert np.allclose([g[2] for g in got], [w[2] for w in want], rtol=0, atol=1e-6)
    assert [g[3] for g in got] == [w[3] for w in want]


def test_inputs_without_dates_give_no_dated_timeline(tmp_path):
    inv = tmp_path / "inventory.txt"
    inv.write_text("# lexelt bank.n\n1: one\n2: two\n")
    key = tmp_path / "a.key"
    key.write_text("bank.n b1 1\nbank.n b2 2\n")
    s = Session.create(tmp_path / "p.hadj", [str(inv)], [AnnotationSpec(str(key), name="a")])
    try:
        assert project_dated(s.store, s.corpus) is None
        assert dated_timeline(s.corpus, None) is None
    finally:
        s.close()


def test_a_long_tables_date_column_reaches_the_timeline_and_a_table_without_one_is_not_read_again(tmp_path):
    answers = make_answers(seed=9, n=30)
    inv = tmp_path / "inventory.txt"
    inv.write_text("# lexelt bank.n\n1: one\n2: two\n3: three\n")
    dated, plain = tmp_path / "dated.csv", tmp_path / "plain.csv"
    dated.write_text("lexelt,instance,annotator,tag,date\n" + "".join(
        f"bank.n,{x['inst']},{x['who']},{x['sense']},{x['at'].isoformat()}\n" for x in answers))
    plain.write_text("lexelt,instance,annotator,tag\nbank.n,b000,zed,1\n")
    s = Session.create(tmp_path / "p.hadj", [str(inv)], [AnnotationSpec(str(dated), name="d"),
                                                          AnnotationSpec(str(plain), name="p")])
    try:
        sources = input_sources(s.store)
        d = project_dated(s.store, s.corpus)
    finally:
        s.close()
    assert [src.path.rsplit("/", 1)[-1] for src in sources] == ["dated.csv"]
    assert d.time_source == "gaps"
    for p in d.weeks:
        mean_k, _ = oracle_week(answers, p.week)
        assert same(p.figures["mean_kappa_cohen"].value, mean_k)


def test_the_dated_answers_are_kept_in_the_project_and_read_again_when_the_copies_change(tmp_path, monkeypatch):
    import hieradjudicate.app.timeline.dated as dated_mod
    from hieradjudicate.app.timeline.dated import DATED_CACHE, as_json, cache_key

    answers = make_answers(seed=4, n=30)
    s = make_project(tmp_path, answers)
    try:
        first = as_json(project_dated(s.store, s.corpus))
        assert s.store.get_arrays(DATED_CACHE) is not None
        real = dated_mod.input_sources
        monkeypatch.setattr(dated_mod, "input_sources", lambda store: pytest.fail("read again"))
        assert as_json(project_dated(s.store, s.corpus)) == first  # from the project's copy
        key = cache_key(s.store)
        monkeypatch.setattr(dated_mod, "cache_key", lambda store: key + [["another copy"]])
        calls = []
        monkeypatch.setattr(dated_mod, "input_sources", lambda store: calls.append(1) or real(store))
        assert as_json(project_dated(s.store, s.corpus)) == first and calls == [1]
    finally:
        s.close()


def test_before_after_a_marker_compares_the_answers_made_on_each_side_of_it(tmp_path, capsys):
    from hieradjudicate.app.timeline.dated import _long_form
    from hieradjudicate.app.timeline.marks import add_marker
    from hieradjudicate.app.timeline.view import project_timeline
    from hieradjudicate.cli.entry import main
    from hieradjudicate.core.agreement.multirater import fleiss_agreement
    from hieradjudicate.core.agreement.layout import make_layout

    answers = make_answers()
    s = make_project(tmp_path, answers)
    cut = START + timedelta(days=14) - timedelta(hours=9)  # the third week's Monday 00:00 UTC
    add_marker(s.store, "guidelines v2", cut.strftime("%Y-%m-%dT%H:%M"))
    v = project_timeline(s.store, s.corpus, n_resamples=300, imports=False)
    d = v.before_after[0]["made"]
    c = s.corpus
    group = list(range(len(c.sets)))
    want = []
    for side in ([x for x in answers if x["at"] < cut], [x for x in answers if x["at"] >= cut]):
        k = np.array([c.sets.index(c.get_set(x["who"])) for x in side])
        row = np.array([int(c.get_set(x["who"]).position([c.instance_index("bank.n", x["inst"])])[0]) for x in side])
        inst, rater, P = _long_form(c, group, k, row)
        want.append(fleiss_agreement(make_layout(inst, rater, P, c.inst_lexelt, n_lexelts=1)).kappa.value)
    assert d.before == pytest.approx(want[0], abs=1e-12) and d.after == pytest.approx(want[1], abs=1e-12)
    assert not d.paired and d.low < d.difference < d.high
    path = str(s.path)
    s.close()
    assert main(["project", "timeline", path, "--resamples", "300"]) == 0
    out = capsys.readouterr().out
    assert "Fleiss' kappa of the answers made before / after it" in out and "unpaired" in out


def test_a_prodigy_files_timestamps_give_agreement_by_week_equal_to_scikit_learn(tmp_path):
    answers = make_answers(seed=5)
    lines = [json.dumps({"text": x["inst"], "meta": {"lexelt": "bank.n", "instance": x["inst"]},
                         "accept": [x["sense"]], "answer": "accept", "_annotator_id": x["who"],
                         "_timestamp": int(x["at"].timestamp())}) for x in answers]
    (tmp_path / "prodigy.jsonl").write_text("\n".join(lines) + "\n")
    inv = tmp_path / "inventory.txt"
    inv.write_text("# lexelt bank.n\n1: one\n2: two\n3: three\n")
    s = Session.create(tmp_path / "p.hadj", [str(inv)], [AnnotationSpec(str(tmp_path / "prodigy.jsonl"), name="pd")])
    try:
        d = project_dated(s.store, s.corpus, n_resamples=200)
    finally:
        s.close()
    assert d is not None and d.time_source == "gaps"  # Prodigy gives no lead time
    assert [p.week for p in d.weeks] == sorted({monday(x["at"]) for x in answers})
    for p in d.weeks:
        mean_k, drift = oracle_week(answers, p.week)
        assert same(p.figures["mean_kappa_cohen"].value, mean_k)
        assert p.drift.keys() == drift.keys()
        for who, k in drift.items():
            assert same(p.drift[who].value, k), (p.week, who)
            assert p.drift[who].low is not None and p.drift[who].low <= k <= p.drift[who].high
