"""Labels a lexicographer can read in the HTML report (#23, point 3): senses as ``lemma#N`` with the
gloss on hover, no two labels overprinted (by estimated text width), long ids elided in the middle,
per-lexelt charts readable at 45 and at 2,388 lexelts, empty charts a sentence."""

from __future__ import annotations

import math
import re
import subprocess
import sys

import numpy as np
import pytest

from hieradjudicate.app.report.hbars import ALL_ROWS, EXTREME_ROWS, hbar_chart_svg
from hieradjudicate.app.report.svg import FONT, bar_chart_svg, fit_text, heatmap_svg, line_plot_svg, text_width
from tests.conftest import WORDNET, wsd_framework_with_wordnet

_TEXT = re.compile(r'<text x="(?P<x>[-\d.]+)" y="(?P<y>[-\d.]+)" text-anchor="(?P<a>\w+)"(?P<attrs>[^>]*)>'
                   r'(?P<t>[^<]*)</text>')
_ROTATE = re.compile(r'transform="rotate\((-?[\d.]+)')
MASC_LIKE = [f"{w}-{p}" for w, p in zip(
    "add appear ask board book color common control date fair family find fold full help high image kill know "
    "land late level life live long lose meet normal number paper particular poor read say sense serve show "
    "suggest tell time wait way win window work".split(), "vvvnnnjnnjnvvjvjnvvnjnnvjvvjnnjjvvnvvvvnvnvnn")]


def axis_texts(svg: str) -> list[tuple[float, float, str, float, str]]:
    """``(x, y, anchor, angle, text)`` of every label outside a matrix cell."""
    svg = re.sub(r'<g class="cell">.*?</g>', "", svg)
    out = []
    for m in _TEXT.finditer(svg):
        r = _ROTATE.search(m["attrs"])
        out.append((float(m["x"]), float(m["y"]), m["a"], float(r.group(1)) if r else 0.0, m["t"]))
    return out


def overlaps(svg: str) -> list[tuple[str, str]]:
    """Pairs of labels that would overprint, by their estimated widths: upright ones whose boxes meet,
    rotated ones (same angle, same baseline) closer than a line of text across their slant."""
    import html

    bad = []
    texts = axis_texts(svg)
    upright = []
    for x, y, a, r, t in texts:
        w = text_width(html.unescape(t))
        x0 = x - w / 2 if a == "middle" else x - w if a == "end" else x
        if r == 0:
            upright.append((x0, x0 + w, y - FONT * 0.8, y + FONT * 0.2, t))
    for i, (a0, a1, b0, b1, t) in enumerate(upright):
        for c0, c1, d0, d1, u in upright[i + 1:]:
            if a0 < c1 - 0.5 and c0 < a1 - 0.5 and b0 < d1 - 0.5 and d0 < b1 - 0.5:
                bad.append((t, u))
    rotated: dict[tuple[float, float], list[tuple[float, str]]] = {}
    for x, y, _, r, t in texts:
        if r:
            rotated.setdefault((r, round(y)), []).append((x, t))
    for (r, _), row in rotated.items():
        row.sort()
        for (xa, ta), (xb, tb) in zip(row, row[1:]):
            if (xb - xa) * abs(math.sin(math.radians(r))) < FONT:
                bad.append((ta, tb))
    return bad


def test_45_lexelt_names_never_overprint_in_a_bar_chart_or_in_rows() -> None:
    vals = [[0.1 + 0.015 * k for k in range(45)]]
    old_style = bar_chart_svg(MASC_LIKE, ["fleiss"], vals, colors=["#3b7dd8"], legend=False)
    assert overlaps(old_style) == []  # rotated labels 14.6 px apart were 8 px across their slant: overprinted
    rows = hbar_chart_svg(MASC_LIKE, vals[0], colors=["#3b7dd8"])
    assert overlaps(rows) == [] and sum(t in MASC_LIKE for *_, t in axis_texts(rows)) == 45  # every one named


def test_long_ids_keep_the_end_that_differs() -> None:
    a, b = "senseval2.d000.s000.t000", "senseval2.d000.s000.t001"
    fa, fb = fit_text(a, 100), fit_text(b, 100)
    assert fa != fb and fa.endswith("t000") and fb.endswith("t001") and "…" in fa
    assert text_width(fa) <= 100
    svg = heatmap_svg([a, b], [a, b], [[1.0, 0.0], [0.0, 1.0]], [["", ""], ["", ""]], [["", ""], ["", ""]],
                      label_px=100)
    shown = {t for *_, t in axis_texts(svg)}
    assert {fa, fb} <= shown and f"<title>{a}</title>" in svg  # the whole id on hover


def test_empty_charts_are_a_sentence() -> None:
    for svg in (bar_chart_svg([], ["a"], [[]], colors=["#000"]),
                bar_chart_svg(["x", "y"], ["a"], [[None, None]], colors=["#000"], label="agreement with the gold"),
                line_plot_svg(["depth 1"], [("a", [None], "#000", False)]),
                heatmap_svg([], [], [], [], []), hbar_chart_svg([], [], colors=["#000"])):
        assert "<svg" not in svg and svg.startswith("<p") and "Nothing to draw" in svg


def test_legend_names_wrap_instead_of_running_together() -> None:
    series = ["kappa (Cohen) against the adjudicated gold", "leaf score against the adjudicated gold"] * 2
    svg = bar_chart_svg(["a", "b"], series, [[0.5, 0.6]] * 4, colors=["#111", "#222"], width=480)
    assert overlaps(svg) == []


@pytest.fixture(scope="module")
def wsd_all(wsd_all_project):
    """The dashboard figures and the report of the WSD framework's ALL (gold and Lesk over WordNet)."""
    from hieradjudicate.app.dashboard.dashboard import Dashboard
    from hieradjudicate.app.report.html import render_report
    from hieradjudicate.app.session.session import Session

    with Session.open(wsd_all_project, read_only=True) as s:
        data = Dashboard(s.corpus).compute(n_resamples=0)
    return data, render_report(data)


@pytest.fixture(scope="module")
def wordnet_competence_page(tmp_path_factory):
    """The report of a WordNet project with its competence estimated, as `hieradjudicate report`
    does: the first 200 instances of SemEval-2015's gold and the Lesk and Resnik baselines' answers to
    them (three sets: Dawid & Skene refuses two; how the sense is named is the point, not the size)."""
    d = wsd_framework_with_wordnet()
    tmp = tmp_path_factory.mktemp("wsd15")
    gold = (d / "semeval2015.gold.key.txt").read_text(encoding="utf-8").splitlines()[:200]
    ids = {line.split()[0] for line in gold}
    (tmp / "gold.key.txt").write_text("\n".join(gold) + "\n", encoding="utf-8")
    for name in ("lesk", "resnik"):
        lines = [line for line in (d / f"semeval2015.{name}_example.key.txt").read_text(encoding="utf-8")
                 .splitlines() if line.split()[0] in ids]
        (tmp / f"{name}.key.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp / "semeval2015-part.hadj"
    subprocess.run([sys.executable, "-m", "hieradjudicate", "project", "new", str(out), "--inventory",
                    str(WORDNET), "--annotations", f"gold={tmp / 'gold.key.txt'}",
                    "--annotations", f"lesk={tmp / 'lesk.key.txt'}",
                    "--annotations", f"resnik={tmp / 'resnik.key.txt'}"],
                   check=True, timeout=600, capture_output=True)
    from hieradjudicate.app.dashboard.competence import estimate
    from hieradjudicate.app.dashboard.dashboard import Dashboard
    from hieradjudicate.app.report.html import render_report
    from hieradjudicate.app.session.session import Session

    with Session.open(out, read_only=True) as s:
        data = Dashboard(s.corpus).compute(n_resamples=0)
        data.competence = estimate(s.corpus, model="ds")  # as `hieradjudicate report` does
    return render_report(data)


def _section(page: str, name: str) -> str:
    return page[page.index(f'<section id="{name}">'):].split("</section>", 1)[0]


def test_wsd_all_lexelts_are_a_distribution_and_the_extremes(wsd_all) -> None:
    data, page = wsd_all
    sec = _section(page, "lexelts")
    n = len(data.lexelts.bars)
    assert n == 2388 > ALL_ROWS
    # a bounded figure, not 2,388 bars: a histogram of 0.1-wide bins (two series) and the 15 + 15 extremes
    assert sec.count('<g class="bar">') <= 2 * 30 + 2 * EXTREME_ROWS
    assert "2,279 of 2,388 lexelts have fewer than 10 instances" in sec
    # the summary card counts every lexelt (2,808); the section says why it charts fewer
    assert data.summary["lexelts"] > n
    assert f"2,388 of the project's {data.summary['lexelts']:,} lexelts are charted" in sec
    for svg in re.findall(r"<svg.*?</svg>", sec, re.S):
        assert overlaps(svg) == [], overlaps(svg)[:3]
    # the extremes are lexelts of 10 instances or more, named whole
    names = {t for *_, t in axis_texts(sec)}
    big = {b.lexelt for b in data.lexelts.bars if b.n >= 10}
    assert len(names & big) == 2 * EXTREME_ROWS


def test_wsd_all_confusion_reads_lemma_n_with_the_gloss(wsd_all) -> None:
    data, page = wsd_all
    sec = _section(page, "confusion")
    cf = data.confusion
    svg = re.search(r"<svg.*?</svg>", sec, re.S).group(0)
    labels = [t for *_, t in axis_texts(svg) if "#" in t]
    lemma = cf.lexelt.split(".")[0]
    assert labels and all(re.fullmatch(rf"{re.escape(lemma)}#\d+", t) for t in labels), labels
    assert not re.search(r">#\d", svg)  # never a bare "#4"
    # the gloss and the full key on hover over a sense's label
    k = cf.labels.index(labels[0])
    gloss = cf.glosses[k].split(": ", 1)[-1].split(";")[0]
    assert re.search(rf"<title>{re.escape(cf.a)}: {re.escape(labels[0])}: [^<]*{re.escape(gloss[:20])}", svg)
    assert overlaps(svg) == []


def test_many_senses_become_top_n_and_the_rest_summed() -> None:
    from hieradjudicate.app.dashboard.records import Confusion

    M = np.zeros((49, 49))
    M[4, 4], M[20, 4], M[30, 31], M[40, 41] = 5.0, 2.0, 1.0, 0.5
    cells = {(4, 4): np.array([1, 2]), (20, 4): np.array([3]), (30, 31): np.array([4]), (40, 41): np.array([2, 5])}
    labels = [f"make#{j + 1}" for j in range(49)]
    cf = Confusion("a", "b", "make.v", 0, None, labels, [f"gloss {j}" for j in range(49)], M, 5, cells, None)
    small = cf.summed(5)
    assert small.labels == ["make#5", "make#21", "make#31", "make#32", "45 others"]
    assert small.matrix.sum() == pytest.approx(M.sum()) and small.matrix[4, 4] == pytest.approx(0.5)
    assert small.matrix[1, 0] == pytest.approx(2.0) and list(small.cell_instances(4, 4)) == [2, 5]
    assert "make#41" in small.glosses[-1] and cf.summed(49) is cf


def test_histogram_bins_are_never_named_alike() -> None:
    from hieradjudicate.app.report.crowd import _histogram

    svg = _histogram(np.linspace(0.0, 1.0, 50), "posterior entropy (bits)", 0.0, 1.0, 20, unit="instances")
    names = [t for *_, t in axis_texts(svg) if re.fullmatch(r"\d\.\d+", t)]
    bins = [t for t in names if len(t) > 3]  # the bins' edges (0.05, 0.10, ...), not the 1-decimal y axis
    assert len(bins) == 20 and len(set(bins)) == 20, names  # "0.0 0.1 0.1 0.2 0.2" before
    assert overlaps(svg) == []


def test_wordnet_hardest_instances_name_their_sense_lemma_n(wordnet_competence_page) -> None:
    page = wordnet_competence_page
    sec = _section(page, "competence")
    table = sec[sec.index("most uncertain instances"):]
    rows = [r for r in re.findall(r"<tr>(.*?)</tr>", table) if "<td" in r][:20]
    assert rows
    for row in rows:
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row)
        lexelt, sense, key = cells[0], cells[3], cells[4]
        lemma = lexelt.rsplit(".", 1)[0].replace("_", " ")
        assert re.fullmatch(rf"{re.escape(lemma)}#\d+", sense), (sense, lexelt)  # was the bare key
        assert "%" in key  # the WordNet key beside it
