"""Short, readable sense labels whatever the inventory's ids look like.

Sense ids come in every shape: Senseval numbers (``38201``), WordNet sense
keys (``brig%1:06:00::``), knowledge-base URIs (INCEpTION:
``http://www.wikidata.org/entity/Q123``), long opaque ids.  Tables, chart
axes and matrices need a label a few characters wide that still tells the
senses of one lexelt apart; the full key and its gloss go in a tooltip.

* A WordNet sense key becomes its lemma and a number: the sense's rank among
  the keys of that lemma and part of speech in the lexelt, in inventory order
  (``brig#2``).  The key's own fields (lexicographer file, lex id) are
  opaque to a reader; the tooltip keeps them.
* A URI becomes its last segment (the fragment if it has one), percent-decoded.
* Anything else longer than ``max_len`` is elided in the middle, keeping both
  ends (ids often differ only at the end).
* Labels that would coincide within a lexelt get ``·2``, ``·3``… so a short
  label never names two senses.

Pure (stdlib + numpy); the GUI and the report both use it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import unquote

import numpy as np

MAX_LEN = 20
ELLIPSIS = "…"
_WN_KEY = re.compile(r"^(?P<lemma>[^%\s]+)%(?P<ss>[1-5]):(?P<lexfile>\d\d):(?P<lexid>\d\d):[^:\s]*:\d*$")
_POS = {"1": "n", "2": "v", "3": "a", "4": "r", "5": "a"}  # satellites count as adjectives
_ARTICLES = {"a", "an", "the", "to"}


def elide(text: str, max_len: int = MAX_LEN, *, middle: bool = False) -> str:
    """``text`` cut to ``max_len`` characters with an ellipsis (at the end, or in the middle)."""
    if len(text) <= max_len:
        return text
    if max_len <= 1:
        return ELLIPSIS
    if middle:
        head = (max_len - 1 + 1) // 2
        tail = max_len - 1 - head
        return text[:head] + ELLIPSIS + (text[-tail:] if tail else "")
    return text[:max_len - 1].rstrip() + ELLIPSIS


def wordnet_key(key: str) -> tuple[str, str] | None:
    """``(lemma, pos)`` of a WordNet sense key (``brig%1:06:00::`` -> ``("brig", "n")``), else None."""
    m = _WN_KEY.match(key)
    if m is None:
        return None
    return m.group("lemma").replace("_", " "), _POS[m.group("ss")]


def uri_tail(key: str) -> str | None:
    """The last segment (or fragment) of a URI, percent-decoded; None when ``key`` is no URI."""
    if "://" not in key and not key.startswith("urn:"):
        return None
    body = key.split("?", 1)[0]
    if "#" in body and body.rsplit("#", 1)[1]:
        tail = body.rsplit("#", 1)[1]
    else:
        body = body.rstrip("/#")
        tail = re.split(r"[/:]", body)[-1] if body else key
    return unquote(tail) or key


_WN_RANK = re.compile(r"^(?P<lemma>[^#\s:]+(?: [^#\s:]+)*)#(?P<n>\d+):")


_DOTTED_NUMBER = re.compile(r"^\d+(?:\.\d+)+$")  # 1.1, 2.3.1: a numbered hierarchy of the inventory's own
_LEXELT_POS = re.compile(r"^(?P<lemma>.+?)[-.](?:n|v|a|r|s|j|adj|adv|noun|verb)$", re.IGNORECASE)


def lexelt_lemma(lexelt: str) -> str:
    """``add-v``, ``add.v`` -> ``add``; a lexelt without a part-of-speech suffix stays as it is."""
    m = _LEXELT_POS.match(lexelt)
    return m["lemma"] if m is not None else lexelt


def short_labels(keys: Sequence[str], max_len: int = MAX_LEN,
                 glosses: Sequence[str] | None = None, lemma: str | None = None) -> list[str]:
    """Short labels of the senses of one lexelt, in the same order, never two alike.

    Parameters
    ----------
    keys : sequence of str
        The sense ids of one lexelt (its nodes in inventory order).
    max_len : int
        Longest label; longer ones are elided in the middle.
    glosses : sequence of str, optional
        The senses' glosses: one starting ``lemma#N:`` (the WordNet inventory writes WordNet's
        own sense number there) gives a WordNet key that number, so the label and the gloss agree.
    lemma : str, optional
        The lexelt's lemma: a sense numbered within it (MASC's ``1``, ``3``: its sense ids are the
        WordNet sense numbers of the lemma) that has a gloss reads ``lemma#N``; one whose gloss says
        "none of these" (MASC's ``0``) reads ``none (0)``.

    Returns
    -------
    list of str
        ``brig%1:06:00::`` -> ``brig#1``; ``http://x.org/entity/Q42`` -> ``Q42``;
        short ids unchanged.
    """
    out: list[str] = []
    rank: dict[tuple[str, str], int] = {}
    # WordNet's sense numbers only where the lexelt numbers its senses flatly (MASC's 1, 3, 0), never
    # in an inventory that numbers its own hierarchy (the demo's 1, 1.1, 4: '4' is not the lemma's #4)
    if lemma and any(_DOTTED_NUMBER.match(k) for k in keys):
        lemma = None
    for j, key in enumerate(keys):
        wn = wordnet_key(key)
        given = _WN_RANK.match(glosses[j]) if glosses is not None and wn is not None else None
        gloss = glosses[j] if glosses is not None else ""
        if given is not None:
            label = f"{wn[0]}#{given['n']}"
        elif lemma and gloss and key.isdigit() and len(key) <= 3:  # a number alone says nothing
            label = f"none ({key})" if is_none_sense(gloss) else f"{lemma}#{int(key)}"
        elif wn is not None:
            rank[wn] = rank.get(wn, 0) + 1
            label = f"{wn[0]}#{rank[wn]}"
        else:
            label = uri_tail(key) or key
        out.append(elide(label, max_len, middle=True))
    used: set[str] = set()
    for i, label in enumerate(out):  # a short label names one sense only
        k, cand = 1, label
        while cand in used:
            k += 1
            suffix = f"·{k}"
            cand = elide(label, max_len - len(suffix), middle=True) + suffix
        used.add(cand)
        out[i] = cand
    return out


def without_rank(gloss: str) -> str:
    """A gloss without the leading ``lemma#N:`` the WordNet inventory puts there (the label says it)."""
    m = _WN_RANK.match(gloss)
    return gloss[m.end():].lstrip() if m is not None else gloss


def gloss_words(gloss: str, max_len: int = 28) -> str:
    """The start of a gloss as a label: a leading ``lemma#N:`` (the label says it), leading
    articles dropped, cut at a word, elided."""
    m = _WN_RANK.match(gloss)
    if m is not None:
        gloss = gloss[m.end():]
    words = gloss.replace(";", " ;").split()
    while words and words[0].lower() in _ARTICLES:
        words = words[1:]
    text = ""
    for w in words:
        if w == ";":
            break
        nxt = f"{text} {w}" if text else w
        if len(nxt) > max_len:
            return (text or elide(w, max_len - 1)) + ELLIPSIS
        text = nxt
    return text


def short_tag(inv, lexelt: int, tag: str) -> str:
    """The short label of a tag string of ``lexelt`` (the tag itself when the inventory lacks it)."""
    node = inv.lookup(lexelt, tag)
    return node_short_labels(inv)[node] if node >= 0 else tag


_NONE = re.compile(r"\bnone of (the above|these|them)\b|\bno (suitable|appropriate) sense\b", re.IGNORECASE)


def is_none_sense(gloss: str) -> bool:
    """Whether a sense's gloss says it is "none of these" (MASC's sense ``0``: "not clear / none of the
    above"): a gold made of it says no sense of the inventory fits."""
    return bool(_NONE.search(gloss or ""))


def tooltip(key: str, gloss: str) -> str:
    """Full key and gloss, for a label shown short."""
    return f"{key}\n{gloss}" if gloss else key


def node_short_labels(inv) -> list[str]:
    """Short label of every node of an :class:`~hieradjudicate.core.inventory.inventory.Inventory` (cached on it).

    Computed per lexelt (labels are unique within a lexelt); a self leaf
    reads ``label (itself)`` like :meth:`Inventory.label`.
    """
    cached = getattr(inv, "_short_labels", None)
    if cached is not None:
        return cached
    labels = [""] * len(inv.node_id)
    self_of = inv.node_self_of
    for nodes in inv.lexelt_nodes:
        own = nodes[self_of[nodes] < 0].tolist()  # a self leaf repeats its parent's key: not a sense of its own
        gl = getattr(inv, "node_gloss", None)
        lemma = lexelt_lemma(inv.lexelts[int(inv.node_lexelt[nodes[0]])]) if len(nodes) else None
        for n, s in zip(own, short_labels([inv.node_id[n] for n in own],
                                          glosses=[gl[n] or "" for n in own] if gl is not None else None,
                                          lemma=lemma)):
            labels[n] = s
    for n in np.flatnonzero(self_of >= 0).tolist():
        labels[n] = f"{labels[int(self_of[n])]} (itself)"
    inv._short_labels = labels
    return labels
