"""The dates inside the inputs (issue 32): Label Studio's created_at/updated_at and lead_time,
Prodigy's _timestamp and a long table's date column are kept per label row (UTC seconds, NaN where
absent); a malformed date the tool wrote is left out with a warning naming the task or line, a
malformed date in a table's column is an error naming file and line."""

from __future__ import annotations

import json
import math
import random
from datetime import datetime, timedelta, timezone
from pathlib import Path

import numpy as np
import pytest

from hieradjudicate.io.annotations.read import read_annotations
from hieradjudicate.io.annotations.times import date_seconds

T0 = datetime(2024, 3, 4, 9, 30, 15, 250000, tzinfo=timezone.utc)


def _by_answer(src) -> dict[tuple[str, str], tuple[float, float]]:
    """(set, instance) -> (time, lead_time), checking every label row of an answer has the same."""
    out: dict = {}
    lead = src.lead_time if src.lead_time is not None else np.full(src.n_labels, np.nan)
    for r in range(src.n_labels):
        key = (src.set_names[src.set[r]], src.item_instance[src.item[r]])
        val = (float(src.time[r]), float(lead[r]))
        assert np.array_equal(out.setdefault(key, val), val, equal_nan=True)
    return out


@pytest.mark.parametrize("text, seconds", [
    ("2024-03-04", datetime(2024, 3, 4, tzinfo=timezone.utc).timestamp()),
    ("2024-03-04T09:30:15.25Z", T0.timestamp()),
    ("2024-03-04T10:30:15.250000+01:00", T0.timestamp()),
    ("2024-03-04 09:30:15.25", T0.timestamp()),  # no offset: UTC
    (1709544615, 1709544615.0),
    ("1709544615.25", 1709544615.25),
    (1709544615250, 1709544615.25),  # milliseconds, as JavaScript writes them
    ("", math.nan), (None, math.nan),
])
def test_dates_are_read_as_utc_seconds(text, seconds):
    got = date_seconds(text)
    assert (math.isnan(got) and math.isnan(seconds)) or got == pytest.approx(seconds, abs=1e-6)


@pytest.mark.parametrize("bad", ["yesterday", "2024-13-01", "2024-03-04T25:00", -5, True, float("inf"), [2024]])
def test_a_malformed_date_is_refused_with_what_is_expected(bad):
    with pytest.raises(ValueError, match="ISO 8601"):
        date_seconds(bad)


def _ls_task(n: int, who: str, sense: str, **when) -> dict:
    return {"id": n, "data": {"lexelt": "bank.n", "instance": f"b{n}"},
            "annotations": [{"completed_by": {"id": 1, "email": who}, **when,
                             "result": [{"type": "choices", "value": {"choices": [sense]}}]}]}


def test_labelstudio_round_trip_keeps_every_annotations_time_and_lead_time(tmp_path):
    rng = random.Random(4)
    want = {}
    tasks: list[dict] = []
    for n in range(40):
        anns = []
        for who in ("ann", "ben"):
            at = T0 + timedelta(seconds=rng.randrange(10**6), microseconds=rng.randrange(10**6))
            lead = round(rng.uniform(1, 100), 3)
            tags = rng.sample(["1", "2", "3"], rng.choice([1, 2]))
            anns.append({"completed_by": {"id": 1, "email": who}, "created_at": at.isoformat(),
                         "updated_at": (at + timedelta(days=3)).isoformat(), "lead_time": lead,
                         "result": [{"type": "choices", "value": {"choices": tags}}]})
            want[(who, f"b{n}")] = (at.timestamp(), lead)
        tasks.append({"id": n, "data": {"lexelt": "bank.n", "instance": f"b{n}"}, "annotations": anns})
    rng.shuffle(tasks)
    path = tmp_path / "ls.json"
    path.write_text(json.dumps(tasks))
    got = _by_answer(read_annotations(path))
    assert got.keys() == want.keys()
    for k, (t, lead) in want.items():
        assert got[k][0] == pytest.approx(t, abs=1e-6) and got[k][1] == lead


def test_labelstudio_takes_updated_at_when_created_at_is_missing_and_nan_without_either(tmp_path):
    path = tmp_path / "ls.json"
    path.write_text(json.dumps([_ls_task(1, "ann", "1", updated_at="2024-03-04T09:30:15.25Z"),
                                _ls_task(2, "ann", "2")]))
    src = read_annotations(path)
    got = _by_answer(src)
    assert got[("ann", "b1")][0] == pytest.approx(T0.timestamp())
    assert math.isnan(got[("ann", "b2")][0]) and src.lead_time is None


def test_labelstudio_without_any_date_has_no_times(tmp_path):
    path = tmp_path / "ls.json"
    path.write_text(json.dumps([_ls_task(1, "ann", "1")]))
    src = read_annotations(path)
    assert src.time is None and src.lead_time is None


def test_a_malformed_labelstudio_date_is_left_out_with_a_warning_naming_the_task(tmp_path):
    """created_at is metadata Label Studio writes, not the answer: the answer is kept, its date left
    out, and the warning says which task and annotator."""
    path = tmp_path / "ls.json"
    path.write_text(json.dumps([_ls_task(1, "ann", "1", created_at="2024-03-04T09:30:15.25Z"),
                                _ls_task(2, "ben", "2", created_at="last tuesday", lead_time="long")]))
    src = read_annotations(path)
    got = _by_answer(src)
    assert len(got) == 2 and math.isnan(got[("ben", "b2")][0]) and math.isnan(got[("ben", "b2")][1])
    msgs = [p.message for p in src.problems if p.severity == "warning"]
    assert any("task 2" in m and "ben" in m and "'last tuesday'" in m for m in msgs)
    assert any("task 2" in m and "lead_time 'long'" in m for m in msgs)


def test_prodigy_timestamp_is_kept_per_answer_and_a_malformed_one_warned_with_its_line(tmp_path):
    lines = []
    for n, (who, ts) in enumerate([("ann", 1709544615), ("ben", 1709544700), ("ann", "soon"), ("ben", None)]):
        task = {"text": "x", "meta": {"lexelt": "bank.n", "instance": f"b{n}"}, "accept": ["1"],
                "answer": "accept", "_annotator_id": who}
        if ts is not None:
            task["_timestamp"] = ts
        lines.append(json.dumps(task))
    path = tmp_path / "p.jsonl"
    path.write_text("\n".join(lines) + "\n")
    src = read_annotations(path)
    got = _by_answer(src)
    assert got[("ann", "b0")][0] == 1709544615.0 and got[("ben", "b1")][0] == 1709544700.0
    assert math.isnan(got[("ann", "b2")][0]) and math.isnan(got[("ben", "b3")][0])
    warned = [p for p in src.problems if "'soon'" in p.message]
    assert len(warned) == 1 and warned[0].line == 3 and warned[0].severity == "warning"


def test_long_table_date_column_round_trip_survives_duplicates_and_merged_rows(tmp_path):
    """One row per label: the rows of one answer share its date; a later duplicate answer is dropped
    with its date; rows out of order are grouped with their own dates."""
    rows = ["lexelt,instance,annotator,tag,weight,date",
            "bank.n,b1,ann,1,0.5,2024-03-04T09:30:15.25Z",
            "bank.n,b2,ben,2,1,2024-03-05",
            "bank.n,b1,ben,3,1,",
            "bank.n,b1,ann,2,0.5,2024-03-04T09:30:15.25Z"]
    path = tmp_path / "long.csv"
    path.write_text("\n".join(rows) + "\n")
    src = read_annotations(path)
    got = _by_answer(src)
    assert got[("ann", "b1")][0] == pytest.approx(T0.timestamp())
    assert got[("ben", "b2")][0] == datetime(2024, 3, 5, tzinfo=timezone.utc).timestamp()
    assert math.isnan(got[("ben", "b1")][0])
    assert src.time.shape == src.item.shape


def test_a_malformed_date_in_a_tables_date_column_is_an_error_naming_file_and_line(tmp_path):
    path = tmp_path / "long.csv"
    path.write_text("lexelt,instance,annotator,tag,time\nbank.n,b1,ann,1,2024-03-04\nbank.n,b2,ann,2,03/04/2024\n")
    src = read_annotations(path)  # as every row error: reported, the row left out (a project refuses the file)
    errors = [p for p in src.problems if p.severity == "error"]
    assert len(errors) == 1
    p = errors[0]
    assert p.line == 3 and p.file.endswith("long.csv") and "'03/04/2024'" in p.message and "'time'" in p.message
    assert src.item_instance == ["b1"]


def test_a_table_date_column_named_in_the_mapping_is_read(tmp_path):
    path = tmp_path / "long.tsv"
    path.write_text("w\tid\twho\tsense\twhen\nbank.n\tb1\tann\t1\t2024-03-04T09:30:15.25Z\n")
    src = read_annotations(path, columns={"lexelt": "w", "instance": "id", "annotator": "who", "tag": "sense",
                                          "time": "when"})
    assert src.time.tolist() == pytest.approx([T0.timestamp()])


def test_formats_without_dates_have_no_times(tmp_path):
    path = tmp_path / "a.key"
    path.write_text("bank.n b1 1\nbank.n b2 2\n")
    src = read_annotations(path)
    assert src.time is None and src.lead_time is None
