"""INCEpTION / WebAnno XMI: the real exports in ``inception/`` and a multi-annotator project
export derived from them (one set per annotator in one step; the gold back as XMI)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from hieradjudicate.app.loading.load import load
from hieradjudicate.app.loading.specs import AnnotationSpec
from hieradjudicate.core.errors import FormatError
from hieradjudicate.io.annotations.read import read_annotations
from hieradjudicate.io.annotations.tools.uima import survey
from tests.conftest import realdata_dir, realdata_problem, skip_without_realdata

NE = {"layer": "NamedEntity", "feature": "identifier"}


@pytest.fixture(scope="module")
def inception() -> Path:
    root = skip_without_realdata("inception")
    return root / "inception"


def _derive(xmi: bytes, ts: bytes, change_every: int, drop_every: int) -> bytes:
    """Another annotator: every ``change_every``-th identifier replaced, every ``drop_every``-th
    span removed (through cassis, so the result is a valid CAS of the same type system)."""
    from cassis import load_cas_from_xmi, load_typesystem

    cas = load_cas_from_xmi(io.BytesIO(xmi), typesystem=load_typesystem(io.BytesIO(ts)))
    spans = list(cas.select("de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity"))
    for k, a in enumerate(spans):
        if drop_every and k % drop_every == drop_every - 1:
            cas.remove(a)
        elif k % change_every == 0 and a.identifier:
            a.identifier = a.identifier + "-other"
    return cas.to_xmi().encode("utf-8")


def project_export(folder: Path, inception: Path, path: Path) -> Path:
    """An INCEpTION project export: alice's and bob's files as plain XMI, carol's wrapped in a
    zip with its type system (as INCEpTION writes them), INITIAL_CAS, and a curation."""
    ts = (inception / "TypeSystem.xml").read_bytes()
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("exportedproject1.json", "{}")
        z.writestr("TypeSystem.xml", ts)
        for doc in ("moralistik", "diderot_rousseau"):
            xmi = (inception / f"{doc}.xmi").read_bytes()
            z.writestr(f"source/{doc}.txt", "")
            z.writestr(f"annotation/{doc}.txt/alice.xmi", xmi)
            z.writestr(f"annotation/{doc}.txt/bob.xmi", _derive(xmi, ts, 5, 0))
            inner = io.BytesIO()
            with zipfile.ZipFile(inner, "w") as zi:
                zi.writestr("carol.xmi", _derive(xmi, ts, 3, 7))
                zi.writestr("TypeSystem.xml", ts)
            z.writestr(f"annotation/{doc}.txt/carol.zip", inner.getvalue())
            z.writestr(f"annotation/{doc}.txt/INITIAL_CAS.xmi", xmi)
            z.writestr(f"curation/{doc}.txt/CURATION_USER.xmi", xmi)
    return path


def test_real_xmi_by_layer_and_feature(inception):
    src = read_annotations(inception / "moralistik.xmi", columns=NE)
    assert src.format == "uima-xmi"
    assert len(src.item_instance) == 71  # 76 spans, 71 with an identifier
    no_value = [p for p in src.problems if "has no identifier" in p.message]
    assert len(no_value) == 5 and all(p.line for p in no_value)  # named, with their line
    assert len(src.contexts) == 71 and all(c.head for c in src.contexts)
    c = src.contexts[0]
    i = src.item_instance.index(c.instance)
    assert c.text[c.head[0]:c.head[1]].lower().split() == src.item_lexelt[i].split()


def test_without_a_layer_the_choice_is_asked_with_counts(inception):
    with pytest.raises(FormatError) as err:
        read_annotations(inception / "moralistik.xmi")
    assert "--xmi-layer" in str(err.value) and "NamedEntity / identifier (76 spans, 71 with a value)" in str(err.value)
    found = {(c.layer.rsplit(".", 1)[-1], c.feature): (c.spans, c.with_value) for c in survey(str(inception / "moralistik.xmi"))}
    assert found[("NamedEntity", "identifier")] == (76, 71)


def test_unknown_layer_or_feature_is_refused(inception):
    with pytest.raises(FormatError, match="no span layer 'Nope'"):
        read_annotations(inception / "moralistik.xmi", columns={"layer": "Nope", "feature": "x"})
    with pytest.raises(FormatError, match="has no feature 'sense'"):
        read_annotations(inception / "moralistik.xmi", columns={"layer": "NamedEntity", "feature": "sense"})


def test_an_unknown_layer_lists_the_layers_with_spans_in_the_file_first_and_says_how_many_more(inception):
    """Before, the message listed the type system's first 30 of 186 span layers alphabetically, and the
    file's own NamedEntity was not among them, with nothing saying more exist."""
    with pytest.raises(FormatError) as err:
        read_annotations(inception / "moralistik.xmi", columns={"layer": "Nope", "feature": "identifier"})
    text = str(err.value)
    assert "layers with spans in this file: NamedEntity, Property, Sentence, Token;" in text
    assert "186 span layers in the type system: ABBREV," in text and " and 156 more)" in text


def test_xmi_without_its_type_system_says_so(inception, tmp_path):
    lone = tmp_path / "doc.xmi"
    lone.write_bytes((inception / "moralistik.xmi").read_bytes())
    with pytest.raises(FormatError, match="TypeSystem.xml"):
        read_annotations(lone, columns=NE)


def test_project_export_gives_one_set_per_annotator(inception, tmp_path):
    zpath = project_export(tmp_path, inception, tmp_path / "project.zip")
    src = read_annotations(zpath, columns=NE)
    assert sorted(src.set_names) == ["alice", "bob", "carol", "curation"]
    res = load([], [AnnotationSpec(str(zpath), columns=NE)])
    c = res.corpus
    alice, bob, carol = (c.get_set(n) for n in ("alice", "bob", "carol"))
    # diderot_rousseau has 212 identifiers on 208 spans: 4 spans carry two (stacked) -> multi-tag
    assert alice.n == 71 + 208 and bob.n == alice.n and carol.n < alice.n
    assert int((alice.n_tags() > 1).sum()) == 4
    assert len(c.contexts) == c.n  # every span has its sentence


def test_project_round_trips_its_gold_through_xmi(inception, tmp_path):
    """Build a project from the export, resolve what all annotators agree on, export XMI, read it
    back with the same reader: the same instances with the same tags."""
    from hieradjudicate.app.session.session import Session

    zpath = project_export(tmp_path, inception, tmp_path / "project.zip")
    with Session.create(tmp_path / "p.hadj", [], [AnnotationSpec(str(zpath), columns=NE)]) as s:
        s.accept_agreed()
        resolved = {(d.instance, tuple(sorted(d.tags))) for d in s.decisions if d.status == "resolved"}
        assert resolved
        summary = s.export(tmp_path / "gold.zip", format="xmi")
    assert summary.resolved == len(resolved)
    back = read_annotations(tmp_path / "gold.zip", columns=NE)
    got = {}
    for row in range(back.n_labels):
        got.setdefault(back.item_instance[back.item[row]], set()).add(back.tags[back.tag[row]])
    assert {(i, tuple(sorted(t))) for i, t in got.items()} == resolved
    # reopened from its stored copy (no folder with the type system needed)
    with Session.open(tmp_path / "p.hadj") as s:
        assert {x.name for x in s.corpus.sets} >= {"alice", "bob", "carol"}


def test_single_xmi_project_keeps_its_type_system(inception, tmp_path):
    from hieradjudicate.app.session.session import Session

    spec = AnnotationSpec(str(inception / "moralistik.xmi"), name="ann", columns=NE)
    Session.create(tmp_path / "p.hadj", [], [spec]).close()
    with Session.open(tmp_path / "p.hadj") as s:
        assert s.corpus.get_set("ann").n == 71


def test_damaged_zip_and_garbage_are_errors(tmp_path):
    bad = tmp_path / "broken.zip"
    bad.write_bytes(b"PK\x03\x04" + b"\0" * 50)
    with pytest.raises(FormatError):
        read_annotations(bad, columns=NE)
    xml = tmp_path / "x.xmi"
    xml.write_text('<?xml version="1.0"?><xmi:XMI xmlns:xmi="http://www.omg.org/XMI"><broken')
    (tmp_path / "TypeSystem.xml").write_text("<typeSystemDescription/>")
    with pytest.raises(FormatError):
        read_annotations(xml, columns=NE)


def _fuzz_seed() -> bytes | None:
    root = realdata_dir()
    p = root / "inception" / "moralistik.xmi" if root else None
    return p.read_bytes() if p is not None and p.is_file() else None


_SEED = _fuzz_seed()


@pytest.mark.skipif(_SEED is None, reason=str(realdata_problem("inception")))
def test_damaged_xmi_gives_a_source_or_a_format_error(tmp_path_factory):
    """Byte damage anywhere in a real XMI (and in a zip of it): a result or our FormatError,
    never another exception.  Deterministic sample of the hypothesis mutations (cassis parses
    the whole document per example, so the sample is kept small)."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from tests.io.mutations import mutate, mutations

    folder = tmp_path_factory.mktemp("xmi-fuzz")
    (folder / "TypeSystem.xml").write_bytes((realdata_dir() / "inception" / "TypeSystem.xml").read_bytes())
    tokens = [b"<", b">", b'"', b"xmi:id=", b"begin=", b"identifier=", b"&", b"\x00", b"\xff"]

    @settings(max_examples=40, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    @given(ops=st.lists(mutations(tokens), min_size=1, max_size=4), zipped=st.booleans())
    def check(ops, zipped):
        data = mutate(_SEED, ops)
        target = folder / ("doc.zip" if zipped else "doc.xmi")
        if zipped:
            buf = io.BytesIO()
            with zipfile.ZipFile(buf, "w") as z:
                z.writestr("doc.xmi", data)
                z.writestr("TypeSystem.xml", (folder / "TypeSystem.xml").read_bytes())
            data = buf.getvalue()
        target.write_bytes(data)
        try:
            src = read_annotations(target, columns=NE)
        except FormatError as exc:
            assert exc.problems and "internal error" not in str(exc), str(exc)
            return
        assert src.n_labels > 0

    check()


def _tsv_from_xmi(xmi_path: Path, ts_path: Path) -> str:
    """WebAnno TSV 3.3 of a real XMI (tokens, sentences, the NamedEntity layer's identifier and
    value), written the way WebAnno writes it: stacked spans joined by '|', multi-token spans
    tied by [N]; a test-only writer so that both readers can be compared on the same document."""
    from cassis import load_cas_from_xmi, load_typesystem

    cas = load_cas_from_xmi(xmi_path.open("rb"), typesystem=load_typesystem(ts_path.open("rb")))
    tok = "de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.Token"
    ne = list(cas.select("de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity"))
    ids = {id(a): k + 1 for k, a in enumerate(ne)}
    esc = lambda s: s.replace("\\", "\\\\").replace("|", "\\|").replace("_", "\\_").replace("[", "\\[").replace("]", "\\]")
    out = ["#FORMAT=WebAnno TSV 3.3", "#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|identifier|value", "", ""]
    for s_no, sent in enumerate(cas.select("de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.Sentence"), start=1):
        out.append("#Text=" + sent.get_covered_text().replace("\\", "\\\\").replace("\n", "\\n"))
        for t_no, t in enumerate(cas.select_covered(tok, sent), start=1):
            here = [a for a in ne if a.begin < t.end and t.begin < a.end]
            def cell(f):
                if not here:
                    return "_"
                vals = []
                for a in here:
                    v = a.get(f)
                    v = esc(v) if v else "*"
                    multi = len(cas.select_covered(tok, a)) > 1
                    vals.append(f"{v}[{ids[id(a)]}]" if multi else v)
                return "|".join(vals)
            out.append(f"{s_no}-{t_no}\t{t.begin}-{t.end}\t{t.get_covered_text()}\t{cell('identifier')}\t{cell('value')}\t")
        out.append("")
    return "\n".join(out) + "\n"


def test_webanno_tsv_reads_the_same_instances_as_the_xmi(inception, tmp_path):
    tsv = tmp_path / "moralistik.tsv"
    tsv.write_text(_tsv_from_xmi(inception / "moralistik.xmi", inception / "TypeSystem.xml"), encoding="utf-8")
    from_tsv = read_annotations(tsv, name="moralistik", columns=NE)
    from_xmi = read_annotations(inception / "moralistik.xmi", columns=NE)
    assert from_tsv.format == "webanno-tsv"

    def answers(src):
        out = {}
        for r in range(src.n_labels):
            out.setdefault(src.item_instance[src.item[r]], set()).add(src.tags[src.tag[r]])
        return out
    assert answers(from_tsv) == answers(from_xmi)
    assert len([p for p in from_tsv.problems if "has no identifier" in p.message]) == 5
    assert {c.instance for c in from_tsv.contexts} == {c.instance for c in from_xmi.contexts}
    with pytest.raises(FormatError, match="declared span layers: NamedEntity / identifier"):
        read_annotations(tsv)


def test_damaged_webanno_tsv_gives_a_source_or_a_format_error(inception, tmp_path):
    import random

    clean = _tsv_from_xmi(inception / "moralistik.xmi", inception / "TypeSystem.xml").encode("utf-8")
    rng = random.Random(11)
    for _ in range(150):
        data = bytearray(clean)
        for _ in range(rng.randint(1, 5)):
            i = rng.randrange(len(data))
            op = rng.randrange(3)
            if op == 0:
                data[i] = rng.choice(b"\t|[]_*\\-\n0123456789\x00\xff")
            elif op == 1:
                del data[i:i + rng.randint(1, 60)]
            else:
                data[i:i] = rng.choice([b"\t", b"|x[3]", b"\n#Text=", b"[", b"\\"])
        p = tmp_path / "bad.tsv"
        p.write_bytes(bytes(data))
        try:
            read_annotations(p, columns=NE)
        except FormatError as exc:
            assert exc.problems and "internal error" not in str(exc), str(exc)


def test_webanno_tsv_default_layer_is_wordsense_value(tmp_path):
    """#24 item 4: the help says WordSense/value is the default, but reading failed without
    --xmi-layer WordSense --xmi-feature value."""
    ws = "de.tudarmstadt.ukp.dkpro.core.api.semantics.type.WordSense"
    text = ("#FORMAT=WebAnno TSV 3.3\n"
            f"#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|value\n#T_SP={ws}|value\n\n\n"
            "#Text=The bank was steep .\n"
            "1-1\t0-3\tThe\t_\t_\t\n1-2\t4-8\tbank\tLOC\tbank%1:17:01::\t\n1-3\t9-12\twas\t_\t_\t\n"
            "1-4\t13-18\tsteep\t_\t_\t\n1-5\t19-20\t.\t_\t_\t\n")
    p = tmp_path / "doc.tsv"
    p.write_text(text, encoding="utf-8")
    src = read_annotations(p)
    assert src.format == "webanno-tsv"
    assert src.tags == ["bank%1:17:01::"] and src.item_lexelt == ["bank"] and src.item_instance == ["doc:4-8"]
    # a layer without its feature: value where the layer has it
    assert read_annotations(p, columns={"layer": "NamedEntity"}).tags == ["LOC"]
    from hieradjudicate.cli.entry import main

    assert main(["agree", "--annotations", str(p), "--annotations", f"b={p}"]) == 0
    # no WordSense declared: the layers are listed, as before
    p.write_text(text.replace(f"#T_SP={ws}|value\n", "").replace("\tbank%1:17:01::\t", "\t").replace("\t_\t_\t\n", "\t_\t\n"),
                 encoding="utf-8")
    with pytest.raises(FormatError, match="declared span layers: NamedEntity / value"):
        read_annotations(p)
