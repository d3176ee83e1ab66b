"""Short sense labels (#14 item 3): WordNet keys, URIs, long ids, glosses."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from hieradjudicate.core.inventory.labels import (
    MAX_LEN,
    elide,
    gloss_words,
    node_short_labels,
    short_labels,
    tooltip,
    uri_tail,
    wordnet_key,
)


def test_wordnet_keys_become_lemma_and_rank_in_inventory_order():
    keys = ["brig%1:06:00::", "brig%1:06:01::", "account%1:10:03::", "brig%1:06:02::", "add%2:30:00::"]
    assert short_labels(keys) == ["brig#1", "brig#2", "account#1", "brig#3", "add#1"]
    assert wordnet_key("bright%5:00:00:intelligent:00") == ("bright", "a")
    assert wordnet_key("order%2:30:00::") == ("order", "v")
    assert wordnet_key("ice_cream%1:13:00::") == ("ice cream", "n")
    assert wordnet_key("38201") is None and wordnet_key("a%b") is None


def test_noun_and_verb_senses_of_one_lemma_are_numbered_apart():
    assert short_labels(["run%1:04:00::", "run%2:38:00::", "run%1:04:01::"]) == ["run#1", "run#1·2", "run#2"]


def test_uris_become_their_last_segment_or_fragment():
    assert uri_tail("http://www.wikidata.org/entity/Q123") == "Q123"
    assert uri_tail("https://example.org/onto#Person") == "Person"
    assert uri_tail("https://example.org/things/Jean-Jacques_Rousseau/") == "Jean-Jacques_Rousseau"
    assert uri_tail("http://dbpedia.org/resource/Caf%C3%A9") == "Café"
    assert uri_tail("urn:isbn:0451450523") == "0451450523"
    assert uri_tail("Q123") is None
    assert short_labels(["http://www.wikidata.org/entity/Q1", "http://other.org/x/Q1"]) == ["Q1", "Q1·2"]


def test_short_ids_are_kept_and_long_ones_elided_in_the_middle():
    assert short_labels(["38201", "1", "0"]) == ["38201", "1", "0"]
    long = "sense_identifier_number_000017"
    (lab,) = short_labels([long])
    assert len(lab) == MAX_LEN and lab.startswith("sense_i") and lab.endswith("0017") and "…" in lab
    assert elide("abcdef", 4) == "abc…" and elide("abcdef", 4, middle=True) == "ab…f"
    assert elide("abc", 4) == "abc"


@given(st.lists(st.text(min_size=1, max_size=60), max_size=30))
def test_short_labels_never_name_two_senses_and_stay_short(keys):
    labels = short_labels(keys)
    assert len(labels) == len(keys)
    assert all(len(lab) <= MAX_LEN for lab in labels)
    assert len(set(labels)) == len(labels)  # even equal keys get apart labels: each is a row


def test_gloss_words():
    assert gloss_words("a short account of the news") == "short account of the news"
    assert gloss_words("a record or narrative description of past events; a history", 20) == "record or narrative…"
    assert gloss_words("make an addition (to); join or combine") == "make an addition (to)"
    assert gloss_words("") == ""
    assert gloss_words("Supercalifragilisticexpialidocious", 10).endswith("…")
    assert len(gloss_words("Supercalifragilisticexpialidocious", 10)) <= 10
    assert tooltip("brig%1:06:00::", "a penal institution") == "brig%1:06:00::\na penal institution"
    assert tooltip("x", "") == "x"


def test_node_labels_of_an_inventory_with_self_leaves():
    from hieradjudicate.core.inventory.inventory_builder import InventoryBuilder
    from hieradjudicate.core.records import SenseRecord

    b = InventoryBuilder()
    b.add([SenseRecord("brig.n", "brig%1:06:00::", None, "a penal institution", branching=2, file="t", line=1),
           SenseRecord("brig.n", "brig%1:06:01::", "brig%1:06:00::", "a ship", file="t", line=2),
           SenseRecord("brig.n", "brig%1:06:02::", None, "two masts", file="t", line=3)])
    inv = b.build()
    labels = node_short_labels(inv)
    assert node_short_labels(inv) is labels  # cached on the inventory
    by_id = dict(zip(inv.node_id, labels))
    # the self leaf repeats its parent's label and takes no rank of its own
    assert by_id["brig%1:06:00::"] == "brig#1"
    assert by_id["brig%1:06:01::"] == "brig#2"
    assert by_id["brig%1:06:02::"] == "brig#3"
    selfs = [lab for n, lab in enumerate(labels) if inv.node_self_of[n] >= 0]
    assert selfs == ["brig#1 (itself)"]


def test_a_key_that_looks_like_a_numbered_label_does_not_collide():
    labels = short_labels(["x", "x", "x·2"])
    assert len(set(labels)) == 3


def test_wordnet_glosses_give_wordnets_own_sense_numbers() -> None:
    """The WordNet inventory groups senses by supersense, so tree order is not WordNet's order: the
    gloss's 'document#3:' is the number to show (the label said document#4 beside a document#3 gloss)."""
    from hieradjudicate.core.inventory.labels import short_labels

    keys = ["document%1:10:00::", "document%1:10:01::", "document%1:21:00::"]
    glosses = ["document#1: writing", "document#2: a computer file", "document#3: a written account"]
    assert short_labels(keys[::-1], glosses=glosses[::-1]) == ["document#3", "document#2", "document#1"]
    assert short_labels(keys[::-1]) == ["document#1", "document#2", "document#3"]  # no gloss: tree order


def test_numbered_senses_with_a_gloss_read_lemma_n() -> None:
    """MASC's inventory numbers the senses of a word (its ids are WordNet's sense numbers of the lemma):
    a chart reads add#1, never a bare 1; sense 0 ("none of the above") reads as what it is."""
    from hieradjudicate.core.inventory.labels import lexelt_lemma, short_labels

    assert [lexelt_lemma(x) for x in ("add-v", "bank.n", "fair-j", "ice_cream-n", "Q42", "well-")] == [
        "add", "bank", "fair", "ice_cream", "Q42", "well-"]
    glosses = ["make an addition (to)", "state or say further", "not clear / none of the above (SenseId 0)"]
    assert short_labels(["1", "2", "0"], glosses=glosses, lemma="add") == ["add#1", "add#2", "none (0)"]
    assert short_labels(["1", "2"], lemma="add") == ["1", "2"]  # no gloss: nothing says it is a sense number
    assert short_labels(["38201", "1"], glosses=["g", ""], lemma="ask") == ["38201", "1"]  # long ids stay


def test_an_inventory_numbering_its_own_hierarchy_keeps_its_numbers() -> None:
    """The demo's bank.n numbers its senses 1, 1.1, 1.2, 4: '4' is not WordNet's bank#4, so no lemma#N
    there; MASC's flat numbers (1, 3, 0 with glosses) do read lemma#N."""
    from hieradjudicate.core.inventory.labels import short_labels

    keys, gl = ["1", "1.1", "1.2", "4"], ["money", "bank", "building", "row"]
    assert short_labels(keys, glosses=gl, lemma="bank") == ["1", "1.1", "1.2", "4"]
    assert short_labels(["1", "3"], glosses=["activity", "occupation"], lemma="work") == ["work#1", "work#3"]
