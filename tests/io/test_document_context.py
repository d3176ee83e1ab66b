"""Whole documents around an instance (#31 "the context a lexicographer needs"): the WSD framework's
XML indexed by document, sentence and lemma; WordNet glosses split into definition and examples."""

from __future__ import annotations

import gzip
import re
from collections import defaultdict

import pytest

from hieradjudicate.core.errors import FormatError
from hieradjudicate.core.inventory.gloss_parts import split_gloss
from hieradjudicate.io.contexts.document import index_wsd_xml
from hieradjudicate.io.contexts.read import read_contexts

SMALL = """<?xml version="1.0" encoding="UTF-8" ?>
<corpus lang="en" source="test">
<text id="d000">
<sentence id="d000.s000">
<wf lemma="the" pos="DET">The</wf>
<instance id="d000.s000.t000" lemma="bank" pos="NOUN">bank</instance>
<wf lemma="be" pos="VERB">was</wf>
<instance id="d000.s000.t001" lemma="close" pos="ADJ">closed</instance>
</sentence>
<sentence id="d000.s001">
<wf lemma="we" pos="PRON">We</wf>
<instance id="d000.s001.t000" lemma="walk" pos="VERB">walked</instance>
<wf lemma="to" pos="ADP">to</wf>
<wf lemma="the" pos="DET">the</wf>
<instance id="d000.s001.t001" lemma="bank" pos="NOUN">bank</instance>
<wf lemma="of" pos="ADP">of</wf>
<wf lemma="the" pos="DET">the</wf>
<instance id="d000.s001.t002" lemma="river" pos="NOUN">river</instance>
</sentence>
<sentence id="d000.s002">
<wf lemma="it" pos="PRON">It</wf>
<instance id="d000.s002.t000" lemma="bank" pos="VERB">banked</instance>
</sentence>
</text>
<text id="d001">
<sentence id="d001.s000">
<wf lemma="a" pos="DET">A</wf>
<instance id="d001.s000.t000" lemma="bank" pos="NOUN">bank</instance>
</sentence>
</text>
</corpus>
"""


def test_small_xml_gives_each_instance_its_document_sentences_and_same_lemma_instances():
    index = index_wsd_xml(SMALL.encode())
    assert len(index) == 7 and sorted(index.documents) == ["d000", "d001"]
    v = index.view("d000.s001.t001")
    assert v.document == "d000" and v.at == 1
    assert [s.text for s in v.sentences] == ["The bank was closed", "We walked to the bank of the river",
                                             "It banked"]
    sentence = v.sentences[v.at].text
    assert sentence[v.target.start:v.target.end] == "bank" and v.target.lexelt == "bank.n"
    # the same lemma and part of speech, in this document only: not the verb, not d001's bank
    assert v.same_lemma == ("d000.s000.t000",)
    assert v.window(1, 1) == (0, 3) and v.window(0, 0) == (1, 2)
    assert index.view("d001.s000.t000").same_lemma == ()
    assert index.view("nope") is None and index.document_of("d000.s002.t000") == "d000"


def test_gzip_and_a_sentence_outside_text_are_read():
    raw = gzip.compress(b"<corpus><sentence id='x1.s0'><instance id='x1.s0.t0' lemma='go' pos='VERB'>go"
                        b"</instance></sentence></corpus>")
    v = index_wsd_xml(raw, "f.xml.gz").view("x1.s0.t0")
    assert v.document == "x1" and v.sentences[0].text == "go"


def test_malformed_xml_is_refused_with_its_line():
    with pytest.raises(FormatError) as err:
        index_wsd_xml(b"<corpus>\n<sentence id='a'>\n<wf>x</sentence></corpus>", "bad.xml")
    assert "bad.xml" in str(err.value) and err.value.problems[0].line == 3


def test_a_sentence_of_the_index_is_the_context_the_reader_gives(tmp_path):
    p = tmp_path / "small.data.xml"
    p.write_text(SMALL)
    index = index_wsd_xml(p.read_bytes())
    for c in read_contexts(p).contexts:
        v = index.view(c.instance)
        assert v.sentences[v.at].text == c.text and (v.target.start, v.target.end) == c.head
        assert v.target.lexelt == c.lexelt


def test_wsd_framework_all_every_instance_in_its_document(realdata):
    path = realdata / "wsdeval" / "ALL.data.xml"
    raw = path.read_bytes()
    index = index_wsd_xml(raw, str(path))
    contexts = read_contexts(path).contexts
    assert len(index) == len(contexts) == 7253
    # independent oracle: the raw file's <text id> elements and its instances by document and lemma
    text = raw.decode()
    assert sorted(index.documents) == sorted(re.findall(r'<text id="([^"]+)"', text))
    pos = {"NOUN": "n", "VERB": "v", "ADJ": "a", "ADV": "r"}
    groups: dict[tuple[str, str], list[str]] = defaultdict(list)
    for ident, lemma, p in re.findall(r'<instance id="([^"]+)" lemma="([^"]+)" pos="([^"]+)"', text):
        groups[(ident.rsplit(".", 2)[0], f"{lemma.lower()}.{pos[p]}")].append(ident)
    for c in contexts:
        v = index.view(c.instance)
        assert v.sentences[v.at].text == c.text and (v.target.start, v.target.end) == c.head
        expected = groups[(c.instance.rsplit(".", 2)[0], c.lexelt)]
        assert v.same_lemma == tuple(x for x in expected if x != c.instance)
    sentences = sum(len(s) for s in index.documents.values())
    assert sentences == text.count("<sentence ")


def test_wordnet_gloss_splits_into_definition_and_examples():
    assert split_gloss('bank#2: a flight maneuver; aircraft tips laterally; "the plane went into a steep bank"') \
        == ("a flight maneuver; aircraft tips laterally", ["the plane went into a steep bank"])
    assert split_gloss('run#1: move fast; "Don\'t run--you\'ll be late"; "He ran to the store"') \
        == ("move fast", ["Don't run--you'll be late", "He ran to the store"])
    # a quote inside the definition stays there; a gloss without examples comes back whole
    assert split_gloss('to#1: (usually followed by "to") going') == ('(usually followed by "to") going', [])
    assert split_gloss("the first sense") == ("the first sense", [])
    assert split_gloss('be#1: exist; "to be, or not to be" - Shakespeare') \
        == ("exist", ["to be, or not to be - Shakespeare"])


def test_wordnet_inventory_glosses_split_against_the_data_file():
    from pathlib import Path

    from hieradjudicate.io.inventories.wordnet import DEFAULT_FOLDER, read_wordnet

    data = Path(DEFAULT_FOLDER) / "data.noun"
    if not data.is_file():
        pytest.skip(f"WordNet is not installed at {DEFAULT_FOLDER} (Debian: apt install wordnet-base)")
    senses = read_wordnet("wordnet", ["bank.n"]).senses
    glosses = [split_gloss(s.gloss) for s in senses]
    # oracle: the data file's own line for the flight-maneuver synset, split at its first '; "'
    line = next(ln for ln in data.read_text().splitlines() if ln.startswith("00169305 "))
    gloss = line.partition(" | ")[2].strip()
    definition, _, rest = gloss.partition('; "')
    assert (definition, rest.rstrip('"').split('"; "')) in glosses
    assert all(d and not d.startswith('"') for d, _ in glosses)
