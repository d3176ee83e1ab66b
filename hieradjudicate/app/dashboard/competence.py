"""Annotator competence and instance difficulty for the dashboard, the queue and the report (no Qt).

:func:`estimate` runs a competence model of :mod:`hieradjudicate.core`
(Dawid & Skene by default, or MACE) over the annotator
sets, and returns what the views need, aligned with the corpus:

* per set: its competence with the standard error and its number of labels;
* per instance: the posterior entropy in bits (difficulty; NaN where no
  annotator set answered) and the most probable leaf with its posterior, the
  *competence-weighted suggestion* shown beside the majority one;
* the entropy histogram, whose bars list their instances (drill-down).

It takes a while on a crowd (MASC, Dawid & Skene: about 30 s to convergence on a quiet machine), so the GUI runs it off the
GUI thread, once per open project: the annotations never change meanwhile.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from hieradjudicate.app.dashboard.records import Explain
from hieradjudicate.app.memory import release_free_memory
from hieradjudicate.app.session.batch import annotator_sets
from hieradjudicate.core.inventory.labels import node_short_labels
from hieradjudicate.core.model import Corpus

MODELS = {"ds": "Dawid & Skene", "mace": "MACE"}
METHODS = {
    "ds": ("Dawid & Skene (1979) EM over the leaves of each lexelt: each annotator has a confusion matrix "
           "per lexelt, each lexelt a prior over its leaves; a leaf of another lexelt is impossible and a "
           "label spread over several leaves (a tag on an inner sense, weighted tags) splits its vote; a "
           "leaf that no label of its lexelt uses keeps prior 0, so it is never an instance's answer. "
           "Started from the majority vote, {accel}, each lexelt on its own (they share no parameter); "
           "converged when its confusion probabilities, priors and posteriors are estimated within {tol:g} "
           "of the fixed point (a plain EM step's largest move over one minus its rate of convergence), "
           "confirmed by a restart from slightly noised posteriors that must come back there (EM slows "
           "down near a saddle too; where the restart leaves for a higher likelihood, the fit goes on from "
           "there and is confirmed again); at least {min_iter}, at most {max_iter} EM steps per lexelt, "
           "restarts included, otherwise reported as not converged, naming the lexelts (lexelts with few labels run "
           "together, one step length and one stop, while they converge within {pack} steps; else each alone). Needs instances labelled by three or more sets (with at most two per "
           "instance the confusion matrices are not identifiable, Kruskal 1977: refused). "
           "Competence = expected share of a set's labels that are right, +/- sqrt(a(1-a)/n) "
           "over its n labels. Difficulty = entropy of the instance's posterior over its leaves, in bits."),
    "mace": ("MACE (Hovy et al. 2013) over the leaves of each lexelt: each annotator knows the sense with "
             "probability theta (its competence) and otherwise answers by its own spamming strategy in the "
             "lexelt; the sense is uniform over the lexelt's leaves; a label spread over several leaves splits "
             "its vote. Variational Bayes with Beta(0.5, 0.5) and Dirichlet(10) priors (as crowd-kit), from a "
             "seeded start, converged when theta, the strategies and the posteriors are estimated within "
             "{tol:g} of the fixed point (an iteration's largest move over one minus its rate of "
             "convergence; at least {min_iter}, at most {max_iter} iterations, otherwise reported as not "
             "converged). "
             "Competence = theta, the probability that the set knows the answer (not an accuracy: a set that "
             "guesses is still right by chance), +/- the standard deviation of its variational posterior. "
             "Needs instances labelled by three or more sets (with two, only the product of their thetas is "
             "determined: refused). "
             "Difficulty = entropy of the instance's posterior over its leaves, in bits."),
}


ACCEL = {True: "accelerated by SQUAREM (Varadhan & Roland 2008; an extrapolation is kept only where the "
              "log-likelihood does not fall)", False: "plain EM (not accelerated)"}


def method_text(model: str, max_iter: int | None = None, tol: float | None = None, accelerate: bool = True) -> str:
    """The method text of ``model`` with the stopping rule actually used (defaults where ``None``)."""
    from hieradjudicate.core.crowd import competence, ds_parts, mace

    default = competence.MAX_ITER if model == "ds" else mace.MAX_ITER
    return METHODS[model].format(accel=ACCEL[accelerate], tol=competence.TOL if tol is None else tol, min_iter=competence.MIN_ITER,
                                 max_iter=default if max_iter is None else max_iter, pack=ds_parts.PACK_STEPS)


def convergence_text(iterations: int, converged: bool, unconverged: Sequence[str] = (), lexelts: int = 0) -> str:
    """How a run ended, in words shown beside its figures; ``unconverged``: the lexelts (names) whose fit did
    not converge, of ``lexelts`` fitted (Dawid & Skene fits each on its own)."""
    if converged:
        return f"converged after {iterations} iteration(s)"
    if unconverged:
        return (f"NOT converged after {iterations} iterations on {unconverged_lexelts(unconverged, lexelts)} "
                "(their figures may still move)")
    return f"NOT converged after {iterations} iterations (the figures may still move)"


def unconverged_lexelts(names: Sequence[str], lexelts: int, shown: int = 5) -> str:
    """``3 of 26 lexelts (bright.a, call.v, soft.a)``: the first ``shown`` named."""
    listed = ", ".join(names[:shown]) + (f" and {len(names) - shown} more" if len(names) > shown else "")
    return f"{len(names)} of {max(lexelts, len(names))} lexelt{'s' if max(lexelts, len(names)) != 1 else ''} ({listed})"


#: said after an estimate's time when it was read from the estimates kept on disk
KEPT = " (when first made; kept since, the same labels)"

#: what each model's "competence" is, wherever it is shown (they are not the same quantity)
MEASURES = {"ds": "competence (expected share right)", "mace": "competence (P(knows the answer))"}
BINS = 20


@dataclass
class CompetenceFigures:
    """What :func:`estimate` returns (arrays per set in ``set_indices`` order, per instance of the corpus)."""

    model: str
    method: str
    measure: str  # what the competence figure is (MEASURES)
    labels: list[str]  # the inventory's label of every node (best_node's names)
    set_indices: list[int]
    names: list[str]
    competence: np.ndarray  # per set
    stderr: np.ndarray  # per set
    n_labels: np.ndarray  # per set
    entropy: np.ndarray  # (n,) bits, NaN where no annotator set answered
    best_node: np.ndarray  # (n,) inventory node of the most probable leaf, -1 where none
    best_posterior: np.ndarray  # (n,)
    hist_counts: np.ndarray
    hist_edges: np.ndarray
    iterations: int
    converged: bool
    seconds: float
    explain: Explain
    #: (n, K) float32 posterior over the local leaves of each instance's lexelt (NaN rows: no answer)
    posterior: np.ndarray | None = field(default=None, repr=False)
    _bins: np.ndarray | None = field(default=None, repr=False)
    #: every node's short label (``make#3``, MASC's ``add#4``): what the report writes beside the id
    short: list[str] | None = field(default=None, repr=False)
    #: Dawid & Skene: the lexelts (names) whose fit did not converge, of ``fitted`` lexelts with labels
    unconverged: list[str] = field(default_factory=list)
    fitted: int = 0
    #: read from the estimates kept on disk (``seconds``: how long it took when it was made)
    kept: bool = False

    def bin_instances(self, j: int) -> np.ndarray:
        """Instances whose difficulty falls in histogram bar ``j`` (the drill-down of a click)."""
        if self._bins is None:
            ok = np.isfinite(self.entropy)
            b = np.full(self.entropy.size, -1, np.int64)
            b[ok] = np.clip(np.searchsorted(self.hist_edges, self.entropy[ok], side="right") - 1, 0, BINS - 1)
            self._bins = b
        return np.flatnonzero(self._bins == j)

    def best_label(self, i: int) -> str:
        """The most probable sense of instance ``i`` (its inventory id), ``""`` where none."""
        k = int(self.best_node[i])
        return self.labels[k] if k >= 0 else ""

    def most_uncertain(self) -> np.ndarray:
        """Every instance with a posterior, most uncertain first (ties: corpus order)."""
        ok = np.flatnonzero(np.isfinite(self.entropy))
        return ok[np.argsort(-self.entropy[ok], kind="stable")]

    def summary(self) -> dict[str, float]:
        e = self.entropy[np.isfinite(self.entropy)]
        c = self.competence
        if not e.size:
            return {}
        return {"mean_entropy_bits": float(e.mean()), "median_entropy_bits": float(np.median(e)),
                "competence_min": float(c.min()), "competence_median": float(np.median(c)),
                "competence_max": float(c.max())}


def estimate(corpus: Corpus, sets: list[int] | None = None, *, model: str = "ds", max_iter: int | None = None,
             tol: float | None = None, progress: Callable[[int, int], object] | None = None,
             nice: int = 0, keep: bool = False) -> CompetenceFigures:
    """Competence of ``sets`` (default: the annotator sets) and difficulty of every instance.

    ``max_iter`` and ``tol``: the model's stopping rule (its defaults when ``None``).  ``progress(k, n)``:
    called after each EM iteration of Dawid & Skene or iteration of MACE (``k`` of at most ``n``); it may
    raise to stop.  ``nice``: Dawid & Skene's worker processes run with their CPU priority lowered by that
    much (the window's background estimate: the interface comes first).  ``keep``: an estimate of the same
    labels kept on disk is read instead of made, and one made is kept (the window's:
    :mod:`hieradjudicate.app.dashboard.competence_cache`).

    Raises ``ValueError`` with fewer than two sets (nothing to weigh against), and
    :class:`~hieradjudicate.core.errors.NotIdentifiable` (its message says why) where no instance has
    labels from three or more sets.
    """
    if model not in MODELS:
        raise ValueError(f"competence model {model!r}; expected one of {', '.join(MODELS)}")
    sets = sorted(annotator_sets(corpus) if sets is None else sets)
    if len(sets) < 2:
        raise ValueError(f"competence needs three or more annotator sets labelling an instance (Kruskal 1977), "
                         f"and there are {len(sets)}")
    lay = corpus.layout(sets)  # the rows as every other figure reads them (rater = position in sets)
    t0 = time.perf_counter()
    if model == "ds":
        from hieradjudicate.core.crowd.competence import dawid_skene as fit
    else:
        from hieradjudicate.core.crowd.mace import mace as fit  # type: ignore[no-redef]
    stop: dict = {k: v for k, v in (("max_iter", max_iter), ("tol", tol)) if v is not None}
    stop["names"] = [corpus.sets[s].name for s in sets]  # for a refusal: no instance with three sets
    if progress is not None:  # each model's iterations (it may raise to stop the estimate)
        stop["progress"] = progress
    if model == "ds":  # no view reads the confusion matrices (MASC: 22.6 MiB, held to the estimate's end)
        stop["errors"] = False
        # a crowd's lexelts in worker processes (chosen by the labels and the CPUs): the window's own
        # thread is not held by the EM's sums meanwhile, and MASC takes about half the time on two CPUs
        stop["processes"], stop["nice"] = None, nice
    leaf = lay.onehot_leaf
    kept, name = None, None
    if keep:
        from hieradjudicate.app.dashboard import competence_cache as cache

        name = cache.key(model, max_iter, tol, [lay.inst, lay.rater, leaf, None if leaf is not None else lay.P,
                                                np.asarray(corpus.inst_lexelt), np.asarray(corpus.inventory.n_leaves),
                                                np.array([lay.n_leaves if leaf is not None else -1])])
        kept = cache.load(name)
    if kept is not None:
        res, seconds = kept
    else:
        if leaf is not None:  # a crowd's one-leaf labels: never the dense P (#23: 141 MiB and its scan)
            res = fit(lay.inst, lay.rater, None, corpus.inst_lexelt, corpus.inventory.n_leaves, leaf=leaf,
                      K=lay.n_leaves, **stop)
        else:
            res = fit(lay.inst, lay.rater, lay.P, corpus.inst_lexelt, corpus.inventory.n_leaves, **stop)
        seconds = time.perf_counter() - t0
        if name is not None:
            cache.store(name, res, seconds)
    release_free_memory()  # the estimate's freed temporaries leave the process (#23: MASC's next peak)
    n = corpus.n
    comp = np.full(len(sets), np.nan)
    se = np.full(len(sets), np.nan)
    nl = np.zeros(len(sets), np.int64)
    comp[res.workers] = res.accuracy
    se[res.workers] = res.stderr
    nl[res.workers] = res.n_labels
    entropy = np.full(n, np.nan)
    entropy[res.tasks] = res.entropy
    k = res.posterior.argmax(axis=1)
    best_post = np.full(n, np.nan)
    best_post[res.tasks] = res.posterior[np.arange(len(res.tasks)), k]
    inv = corpus.inventory
    # local leaf k of the task's lexelt -> inventory node (one gather through a padded table)
    table = np.full((len(inv.lexelts), max(inv.K, 1)), -1, np.int64)
    for x, leaves in enumerate(inv.lexelt_leaf_nodes):
        table[x, :leaves.size] = leaves
    best = np.full(n, -1, np.int64)
    best[res.tasks] = table[corpus.inst_lexelt[res.tasks], k]
    e = res.entropy
    # bars up to the largest entropy seen (rounded up to a tenth of a bit), not the theoretical log2(K)
    top = max(float(np.ceil(e.max(initial=0.0) * 10) / 10), 0.1)
    counts, edges = np.histogram(e, bins=BINS, range=(0.0, top))
    names = [corpus.sets[s].name for s in sets]
    unconverged = [inv.lexelts[int(x)] for x in res.unconverged]
    fitted = int(np.unique(corpus.inst_lexelt[res.tasks]).size)
    ex = Explain(f"Annotator competence ({MODELS[model]}) and instance difficulty",
                 f"Left: each annotator set's estimated {MEASURES[model]} with its spread, sorted; the "
                 "model weighs every annotator by how often it agrees with the consensus it helps to "
                 "estimate. Right: how many instances have each posterior entropy (0 = the model is "
                 "sure of the sense); click a bar for its instances.", method_text(model, max_iter, tol),
                 n=int(len(res.tasks)), aggregation="every instance of the project (annotations never change)",
                 note=f"{convergence_text(res.iterations, bool(res.converged), unconverged, fitted)}, {seconds:.2f} s"
                      + (KEPT if kept is not None else ""))
    post = np.full((n, res.posterior.shape[1]), np.nan, np.float32)
    post[res.tasks] = res.posterior
    return CompetenceFigures(MODELS[model], method_text(model, max_iter, tol), MEASURES[model], list(inv.node_id),
                             sets, names, comp, se, nl, entropy, best, best_post,
                             counts, edges, int(res.iterations), bool(res.converged), seconds, ex, post,
                             short=node_short_labels(inv), unconverged=unconverged, fitted=fitted,
                             kept=kept is not None)
