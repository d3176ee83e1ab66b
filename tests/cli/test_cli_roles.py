"""Systems are never counted as annotators unless the user says so (#13 item 2).

The README's own project (one annotator + one system) made ``resolve-agreed``
count the system as an annotator and say "all annotators agree"; the
workbench's agreement column, live agreement and suggestions did the same.
Now only sets with role annotator are compared, the output names them and the
systems left out, and ``--include-systems`` counts systems on request.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hieradjudicate.app.session.batch import annotator_sets
from hieradjudicate.app.session.session import Session
from hieradjudicate.app.workbench.live import agreement_figures
from hieradjudicate.app.workbench.queue import Workbench
from hieradjudicate.cli.entry import main
from tests.conftest import DEMO

INV = "# lexelt bank.n\n1: money\n2: river\n"


def _files(tmp_path: Path) -> dict[str, Path]:
    inv = tmp_path / "inv.txt"
    inv.write_text(INV)
    # ann and lesk agree on 1 and 3; ben agrees with ann on 1 and 2
    out = {"inv": inv}
    for name, tags in (("ann", "1 1 2"), ("ben", "1 1 1"), ("lesk", "1 2 2")):
        p = tmp_path / f"{name}.key"
        p.write_text("".join(f"bank.n {i} {t}\n" for i, t in enumerate(tags.split(), 1)))
        out[name] = p
    return out


def _project(tmp_path: Path, f: dict[str, Path], *sets: str) -> Path:
    proj = tmp_path / "p.hadj"
    roles = {"ann": "annotator", "ben": "annotator", "lesk": "system"}
    argv = ["project", "new", str(proj), "--inventory", str(f["inv"])]
    for s in sets:
        argv += ["--annotations", f"{s}={f[s]}:{roles[s]}"]
    assert main(argv) == 0
    return proj


def test_readme_example_one_annotator_and_one_system_is_refused_plainly(tmp_path: Path, capsys) -> None:
    f = _files(tmp_path)
    proj = _project(tmp_path, f, "ann", "lesk")
    capsys.readouterr()
    assert main(["project", "resolve-agreed", str(proj)]) == 1
    err = capsys.readouterr().err
    assert ("resolve-agreed needs at least 2 annotator set(s) and this project has 1 (annotator sets "
            "compared: ann; system set(s) not counted as annotators: lesk); --include-systems counts the "
            "systems as annotators; nothing was changed") in err
    assert "all annotators agree" not in err
    with Session.open(proj) as s:
        assert len(list(s.decisions)) == 0


def test_include_systems_counts_them_and_says_so(tmp_path: Path, capsys) -> None:
    f = _files(tmp_path)
    proj = _project(tmp_path, f, "ann", "lesk")
    capsys.readouterr()
    assert main(["project", "resolve-agreed", str(proj), "--include-systems"]) == 0
    out = capsys.readouterr().out
    assert "resolved 2 instance(s)" in out  # 1 and 3
    assert "sets compared as annotators: ann, lesk (systems included: lesk)" in out


def test_with_two_annotators_the_system_is_left_out(tmp_path: Path, capsys) -> None:
    f = _files(tmp_path)
    proj = _project(tmp_path, f, "ann", "ben", "lesk")
    capsys.readouterr()
    assert main(["project", "resolve-agreed", str(proj)]) == 0
    out = capsys.readouterr().out
    # ann and ben agree on 1 and 2 (lesk, who disagrees on 2, is not asked)
    assert "resolved 2 instance(s)" in out
    assert "annotator sets compared: ann, ben; system set(s) not counted as annotators: lesk" in out
    with Session.open(proj) as s:
        assert sorted(r.instance for r in s.decisions) == ["1", "2"]


def test_agree_names_its_sets_and_leaves_systems_out(tmp_path: Path, capsys) -> None:
    f = _files(tmp_path)
    base = ["agree", "--inventory", str(f["inv"]), "--annotations", f"ann={f['ann']}"]
    assert main(base + ["--annotations", f"lesk={f['lesk']}:system"]) == 1
    assert "agreement needs at least two annotator sets (annotator sets compared: ann; system set(s) " \
           "not counted as annotators: lesk)" in capsys.readouterr().err
    assert main(base + ["--annotations", f"lesk={f['lesk']}:system", "--include-systems",
                        "--format", "json"]) == 0
    assert '"sets_compared": [\n    "ann",\n    "lesk"\n  ]' in capsys.readouterr().out
    assert main(base + ["--annotations", f"ben={f['ben']}", "--annotations", f"lesk={f['lesk']}:system"]) == 0
    assert "Annotator sets compared: ann, ben; system set(s) not counted as annotators: lesk." \
        in capsys.readouterr().out


def test_workbench_agreement_never_counts_a_system(tmp_path: Path, capsys) -> None:
    f = _files(tmp_path)
    proj = _project(tmp_path, f, "ann", "lesk")
    with Session.open(proj) as s:
        wb = Workbench(s.corpus)
        assert wb.cols.annotators == [0]  # ann only
        assert (wb.cols.category == -1).all()  # fewer than two annotators everywhere
        figs = agreement_figures(wb)
        assert figs.note == "annotator sets compared: ann; system set(s) not counted as annotators: lesk"
        assert annotator_sets(s.corpus, include_systems=True) == [0, 1]


@pytest.mark.parametrize("include", [False, True])
def test_demo_sets(include: bool) -> None:
    """The demo project: three annotators, two systems."""
    from hieradjudicate.app.loading.load import load
    from hieradjudicate.app.loading.specs import AnnotationSpec

    specs = [AnnotationSpec(str(DEMO / f"annotator_{n}.key"), n) for n in ("ann", "ben", "cho")]
    specs += [AnnotationSpec(str(DEMO / f"system_{n}.ans"), n, "system") for n in ("lesk", "neural")]
    c = load([str(DEMO / "inventory.txt")], specs).corpus
    names = [c.sets[k].name for k in annotator_sets(c, include_systems=include)]
    assert names == (["ann", "ben", "cho", "lesk", "neural"] if include else ["ann", "ben", "cho"])


def test_dashboard_names_the_sets_its_group_figures_compare(tmp_path: Path) -> None:
    from hieradjudicate.app.dashboard.dashboard import Dashboard

    f = _files(tmp_path)
    proj = _project(tmp_path, f, "ann", "ben", "lesk")
    with Session.open(proj) as s:
        data = Dashboard(s.corpus).compute(None, n_resamples=0)
    assert dict(data.method)["Sets compared"] == ("The group figures compare the annotator sets ann, ben; the "
                                                  "system set(s) lesk are not counted as annotators.")
    (tmp_path / "p.hadj").unlink()
    proj = _project(tmp_path, f, "ann", "lesk")
    with Session.open(proj) as s:
        data = Dashboard(s.corpus).compute(None, n_resamples=0)
    assert "these are not figures of agreement among annotators" in dict(data.method)["Sets compared"]
