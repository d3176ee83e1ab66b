"""The report at crowd scale (#14 item 4): summarised in the HTML, full tables beside it as CSV."""

from __future__ import annotations

import base64
import csv
import re
import struct
import zlib

import numpy as np
import pytest

from hieradjudicate.app.dashboard.dashboard import Dashboard
from hieradjudicate.app.report import crowd
from hieradjudicate.app.report.html import write_report
from hieradjudicate.app.session.session import Session
from hieradjudicate.core.palette import SET_COLORS
from tests.crowd import crowd_project


@pytest.fixture(scope="module")
def crowd_data(tmp_path_factory):
    path = crowd_project(tmp_path_factory.mktemp("crowd") / "c.hadj", 120, per_item=10)
    with Session.open(path, read_only=True) as s:
        return Dashboard(s.corpus).compute(n_resamples=50)


def _png_pixels(data: bytes) -> np.ndarray:
    """Decode the unfiltered 8-bit RGB PNG the report writes (a test-only reader)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, size = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        assert struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])[0] == zlib.crc32(kind + body) & 0xFFFFFFFF
        if kind == b"IHDR":
            size = struct.unpack(">II", body[:8])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h = size
    raw = np.frombuffer(zlib.decompress(idat), np.uint8).reshape(h, 1 + 3 * w)
    assert (raw[:, 0] == 0).all()
    return raw[:, 1:].reshape(h, w, 3)


def test_matrix_png_holds_one_pixel_per_cell_on_the_scale():
    v = np.array([[np.nan, 1.0, -1.0], [1.0, np.nan, 0.0], [-1.0, 0.0, np.nan]])
    px = _png_pixels(crowd.matrix_png(v))
    assert px.shape == (3, 3, 3)
    assert tuple(px[0, 0]) == crowd.UNDEFINED_RGB
    lut = crowd._lut(-1.0, 1.0)
    assert tuple(px[0, 1]) == tuple(lut[255]) and tuple(px[0, 2]) == tuple(lut[0])
    assert tuple(px[0, 1]) != tuple(px[0, 2])


def test_crowd_report_is_small_summarised_and_writes_the_tables_beside(crowd_data, tmp_path):
    assert crowd.is_crowd(crowd_data)
    path = write_report(crowd_data, tmp_path / "r.html")
    html = path.read_text(encoding="utf-8")
    folder = crowd.tables_dir(path)
    assert folder == tmp_path / "r-tables"
    with open(folder / "pairwise.csv", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    assert len(rows) == 1 + 120 * 119 // 2  # every pair in the CSV
    with open(folder / "sets.csv", encoding="utf-8") as fh:
        assert len(list(csv.reader(fh))) == 121
    assert 'href="r-tables/pairwise.csv"' in html and 'href="r-tables/sets.csv"' in html
    # the HTML holds a summary, not a row per pair: 10 highest + 10 lowest pairs
    assert html.count("<tr>") < 400
    assert len(html) < 600_000
    # the matrix is one PNG with one pixel per pair, in clustered order
    (b64,) = re.findall(r'src="data:image/png;base64,([^"]+)"', html)
    px = _png_pixels(base64.b64decode(b64))
    assert px.shape == (120, 120, 3)
    hm = crowd_data.heatmap
    from hieradjudicate.core.seriation import cluster_order

    v = np.ma.filled(np.ma.asarray(hm.value, float), np.nan)
    o = cluster_order(v)
    undefined = np.isnan(v[np.ix_(o, o)])
    assert (px[undefined] == crowd.UNDEFINED_RGB).all()


def test_colours_never_repeat(crowd_data):
    cols = crowd.set_colors(crowd_data)
    assert len(set(cols.values())) == len(cols)  # no two sets share a colour
    assert cols == {}  # 120 annotators: named, not coloured
    few = type("D", (), {"summary": {"sets": [{"name": f"s{k}", "role": "annotator"} for k in range(8)]}})()
    assert list(crowd.set_colors(few).values()) == list(SET_COLORS)
    mixed = type("D", (), {"summary": {"sets": [{"name": f"a{k}", "role": "annotator"} for k in range(40)]
                                       + [{"name": "sys", "role": "system"}]}})()
    assert crowd.set_colors(mixed) == {"sys": SET_COLORS[0]}


def test_summarised_table_keeps_the_extremes():
    rows = [[f"s{k}", float(k)] for k in range(50)] + [["none", None]]
    html = crowd.summarised_table("t", (["set", "v"], rows), "v", "x-tables",
                                  lambda h, r: "".join(f"<tr>{r0[0]}</tr>" for r0 in r))
    assert "<tr>s49</tr>" in html and "<tr>s40</tr>" in html and "<tr>s0</tr>" in html
    assert "<tr>s25</tr>" not in html and "<tr>none</tr>" not in html
    assert "50 defined; min 0, lower quartile 12.25, median 24.5" in html
    assert 'href="x-tables/t.csv"' in html and "51 rows in all" in html


def test_small_projects_are_unchanged(tmp_path):
    path = crowd_project(tmp_path / "small.hadj", 5, per_item=4)
    with Session.open(path, read_only=True) as s:
        data = Dashboard(s.corpus).compute(n_resamples=20)
    out = write_report(data, tmp_path / "small.html")
    assert not crowd.is_crowd(data) and not crowd.tables_dir(out).exists()
    assert "data:image/png" not in out.read_text(encoding="utf-8")


def test_shared_counts_equal_the_intersections(tmp_path):
    from hieradjudicate.app.dashboard.agree import pair_categories, shared_counts

    path = crowd_project(tmp_path / "s.hadj", 40, per_item=6)
    with Session.open(path, read_only=True) as s:
        c = s.corpus
        sets = list(range(len(c.sets)))
        got = shared_counts(c, sets)
        want = np.array([[np.intersect1d(c.sets[a].rows, c.sets[b].rows).size for b in sets] for a in sets])
        np.testing.assert_array_equal(got, want)
        assert (got == 0).any()  # some pairs share nothing: the dashboard skips them
        d = Dashboard(c)
        for a, b in zip(*np.nonzero(np.triu(got > 0, 1))):
            shared, cat = d.pair_categories(sets[a], sets[b])
            ref_shared, ref_cat = pair_categories(c, sets[a], sets[b])
            np.testing.assert_array_equal(shared, ref_shared)
            np.testing.assert_array_equal(cat, ref_cat)


def test_default_confusion_pair_is_the_pair_sharing_most(tmp_path):
    path = crowd_project(tmp_path / "p.hadj", 40, per_item=6)
    with Session.open(path, read_only=True) as s:
        c = s.corpus
        d = Dashboard(c)
        pairs = d.pairs_by_shared(d.group)
        n = [np.intersect1d(c.sets[a].rows, c.sets[b].rows).size for a, b in pairs]
        assert n == sorted(n, reverse=True) and min(n) > 0
        assert len(pairs) == sum(1 for i, a in enumerate(d.group) for b in d.group[i + 1:]
                                 if np.intersect1d(c.sets[a].rows, c.sets[b].rows).size)
        data = d.compute(n_resamples=0)
        # the confusion opens on the pair sharing the most instances of the lexelt it shows (issue 31:
        # the pair sharing most overall may share none of that lexelt)
        x = data.confusion.x
        inside = np.flatnonzero(c.inst_lexelt == x)
        within = {(a, b): np.intersect1d(np.intersect1d(c.sets[a].rows, c.sets[b].rows), inside).size
                  for a, b in pairs}
        best = max(within.values())
        assert within[data.confusion.pair] == best > 0
        assert (data.confusion.a, data.confusion.b) == tuple(c.sets[k].name for k in data.confusion.pair)
