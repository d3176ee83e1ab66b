"""Contexts of the real Senseval-3 and WSbest files."""

from __future__ import annotations

import re

from hieradjudicate.io.contexts.read import read_contexts


def test_senseval3_lexical_sample(realdata):
    src = read_contexts(realdata / "senseval3" / "EnglishLS.test.gz")
    assert src.format == "senseval-xml"
    assert len(src.contexts) == 3944 and src.problems == []
    assert len({c.lexelt for c in src.contexts}) == 57
    assert all(c.head is not None for c in src.contexts)
    for c in src.contexts:
        word = c.text[c.head[0]:c.head[1]]
        assert re.fullmatch(r"[A-Za-z][A-Za-z'\-]*", word), (c.instance, word)
        assert "  " not in c.text and c.text == c.text.strip() and "<head>" not in c.text
    first = src.contexts[0]
    assert (first.lexelt, first.instance) == ("activate.v", "activate.v.bnc.00008457")
    assert first.text[first.head[0]:first.head[1]] == "activating"
    # the key names the same instances
    key = {tuple(ln.split()[:2]) for ln in
           (realdata / "senseval3" / "EnglishLS.test.key").read_text().splitlines() if ln.strip()}
    assert {(c.lexelt, c.instance) for c in src.contexts} == key


def test_wsbest_uses(realdata):
    src = read_contexts(realdata / "wsbest" / "uses.tsv.gz")
    assert src.format == "wsbest-uses"
    assert len(src.contexts) == 260 and src.problems == []
    assert len({c.lexelt for c in src.contexts}) == 26
    for c in src.contexts:
        word = c.text[c.head[0]:c.head[1]].lower()
        assert word[:2] == c.lexelt[:2] or c.lexelt.startswith("hold"), (c.instance, word)
    c = next(c for c in src.contexts if c.instance == "1022")
    assert c.text.startswith("Angas & Moore") and c.text[c.head[0]:c.head[1]] == "ordered"
