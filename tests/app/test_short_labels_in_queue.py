"""WordNet sense keys and URIs shown short in the queue (#14 item 3); search still finds full keys."""

from __future__ import annotations

from pathlib import Path

from hieradjudicate.app.loading.specs import AnnotationSpec
from hieradjudicate.app.session.session import Session
from hieradjudicate.app.workbench.queue import Filter, Workbench


def _project(tmp_path: Path) -> Session:
    t = tmp_path / "long.tsv"
    t.write_text("lexelt\tinstance\tannotator\ttag\n"
                 "brig.n\t1\tann\tbrig%1:06:00::\nbrig.n\t2\tann\tbrig%1:06:01::\n"
                 "q.n\t3\tann\thttp://www.wikidata.org/entity/Q42\n"
                 "brig.n\t1\tben\tbrig%1:06:01::\nbrig.n\t2\tben\tbrig%1:06:01::\n"
                 "q.n\t3\tben\thttp://www.wikidata.org/entity/Q7\n")
    return Session.create(tmp_path / "p.hadj", [], [AnnotationSpec(str(t))])


def test_cells_show_short_labels_and_tooltips_the_full_keys(tmp_path):
    with _project(tmp_path) as s:
        wb = Workbench(s.corpus, [])
        i = wb.view[[wb.cols.inst_id[j] for j in wb.view].index("1")]
        cells = {wb.cell(f"set:{k}", i) for k in range(2)}
        assert all("%" not in c for c in cells) and all(c.startswith("brig#") for c in cells)
        tip = wb.tag_tooltip(i)
        assert "brig%1:06:00::" in tip and "brig%1:06:01::" in tip
        q = wb.view[[wb.cols.inst_id[j] for j in wb.view].index("3")]
        assert {wb.cell(f"set:{k}", q) for k in range(2)} == {"Q42", "Q7"}
        answers = wb.answers(q)
        assert [a.short for a in answers] == [["Q42"], ["Q7"]]
        assert answers[0].tags == ["http://www.wikidata.org/entity/Q42"]


def test_search_finds_full_keys_behind_short_labels(tmp_path):
    with _project(tmp_path) as s:
        wb = Workbench(s.corpus, [])
        wb.set_filter(Filter(text="brig%1:06:00"))
        assert [wb.cols.inst_id[i] for i in wb.view] == ["1"]
        wb.set_filter(Filter(text="entity/q7"))
        assert [wb.cols.inst_id[i] for i in wb.view] == ["3"]
        wb.set_filter(Filter(text="brig#2"))  # the short label too
        assert sorted(wb.cols.inst_id[i] for i in wb.view) == ["1", "2"]
