"""A synthetic crowd project like MASC's shape: many worker sets, each labelling a subset."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from hieradjudicate.app.loading.specs import AnnotationSpec
from hieradjudicate.app.session.session import Session


def crowd_project(path: Path, n_sets: int, *, n_words: int = 6, per_word: int = 40, per_item: int = 12,
                  seed: int = 0) -> Path:
    """Write a MASC-like wide table (``word_pos form_id sentence_id worker:sense,...``) and a project.

    Each item is labelled by ``per_item`` workers drawn from ``n_sets``; every
    worker is made to label at least one item so the project has ``n_sets`` sets.
    """
    rng = np.random.default_rng(seed)
    rows = ["word_pos\tform_id\tsentence_id\tlabels"]
    n_items = n_words * per_word
    workers = [rng.choice(n_sets, size=min(per_item, n_sets), replace=False) for _ in range(n_items)]
    for w in range(n_sets):  # every set appears somewhere
        workers[w % n_items][w % len(workers[w % n_items])] = w
    for j in range(n_items):
        word = f"word{j // per_word}-n"
        truth = int(rng.integers(1, 5))
        ws = np.unique(workers[j])
        labels = [f"{w + 1}:{truth if rng.random() < 0.7 else int(rng.integers(1, 6))}" for w in ws]
        rows.append(f"{word}\t1\t{j % per_word + 1}\t{','.join(labels)}")
    table = path.with_suffix(".tsv")
    table.write_text("\n".join(rows) + "\n", encoding="utf-8")
    Session.create(path, [], [AnnotationSpec(str(table))], overwrite=True).close()
    return path


def labelled_crowd(seed: int, n: int, workers: int, X: int, K: int, *, least_skill: float = 0.3,
                   share: float = 0.3, lexelts_in_order: bool = False):
    """``(inst, rater, label, lex, n_leaves, truth)``: workers of skill ``least_skill`` to 0.95 each
    labelling about ``share`` of ``n`` instances of ``X`` lexelts (2 to ``K`` leaves each); a worker
    right with its skill's probability, else a leaf of the lexelt at random.  ``lexelts_in_order``:
    the instances numbered lexelt by lexelt, as a layout numbers them (the draws are the same)."""
    rng = np.random.default_rng(seed)
    lex = rng.integers(0, X, n)
    if lexelts_in_order:
        lex = np.sort(lex)
    n_leaves = rng.integers(2, K + 1, X)
    truth = (rng.random(n) * n_leaves[lex]).astype(int)
    skill = np.linspace(least_skill, 0.95, workers)
    inst, rater = np.nonzero(rng.random((n, workers)) < share)
    good = rng.random(len(inst)) < skill[rater]
    label = np.where(good, truth[inst], (rng.random(len(inst)) * n_leaves[lex[inst]]).astype(int))
    return inst, rater, label, lex, n_leaves, truth
