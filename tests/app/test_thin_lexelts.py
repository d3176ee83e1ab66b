"""A chance-corrected pairwise figure over lexelts of a few instances is said to mean little (#23):
the WSD framework's ALL (2.6 instances per lexelt) in the dashboard's figures and the HTML report."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from hieradjudicate.app.dashboard.dashboard import Dashboard
from hieradjudicate.app.dashboard.thin import FEW_INSTANCES, group_thin, pair_thin, thin_counts
from hieradjudicate.app.report.html import render_report
from hieradjudicate.app.session.session import Session


def test_thin_counts_and_the_half_rule() -> None:
    lex = np.array([0, 1, 1, 2] + [3] * FEW_INSTANCES)  # lexelts 0-2 thin (4 instances), 3 not (10)
    assert thin_counts(lex, 5) == (3, 4, 4, 4 + FEW_INSTANCES)
    assert pair_thin(lex, 5) == ""  # 4 of 14 instances: the pooled figure rests mostly on lexelt 3
    lex = np.array(list(range(10)) + [10] * FEW_INSTANCES)  # 10 lexelts of one instance: half of 20
    assert "10 of 11 lexelts the pair shares have fewer than 10 instances and hold 10 of the 20" in pair_thin(lex, 11)
    assert pair_thin(lex[1:], 11) == ""  # 9 of 19: no longer most of them
    # a panel counts the instances that two sets or more answered; instance 2 has one answer only
    inst, lexof = np.array([0, 0, 1, 1, 2]), np.array([0, 1, 1])
    assert "2 of 2 lexelts answered by two sets or more" in group_thin(inst, lexof, 2)


def test_wsd_framework_pairwise_kappa_says_it_means_little(wsd_all_project: Path) -> None:
    with Session.open(wsd_all_project, read_only=True) as session:
        corpus = session.corpus
    data = Dashboard(corpus).compute(n_resamples=0)
    hm = data.heatmap
    assert int(hm.n[0, 1]) == 6599 and abs(float(hm.value[0, 1])) < 0.01
    # the counts the brief gives, recounted from the lexelts of the shared instances
    shared = np.intersect1d(corpus.sets[0].rows, corpus.sets[1].rows)
    per = np.bincount(corpus.inst_lexelt[shared])
    few, used = int(((per > 0) & (per < FEW_INSTANCES)).sum()), int((per > 0).sum())
    assert (few, used) == (2279, 2388)
    assert f"{few:,} of {used:,} lexelts" in hm.thin_note and f"{few:,} of {used:,} lexelts" in hm.pair_thin(0, 1)
    assert "rests on too few instances per lexelt" in render_report(data)
