"""The WSD evaluation framework's keys (#11 item 2): read as annotation sets, scored exactly as its
own scorer does (P = correct / answered, R = correct / gold instances, F1; several gold keys: any is
correct; several system keys: an even split), on every system output in the real data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hieradjudicate.cli.entry import main
from hieradjudicate.io.annotations.read import read_annotations
from hieradjudicate.io.annotations.wsdkey import lexelt_of, looks_like_wsd_key
from tests.conftest import skip_without_realdata

RUNS = [("semeval2015", "semeval2015.lesk_example"), ("semeval2015", "semeval2015.resnik_example"),
        ("ALL", "ALL.lesk_example")]


def framework_scorer(gold_path: Path, system_path: Path) -> tuple[float, float, float]:
    """The framework's Scorer.java logic, written out independently as the oracle."""
    gold = {}
    for line in gold_path.read_text().splitlines():
        if line.strip():
            i, *keys = line.split()
            gold[i] = set(keys)
    ok = notok = 0.0
    for line in system_path.read_text().splitlines():
        if not line.strip():
            continue
        i, *keys = line.split()
        if i not in gold:
            continue
        hit = sum(k in gold[i] for k in keys)
        ok += hit / len(keys)
        notok += (len(keys) - hit) / len(keys)
    p, r = ok / (ok + notok), ok / len(gold)
    return p, r, 2 * p * r / (p + r)


@pytest.mark.parametrize(("dataset", "system"), RUNS)
def test_fine_score_equals_the_framework_scorer(capsys, dataset: str, system: str) -> None:
    d = skip_without_realdata("wsdeval") / "wsdeval"
    gold, sys_path = d / f"{dataset}.gold.key.txt", d / f"{system}.key.txt"
    assert main(["score", "--gold", str(gold), "--system", f"s={sys_path}", "--policy", "fine",
                 "--format", "json"]) == 0
    got = json.loads(capsys.readouterr().out)["systems"][0]
    p, r, f = framework_scorer(gold, sys_path)
    assert got["precision"] == pytest.approx(p, abs=1e-12)
    assert got["recall"] == pytest.approx(r, abs=1e-12)
    assert got["f1"] == pytest.approx(f, abs=1e-12)


def test_every_gold_key_reads_without_a_problem() -> None:
    d = skip_without_realdata("wsdeval") / "wsdeval"
    sizes = {"senseval2": 2282, "senseval3": 1850, "semeval2007": 455, "semeval2013": 1644,
             "semeval2015": 1022, "ALL": 7253}
    for name, n in sizes.items():
        src = read_annotations(d / f"{name}.gold.key.txt")
        assert src.format == "wsd-key" and not src.problems and len(src.item_instance) == n


def test_lexelts_keys_and_bad_lines(tmp_path: Path) -> None:
    assert lexelt_of("document%1:10:00::") == "document.n"
    assert lexelt_of("absurd%5:00:00:foolish:00") == "absurd.a"
    assert lexelt_of("Run%2:38:00::") == "run.v"
    assert looks_like_wsd_key("d000.s000.t000 document%1:10:00::")
    assert not looks_like_wsd_key("bank.n bank.n.1 bank%1")
    f = tmp_path / "k.txt"
    f.write_text("d0.s0.t0 document%1:10:00:: document%1:21:00::\nd0.s0.t1\nd0.s0.t2 notakey\n")
    src = read_annotations(f)
    assert src.format == "wsd-key" and len(src.item_instance) == 1
    msgs = [(p.line, p.column, p.message) for p in src.problems]
    assert msgs[0][:2] == (2, 9) and "no sense key" in msgs[0][2]
    assert msgs[1][:2] == (3, 10) and "'notakey' is not a WordNet sense key" in msgs[1][2]


def test_one_all_run_gives_every_data_sets_figures(capsys, tmp_path: Path) -> None:
    """Per data set from one ALL run = the framework's scorer on that data set's gold and the
    system's lines for it (ids without the prefix)."""
    d = skip_without_realdata("wsdeval") / "wsdeval"
    assert main(["score", "--gold", str(d / "ALL.gold.key.txt"), "--system", f"s={d / 'ALL.lesk_example.key.txt'}",
                 "--policy", "fine", "--format", "json"]) == 0
    by = json.loads(capsys.readouterr().out)["systems"][0]["by_dataset"]
    assert sorted(by) == ["semeval2007", "semeval2013", "semeval2015", "senseval2", "senseval3"]
    lines = (d / "ALL.lesk_example.key.txt").read_text().splitlines()
    for name, fig in by.items():
        own = tmp_path / f"{name}.key"
        own.write_text("".join(line.split(".", 1)[1] + "\n" for line in lines if line.startswith(name + ".")))
        p, r, f = framework_scorer(d / f"{name}.gold.key.txt", own)
        assert (fig["precision"], fig["recall"], fig["f1"]) == pytest.approx((p, r, f), abs=1e-12)


def test_framework_xml_gives_every_instance_its_sentence(tmp_path: Path) -> None:
    from hieradjudicate.app.loading.load import AnnotationSpec, load

    d = skip_without_realdata("wsdeval") / "wsdeval"
    for name in ("semeval2015", "ALL"):
        r = load([], [AnnotationSpec(str(d / f"{name}.gold.key.txt"))], [str(d / f"{name}.data.xml")])
        c = r.corpus
        assert not [p for p in r.problems if p.severity == "error"]
        assert len(c.contexts) == c.n  # every key instance found its sentence, lexelts agree
        ctx = c.contexts[0]
        assert ctx.head is not None and ctx.text[ctx.head[0]:ctx.head[1]]
    bad = tmp_path / "bad.data.xml"
    bad.write_text('<corpus lang="en">\n<text id="d0">\n<sentence id="d0.s0">\n<wf lemma="a" pos="DET">a</wf>\n'
                   "<instance id=\"x\" lemma=\"b\" pos=\"NOUN\">b</sentence>\n</text></corpus>\n")
    from hieradjudicate.core.errors import FormatError
    from hieradjudicate.io.contexts.read import read_contexts

    with pytest.raises(FormatError) as info:
        read_contexts(bad)
    p = info.value.problems[0]
    assert p.line == 5 and p.column and "not well-formed XML" in p.message


def test_the_adjudicated_gold_exports_as_a_framework_key(tmp_path: Path, capsys) -> None:
    d = skip_without_realdata("wsdeval") / "wsdeval"
    path = tmp_path / "p.hadj"
    assert main(["project", "new", str(path), "--annotations", f"gold={d / 'semeval2015.gold.key.txt'}",
                 "--annotations", f"lesk={d / 'semeval2015.lesk_example.key.txt'}"]) == 0
    assert main(["project", "resolve-agreed", str(path)]) == 0  # where gold and lesk agree
    out = tmp_path / "adjudicated.key.txt"
    assert main(["project", "export", str(path), "--format", "wsdeval", "-o", str(out)]) == 0
    lines = out.read_text().splitlines()
    src = read_annotations(out)
    assert src.format == "wsd-key" and not src.problems

    def keys(name: str) -> dict[str, set[str]]:
        return {ln.split()[0]: set(ln.split()[1:]) for ln in (d / name).read_text().splitlines() if ln}

    gold, lesk = keys("semeval2015.gold.key.txt"), keys("semeval2015.lesk_example.key.txt")
    same = {i for i in lesk if lesk[i] == gold[i]}  # identical answers: what resolve-agreed takes
    assert {ln.split()[0] for ln in lines} == same and len(same) == 293
    assert all(set(ln.split()[1:]) == gold[ln.split()[0]] for ln in lines)
    capsys.readouterr()
    assert main(["project", "export", str(path), "--format", "wsdeval", "-o", str(out), "--include-unresolved"]) != 0
