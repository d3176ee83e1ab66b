"""``agree --by-lexelt --format csv`` (the monitoring guide's command) writes the lexelts' figures:
before, the CSV held the pairs' table only and the per-lexelt figures asked for were dropped."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import hieradjudicate
from hieradjudicate.cli.entry import main

DEMO = Path(hieradjudicate.__file__).resolve().parent.parent / "resources" / "demo"
ARGS = ["agree", "--inventory", str(DEMO / "inventory.txt")] + [
    a for n in ("ann", "ben", "cho") for a in ("--annotations", f"{n}={DEMO / f'annotator_{n}.key'}")]


def test_agree_by_lexelt_csv_follows_the_pairs_with_every_lexelts_figures(capsys):
    assert main(ARGS + ["--by-lexelt", "--format", "json"]) == 0
    by_lexelt = json.loads(capsys.readouterr().out)["by_lexelt"]
    assert main(ARGS + ["--by-lexelt", "--format", "csv"]) == 0
    pairs, lexelts = capsys.readouterr().out.split("\n\n")
    assert len(list(csv.DictReader(io.StringIO(pairs)))) == 3  # ann-ben, ann-cho, ben-cho
    rows = list(csv.DictReader(io.StringIO(lexelts)))
    assert [r["lexelt"] for r in rows] == list(by_lexelt)
    for r in rows:
        want = by_lexelt[r["lexelt"]]
        assert int(r["n"]) == want["n"]
        for k in ("fleiss", "fleiss_gwet", "conger", "alpha"):
            assert float(r[k]) == want[k]


def test_agree_csv_without_by_lexelt_is_the_pairs_table_alone(capsys):
    assert main(ARGS + ["--format", "csv"]) == 0
    assert "\n\n" not in capsys.readouterr().out
