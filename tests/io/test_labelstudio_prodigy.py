"""Label Studio's JSON export and Prodigy's JSONL: WSbest (8 annotators, 260 sentences) written
in each tool's shape reads back as the same sets, instances and tags as the WSbest reader gives;
the gold goes back into each tool's file; damaged files give errors with their place."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from hieradjudicate.core.errors import FormatError
from hieradjudicate.io.annotations.read import read_annotations
from tests.conftest import skip_without_realdata


def _answers(src) -> dict[tuple[str, str, str], frozenset[str]]:
    out: dict = {}
    for r in range(src.n_labels):
        key = (src.set_names[src.set[r]], src.item_lexelt[src.item[r]], src.item_instance[src.item[r]])
        out.setdefault(key, set()).add(src.tags[src.tag[r]])
    return {k: frozenset(v) for k, v in out.items()}


@pytest.fixture(scope="module")
def wsbest():
    p = skip_without_realdata("wsbest") / "wsbest" / "wsbest_selected_senses_per_annotator.tsv"
    return read_annotations(p)


def _by_instance(src):
    tasks: dict = {}
    for (who, lex, inst), tags in sorted(_answers(src).items()):
        tasks.setdefault((lex, inst), []).append((who, sorted(tags)))
    return tasks


def write_labelstudio(src, path: Path, *, user_objects: bool = False) -> Path:
    tasks = []
    for n, ((lex, inst), answers) in enumerate(sorted(_by_instance(src).items()), start=1):
        anns = []
        for who, tags in answers:
            anns.append({"id": len(anns) + 1, "was_cancelled": False,
                         "completed_by": {"id": 1, "email": who} if user_objects else who,
                         "result": [{"from_name": "sense", "to_name": "text", "type": "choices",
                                     "value": {"choices": tags}}]})
        tasks.append({"id": 1000 + n, "data": {"text": f"a sentence with {lex}", "lexelt": lex,
                                               "instance": inst}, "annotations": anns})
    path.write_text(json.dumps(tasks))
    return path


def write_prodigy(src, path: Path) -> Path:
    lines = []
    for (lex, inst), answers in sorted(_by_instance(src).items()):
        for who, tags in answers:
            lines.append(json.dumps({"text": f"a sentence with {lex}", "meta": {"lexelt": lex, "instance": inst},
                                     "options": [{"id": t, "text": t} for t in tags], "accept": tags,
                                     "answer": "accept", "_annotator_id": f"wsbest-{who}",
                                     "_session_id": f"wsbest-{who}", "_input_hash": hash(inst) & 0xFFFF}))
    path.write_text("\n".join(lines) + "\n")
    return path


def test_labelstudio_export_reads_as_the_wsbest_reader_does(wsbest, tmp_path):
    for objects in (False, True):
        src = read_annotations(write_labelstudio(wsbest, tmp_path / "export.json", user_objects=objects))
        assert src.format == "labelstudio"
        want = {(("annotator-" + w) if not objects else w, lex, i): t for (w, lex, i), t in _answers(wsbest).items()}
        assert _answers(src) == want
        assert len(src.set_names) == 8


def test_prodigy_jsonl_reads_as_the_wsbest_reader_does(wsbest, tmp_path):
    src = read_annotations(write_prodigy(wsbest, tmp_path / "db.jsonl"))
    assert src.format == "prodigy"
    assert _answers(src) == {("wsbest-" + w, lex, i): t for (w, lex, i), t in _answers(wsbest).items()}


def test_rejected_ignored_and_cancelled_are_counted_not_silent(tmp_path):
    p = tmp_path / "p.jsonl"
    p.write_text("\n".join(json.dumps(x) for x in [
        {"meta": {"lexelt": "bank.n", "instance": "1"}, "accept": ["1"], "answer": "accept", "_annotator_id": "a"},
        {"meta": {"lexelt": "bank.n", "instance": "2"}, "accept": [], "answer": "reject", "_annotator_id": "a"},
        {"meta": {"lexelt": "bank.n", "instance": "3"}, "accept": [], "answer": "ignore", "_annotator_id": "a"},
    ]) + "\n")
    src = read_annotations(p)
    msgs = [x.message for x in src.problems]
    assert any("'reject'" in m for m in msgs) and any("'ignore'" in m for m in msgs)
    ls = tmp_path / "ls.json"
    ls.write_text(json.dumps([{"id": 1, "data": {"lexelt": "bank.n"}, "annotations": [
        {"completed_by": 1, "was_cancelled": True, "result": []},
        {"completed_by": 2, "result": [{"type": "taxonomy", "from_name": "t", "value": {"taxonomy": [["1", "1.2"]]}}]}]}]))
    src = read_annotations(ls)
    assert _answers(src) == {("annotator-2", "bank.n", "1"): frozenset({"1.2"})}  # a path's last node
    assert any("cancelled" in x.message for x in src.problems)


def test_missing_lexelt_field_asks_with_the_keys_found(tmp_path):
    ls = tmp_path / "ls.json"
    ls.write_text(json.dumps([{"id": 1, "data": {"word": "bank", "sid": "s1"}, "annotations": []}]))
    with pytest.raises(FormatError, match=r"--json-fields lexelt=KEY \(keys found: sid, word\)"):
        read_annotations(ls)
    src_cols = {"lexelt": "word", "instance": "sid"}
    ls.write_text(json.dumps([{"id": 1, "data": {"word": "bank", "sid": "s1"}, "annotations": [
        {"completed_by": 1, "result": [{"type": "choices", "from_name": "s", "value": {"choices": ["x"]}}]}]}]))
    assert _answers(read_annotations(ls, columns=src_cols)) == {("annotator-1", "bank", "s1"): frozenset({"x"})}


def test_broken_json_names_line_and_column(tmp_path):
    ls = tmp_path / "ls.json"
    ls.write_text('[{"id": 1, "data": {"lexelt": "a"},\n "annotations": [}]')
    with pytest.raises(FormatError) as err:
        read_annotations(ls)
    p = err.value.problems[0]
    assert p.line == 2 and p.column
    pj = tmp_path / "p.jsonl"
    pj.write_text('{"meta": {"lexelt": "a", "instance": "1"}, "accept": ["x"], "_annotator_id": "a"}\n{"accept": [\n')
    src = read_annotations(pj)
    assert [x.line for x in src.problems if x.severity == "error"] == [2]


@pytest.mark.parametrize("fmt", ["labelstudio", "prodigy"])
def test_project_round_trips_its_gold_through_the_tool_format(wsbest, tmp_path, fmt):
    from hieradjudicate.app.loading.specs import AnnotationSpec
    from hieradjudicate.app.session.session import Session

    path = (write_labelstudio(wsbest, tmp_path / "export.json") if fmt == "labelstudio"
            else write_prodigy(wsbest, tmp_path / "db.jsonl"))
    with Session.create(tmp_path / "p.hadj", [], [AnnotationSpec(str(path))]) as s:
        s.accept_agreed(min_annotators=2)
        resolved = {(d.lexelt, d.instance): frozenset(d.tags) for d in s.decisions if d.status == "resolved"}
        assert resolved
        out = tmp_path / ("gold.json" if fmt == "labelstudio" else "gold.jsonl")
        summary = s.export(out, format=fmt)
    assert summary.written == len(resolved)
    back = read_annotations(out)
    assert back.format == fmt
    got = {(lex, i): t for (_, lex, i), t in _answers(back).items()}
    assert got == resolved


def test_damaged_files_give_a_source_or_a_format_error(wsbest, tmp_path):
    """Random byte damage to both formats: a result or our FormatError, nothing else."""
    rng = random.Random(7)
    for fmt, writer in (("json", write_labelstudio), ("jsonl", write_prodigy)):
        clean = writer(wsbest, tmp_path / f"clean.{fmt}").read_bytes()
        for _ in range(60):
            data = bytearray(clean)
            for _ in range(rng.randint(1, 4)):
                i = rng.randrange(len(data))
                op = rng.choice(("flip", "cut", "insert"))
                if op == "flip":
                    data[i] = rng.randrange(256)
                elif op == "cut":
                    del data[i:i + rng.randint(1, 40)]
                else:
                    data[i:i] = rng.choice([b"{", b"]", b'"', b"\x00", b"null", b"[[", b"\xff"])
            p = tmp_path / f"bad.{fmt}"
            p.write_bytes(bytes(data))
            try:
                read_annotations(p)
            except FormatError as exc:
                assert exc.problems and "internal error" not in str(exc), str(exc)


def _with_predictions(tmp_path: Path) -> Path:
    """Two annotators and one model on four tasks; the model agrees with annotator 1 every time."""
    tasks = []
    answers = {1: ("a", "b", "a"), 2: ("a", "a", "b"), 3: ("b", "b", "b"), 4: ("a", "b", "b")}
    for n, (one, two, model) in answers.items():
        res = [{"from_name": "sense", "to_name": "text", "type": "choices", "value": {"choices": [c]}}
               for c in (one, two, model)]
        tasks.append({"id": n, "data": {"lexelt": "bank.n", "instance": f"i{n}"},
                      "annotations": [{"completed_by": 1, "result": [res[0]]}, {"completed_by": 2, "result": [res[1]]}],
                      "predictions": [{"model_version": "bert-v2", "result": [res[2]]}],
                      "total_annotations": 2, "cancelled_annotations": 0, "total_predictions": 1, "is_labeled": True})
    p = tmp_path / "with_predictions.json"
    p.write_text(json.dumps(tasks))
    return p


def test_model_predictions_are_a_system_never_an_annotator(tmp_path):
    """#24 item 2: predictions were read as a third annotator (raising Fleiss without a word)."""
    from hieradjudicate.app.loading.load import load
    from hieradjudicate.app.loading.specs import AnnotationSpec

    path = _with_predictions(tmp_path)
    src = read_annotations(path)
    assert src.set_roles == {"bert-v2": "system"}
    assert any("bert-v2" in x.message and "system" in x.message for x in src.problems)
    corpus = load([], [AnnotationSpec(str(path))], []).corpus
    assert {s.name: s.role for s in corpus.sets} == {"annotator-1": "annotator", "annotator-2": "annotator",
                                                     "bert-v2": "system"}
    as_annotator = read_annotations(path, columns={"predictions": "annotator"})
    assert as_annotator.set_roles == {"bert-v2": "annotator"}
    skipped = read_annotations(path, columns={"predictions": "skip"})
    assert skipped.set_names == ["annotator-1", "annotator-2"]
    assert any("left out" in x.message for x in skipped.problems)


def test_agree_counts_the_annotators_only(tmp_path, capsys):
    from hieradjudicate.cli.entry import main

    path = _with_predictions(tmp_path)
    assert main(["agree", "--annotations", str(path), "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["sets"] == ["annotator-1", "annotator-2"]
    assert main(["agree", "--annotations", str(path), "--json-fields", "predictions=annotator",
                 "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["sets"] == ["annotator-1", "annotator-2", "bert-v2"]
    assert main(["agree", "--annotations", str(path), "--json-fields", "predictions=model"]) == 1
    assert "expected system, annotator, gold, skip" in capsys.readouterr().err


def test_export_writes_the_counts_of_what_it_writes(tmp_path):
    """#24 item 2: the export copied total_annotations: 2 (and the predictions' count) from the source."""
    from types import SimpleNamespace

    from hieradjudicate.io.exports.labelstudio import export_gold_labelstudio

    path = _with_predictions(tmp_path)
    decisions = [SimpleNamespace(lexelt="bank.n", instance="i1", status="resolved", tags=("a",)),
                 SimpleNamespace(lexelt="bank.n", instance="i2", status="open", tags=())]
    out = tmp_path / "gold.json"
    export_gold_labelstudio(decisions, str(path), out)
    tasks = json.loads(out.read_text())
    assert [(t["total_annotations"], t["total_predictions"], t["is_labeled"]) for t in tasks] == [
        (1, 0, True), (0, 0, False), (0, 0, False), (0, 0, False)]
    assert all(t["total_annotations"] == len(t.get("annotations", [])) for t in tasks)


def test_a_project_keeps_the_model_a_system(tmp_path):
    from hieradjudicate.app.loading.specs import AnnotationSpec
    from hieradjudicate.app.session.session import Session

    path = _with_predictions(tmp_path)
    with Session.create(tmp_path / "p.hadj", [], [AnnotationSpec(str(path))]):
        pass
    with Session.open(tmp_path / "p.hadj", read_only=True) as s:
        assert {x.name: x.role for x in s.corpus.sets}["bert-v2"] == "system"


def test_an_unknown_predictions_role_is_a_clear_error(tmp_path):
    with pytest.raises(FormatError, match="predictions='model': expected one of system, annotator, gold, skip"):
        read_annotations(_with_predictions(tmp_path), columns={"predictions": "model"})
