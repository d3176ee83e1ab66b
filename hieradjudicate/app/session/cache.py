"""The compiled corpus as plain arrays, so that reopening a project skips re-reading files.

What is cached: the instances, every annotation set's CSR arrays (rows, tags,
weights, attempts, source lines) and the contexts.  What is not: the
inventory, which is small and rebuilt from the stored inventory copies on
every open, and the leaf vectors and tag-set signatures, which each set
computes from the cached arrays on first use.  The cache is used only when
it was written by this program version from exactly the stored files, and
the rebuilt inventory has exactly the cached node ids; otherwise the caller
re-reads the stored copies (slower, always correct).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from hieradjudicate import __version__
from hieradjudicate.app.progress import Steps
from hieradjudicate.core.arrays import narrow
from hieradjudicate.core.errors import HieradjError, Problem
from hieradjudicate.core.model import (
    AnnotationSet,
    Corpus,
    CorpusBuilder,
)
from hieradjudicate.core.records import Context
from hieradjudicate.io.store.inputs import files_key
from hieradjudicate.io.store.project_store import FileRecord

CACHE_NAME = "corpus"
CACHE_VERSION = 1
#: what a cache must carry to be read by this program (beside the stored copies it was made from)
CACHE_STAMP = {"cache_version": CACHE_VERSION, "app_version": __version__}


def corpus_to_cache(corpus: Corpus, files: Sequence[FileRecord]) -> tuple[dict[str, np.ndarray],
                                                                          dict[str, Any]]:
    """``(arrays, meta)`` describing ``corpus``, keyed to the stored ``files``."""
    inv = corpus.inventory
    sets = corpus.sets
    a: dict[str, np.ndarray] = {
        "node_id": np.array(inv.node_id, dtype=str),
        "node_lexelt": inv.node_lexelt,
        "node_parent": inv.node_parent,
        "node_outside": inv.node_outside,
        "inst_lexelt": corpus.inst_lexelt,
        "inst_id": np.array(corpus.inst_id, dtype=str),
        "set_row_ptr": np.cumsum([0] + [s.n for s in sets]).astype(np.int64),
        "set_label_ptr": np.cumsum([0] + [int(s.tag_node.size) for s in sets]).astype(np.int64),
    }

    def cat(parts: list[np.ndarray], dtype: Any) -> np.ndarray:
        return np.concatenate(parts).astype(dtype) if parts else np.zeros(0, dtype)

    a["rows"] = cat([s.rows for s in sets], np.int64)
    a["attempted"] = cat([s.attempted for s in sets], np.float64)
    a["tag_ptr"] = cat([s.tag_ptr[1:] for s in sets], np.int64)  # per set, without the 0
    a["tag_node"] = cat([s.tag_node for s in sets], np.int64)
    a["tag_weight"] = cat([s.tag_weight for s in sets], np.float64)
    a["tag_line"] = cat([s.tag_line if s.tag_line is not None else np.full(s.tag_node.size, -1)
                         for s in sets], np.int64)
    keys = sorted(corpus.contexts)
    texts = [corpus.contexts[k].text.encode("utf-8") for k in keys]
    a["ctx_inst"] = np.asarray(keys, dtype=np.int64)
    a["ctx_ptr"] = np.cumsum([0] + [len(t) for t in texts]).astype(np.int64)
    a["ctx_text"] = np.frombuffer(b"".join(texts), dtype=np.uint8)
    a["ctx_head"] = np.asarray([corpus.contexts[k].head or (-1, -1) for k in keys],
                               dtype=np.int64).reshape(-1, 2)
    a["ctx_line"] = np.asarray([-1 if corpus.contexts[k].line is None else corpus.contexts[k].line
                                for k in keys], dtype=np.int64)
    meta = {
        **CACHE_STAMP,
        "files": files_key(files),
        "lexelts": list(inv.lexelts),
        "sets": [{"name": s.name, "role": s.role, "source": s.source,
                  "has_lines": s.tag_line is not None} for s in sets],
        "problems": [p.as_dict() for p in corpus.problems],
    }
    return a, meta


def corpus_from_cache(arrays: dict[str, np.ndarray], meta: dict[str, Any], *,
                      inventories: Sequence[Any], steps: Steps | None = None) -> Corpus | None:
    """Rebuild the corpus from a cache that fits the stored copies and :data:`CACHE_STAMP` (as
    :func:`~hieradjudicate.io.store.inputs.read_stored_inputs` gives it) and the re-read inventory
    sources, or ``None`` when the inventory differs from the cached one.  ``steps`` hears
    "Laying out N answers" (set by set) and "Reading N contexts"."""
    steps = steps if steps is not None else Steps(None, 0)
    node_id = arrays["node_id"].tolist()
    node_lexelt = arrays["node_lexelt"]
    lexelts: list[str] = meta["lexelts"]
    used: dict[str, set[str]] = {name: set() for name in lexelts}
    for x, tag in zip(node_lexelt.tolist(), node_id, strict=True):
        used[lexelts[x]].add(tag)
    builder = CorpusBuilder()
    for src in inventories:
        builder.add_inventory(src)
    try:
        inv = builder.inventory.build(used)
    except HieradjError:
        return None
    if (inv.lexelts != lexelts or inv.node_id != node_id
            or not np.array_equal(inv.node_parent, arrays["node_parent"])
            or not np.array_equal(inv.node_outside, arrays["node_outside"])):
        return None
    arrays = dict(arrays)
    for name in ("attempted", "tag_weight"):  # a crowd's: every label whole, every weight 1
        col = arrays[name]
        if col.size and bool((col == 1.0).all()):
            # one value for every row, read-only (nothing writes a set's weights): 8 bytes, not
            # 8 bytes a label (MASC: 2 x 8.3 MiB held while the project is open)
            arrays[name] = np.broadcast_to(np.float64(1.0), col.shape)
    # a file's line numbers (-1: none) and the tags' node ids in 32 bits where they fit (a stored copy
    # is under 2**31 bytes): nothing but a cache write reads the lines, and readers of the nodes index
    # with them, count them, or hash or add them widened to 64 bits; a cache write writes both as
    # 64-bit again (MASC: 2 x 4.1 MiB less held)
    arrays["tag_line"] = narrow(arrays["tag_line"])
    arrays["tag_node"] = narrow(arrays["tag_node"])
    sets = []
    row_ptr, label_ptr = arrays["set_row_ptr"], arrays["set_label_ptr"]
    sizes = np.diff(row_ptr)
    # every row one tag (a crowd's labels): each set's tag_ptr is 0, 1, ..., n -- one read-only count
    # shared by every such set instead of a copy each (MASC: 1.08 M entries, 8.3 MiB)
    counting = np.arange(int(sizes.max(initial=0)) + 1, dtype=np.int64)
    counting.setflags(write=False)
    within = steps.step(f"Laying out {int(label_ptr[-1]):,} answers of {len(meta['sets']):,} sets", 2)
    for k, info in enumerate(meta["sets"]):
        if k % 8 == 0:
            within(k, len(meta["sets"]))
        r0, r1 = int(row_ptr[k]), int(row_ptr[k + 1])
        l0, l1 = int(label_ptr[k]), int(label_ptr[k + 1])
        ends = arrays["tag_ptr"][r0:r1]
        if l1 - l0 == r1 - r0 and np.array_equal(ends, counting[1:r1 - r0 + 1]):
            ptr = counting[:r1 - r0 + 1]
        else:
            ptr = np.concatenate([[0], ends]).astype(np.int64)
        node = arrays["tag_node"][l0:l1]
        weight = arrays["tag_weight"][l0:l1]
        # the leaf vectors and signatures on first use, as for a set the builder made: a crowd's
        # are 141 MB, and a crowd's figures read them from the sorted layout instead (#23)
        sets.append(AnnotationSet(info["name"], info["role"], arrays["rows"][r0:r1], ptr, node, weight,
                                  arrays["attempted"][r0:r1], source=info["source"],
                                  tag_line=arrays["tag_line"][l0:l1] if info["has_lines"] else None,
                                  _inventory=inv))
    problems = [Problem(**p) for p in meta["problems"]]
    corpus = Corpus(inv, arrays["inst_lexelt"], arrays["inst_id"].tolist(), sets, problems)
    steps.step(f"Reading {arrays['ctx_inst'].size:,} contexts")
    text = arrays["ctx_text"].tobytes()
    cptr, heads, lines = arrays["ctx_ptr"], arrays["ctx_head"], arrays["ctx_line"]
    for j, i in enumerate(arrays["ctx_inst"].tolist()):
        lexelt, instance = corpus.instance_key(i)
        head = (int(heads[j, 0]), int(heads[j, 1])) if heads[j, 0] >= 0 else None
        line = int(lines[j]) if lines[j] >= 0 else None
        corpus.contexts[i] = Context(lexelt, instance,
                                     text[int(cptr[j]):int(cptr[j + 1])].decode("utf-8"),
                                     head, line)
    return corpus
