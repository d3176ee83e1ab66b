"""Published agreement figures (shared oracles folder) reproduced on one-hot leaf vectors.

Each study is one lexelt whose leaves are the study's categories; an item is
an instance, a rater a rater, a label a one-hot leaf vector (an empty label
is a missing annotation).
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from hieradjudicate.core.agreement.pairwise import bennett_s, pairwise_agreement
from hieradjudicate.core.agreement.multirater import multi_rater_agreement
from hieradjudicate.core.agreement.alpha import interval_distance, krippendorff_alpha, ratio_distance
from hieradjudicate.core.stats.undefined import Estimate


class Study:
    """Long-form one-hot annotations of one study."""

    def __init__(self, rows: list[tuple[str, str, str]]) -> None:
        rows = [r for r in rows if r[2] != ""]
        labels = sorted({r[2] for r in rows})
        try:
            labels = sorted(labels, key=float)
            self.values: np.ndarray | None = np.array([float(v) for v in labels])
        except ValueError:
            self.values = None
        self.labels = labels
        items = sorted({r[0] for r in rows}, key=lambda s: (len(s), s))
        raters = sorted({r[1] for r in rows})
        self.rater_names = raters
        self.inst = np.array([items.index(r[0]) for r in rows])
        self.rater = np.array([raters.index(r[1]) for r in rows])
        self.P = np.eye(len(labels))[[labels.index(r[2]) for r in rows]]
        self.inst_lexelt = np.zeros(len(items), np.int64)

    def pair(self, a: str, b: str) -> tuple[np.ndarray, np.ndarray]:
        ra, rb = self.rater_names.index(a), self.rater_names.index(b)
        A = {i: p for i, r, p in zip(self.inst, self.rater, self.P) if r == ra}
        B = {i: p for i, r, p in zip(self.inst, self.rater, self.P) if r == rb}
        shared = sorted(set(A) & set(B))
        return np.array([A[i] for i in shared]), np.array([B[i] for i in shared])


def _read(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


def load_study(folder: Path, file: str, study: str) -> Study:
    rows = [r for r in _read(folder / file) if r["study"] == study]
    if file.endswith("_long.tsv"):
        return Study([(r["item"], r["rater"], r["label"]) for r in rows])
    if file == "two_rater_tables.tsv":
        out: list[tuple[str, str, str]] = []
        for r in rows:
            for _ in range(int(r["count"])):
                item = str(len(out) // 2)
                out += [(item, "r1", r["label_rater1"]), (item, "r2", r["label_rater2"])]
        return Study(out)
    if file == "count_tables.tsv":
        out = []
        per_item: dict[str, int] = {}
        for r in rows:
            for _ in range(int(r["count"])):
                k = per_item.get(r["item"], 0)
                per_item[r["item"]] = k + 1
                out.append((r["item"], f"slot{k}", r["category"]))
        return Study(out)
    raise AssertionError(f"unknown oracle file {file}")


def _custom_ap2008(study: Study) -> np.ndarray:
    """A&P 2008 weighted example: d(x,x)=0; d(Chck,*)=0.5; else 1."""
    lab = [s.lower() for s in study.labels]
    d = 1.0 - np.eye(len(lab))
    c = lab.index("chck")
    d[c, :] = d[:, c] = 0.5
    d[c, c] = 0.0
    return d


CUSTOM = {"custom: d(x,x)=0; d(Chck,*)=0.5; else 1": _custom_ap2008}


def compute(entry: dict[str, Any], study: Study) -> Estimate | float:
    coef = entry["coef"]
    if coef in ("Ao", "S", "scott_pi", "cohen_kappa"):
        a, b = entry.get("raters", study.rater_names[:2])
        if len(study.rater_names) != 2 and "raters" not in entry:
            pytest.fail(f"{entry['study']}: a two-rater coefficient on {len(study.rater_names)} raters")
        res = pairwise_agreement(*study.pair(a, b))
        if coef == "Ao":
            assert res.scott.observed is not None
            return res.scott.observed
        if coef == "S":
            return bennett_s(res.scott.observed, len(study.labels))
        return res.scott.kappa if coef == "scott_pi" else res.cohen.kappa
    if coef in ("fleiss_kappa", "fleiss_kappa_counts"):
        return multi_rater_agreement(study.inst, study.rater, study.P, study.inst_lexelt).fleiss.kappa
    if coef == "krippendorff_alpha":
        level = entry["level"]
        if level in ("nominal", "ordinal"):
            dist: str | np.ndarray = level
        elif level in ("interval", "ratio"):
            assert study.values is not None, "numeric labels needed"
            dist = interval_distance(study.values) if level == "interval" else ratio_distance(study.values)
        elif level in CUSTOM:
            dist = CUSTOM[level](study)
        else:
            pytest.skip(f"metric {level!r} is not offered")
        return krippendorff_alpha(study.inst, study.rater, study.P, study.inst_lexelt, distance=dist).alpha
    pytest.skip(f"coefficient {coef!r} is not offered by hieradjudicate")


def _entries() -> list[Any]:
    from tests.conftest import realdata_dir

    folder = realdata_dir()
    if folder is None or not (folder / "oracles" / "expected_values.json").exists():
        return [pytest.param(None, id="realdata-unset")]
    data = json.loads((folder / "oracles" / "expected_values.json").read_text())
    return [pytest.param(e, id=f"{e['study']}-{e['coef']}-{e.get('level', '')}".rstrip("-"))
            for e in data["entries"]]


@pytest.mark.parametrize("entry", _entries())
def test_published_value(realdata: Path, entry: dict[str, Any] | None) -> None:
    if entry is None:
        pytest.skip("the oracle file is missing")
    study = load_study(realdata / "oracles", entry["file"], entry["study"])
    got = compute(entry, study)
    value = got.value if isinstance(got, Estimate) else got
    assert value is not None, f"undefined: {getattr(got, 'reason', '')}"
    assert value == pytest.approx(entry["expected"], abs=entry["tol"]), entry["source"]


def test_every_entry_is_collected(realdata: Path) -> None:
    data = json.loads((realdata / "oracles" / "expected_values.json").read_text())
    assert len(_entries()) == len(data["entries"]) > 40
