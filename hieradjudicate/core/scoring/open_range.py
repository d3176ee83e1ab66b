"""How far the figures can move while the gold is still being adjudicated.

The figures rest on the decided instances; every open instance will get some
gold tag set.  Under the fine rule an answer with weights ``w(t)`` (summing to
1) scores ``sum over t in gold of w(t)``, so over every outcome a system's score
on an open instance it answered lies in ``[0, a]`` (0: no tag of its answer
chosen; ``a``, its attempted weight, 1 unless a partial answer: all of them),
and its attempted weight is ``a`` whatever the outcome.

For a metric that is linear in the score sum ``S`` once the attempted weight
``W`` and the instance count ``n`` are fixed (``P = S / W``, ``R = S / n``,
``F1 = 2 S / (W + n)``), the difference ``m_A - m_B`` over all outcomes is
``d0 + sum over (instance, tag) of x_it (k_A w_A(i, t) - k_B w_B(i, t))`` with
``x_it`` = "tag ``t`` is in the gold of ``i``" free: its largest value adds
every positive term and its smallest every negative one (a tag neither system
answered keeps the gold non-empty at no cost).  The difference *could flip*
when that range holds a value of the other sign than the observed one (or 0).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

METRICS = ("precision", "recall", "f1")


@dataclass(frozen=True)
class OpenAnswers:
    """One system's answers on the open instances: ``(instance, tag, weight)`` per row, the
    weights of each instance summing to 1 (an instance at most once per tag)."""

    inst: np.ndarray
    tag: np.ndarray
    weight: np.ndarray

    @property
    def answered(self) -> int:
        return int(np.unique(self.inst).size)

    @property
    def mass(self) -> float:
        """The attempted weight of the open answers (the answered count when every answer is whole)."""
        return float(self.weight.sum())


def normalise(inst: np.ndarray, tag: np.ndarray, weight: np.ndarray, attempted: np.ndarray | None = None
              ) -> OpenAnswers:
    """Weights per instance scaled to sum 1 (then times the row's ``attempted`` share when given:
    a partial answer); an instance without weights splits evenly (NaN = no weight given, as in
    scorer2); repeated (instance, tag) rows are added."""
    inst = np.asarray(inst, np.int64)
    tag = np.asarray(tag, np.int64)
    w = np.asarray(weight, np.float64)
    if inst.size == 0:
        return OpenAnswers(inst, tag, w)
    no_weight = np.isnan(w)
    w = np.where(no_weight, 1.0, w)
    size = int(inst.max()) + 1
    total = np.bincount(inst, weights=w, minlength=size)
    w = np.where(total[inst] > 0, w / np.where(total[inst] > 0, total[inst], 1.0), 0.0)
    if attempted is not None:
        w = w * np.asarray(attempted, np.float64)
    key = inst * (int(tag.max()) + 1) + tag
    u, first, inv = np.unique(key, return_index=True, return_inverse=True)
    return OpenAnswers(inst[first], tag[first], np.bincount(inv.reshape(-1), weights=w))


def _coef(metric: str, W: float, n: int) -> float | None:
    if metric == "recall":
        return 1.0 / n if n else None
    if W <= 0:
        return None
    return 1.0 / W if metric == "precision" else 2.0 / (W + n)


def system_range(S: float, W: float, n_decided: int, open_answers: OpenAnswers, n_open: int
                 ) -> dict[str, list[float | None]]:
    """``{metric: [low, high]}`` of one system over every outcome of the open instances."""
    W_all, n_all = W + open_answers.mass, n_decided + n_open
    out = {}
    for m in METRICS:
        k = _coef(m, W_all, n_all)
        out[m] = [None, None] if k is None else [k * S, k * (S + open_answers.mass)]
    return out


def difference_range(a: tuple[float, float, OpenAnswers], b: tuple[float, float, OpenAnswers],
                     n_decided: int, n_open: int) -> dict[str, dict]:
    """``{metric: {"observed", "low", "high", "could_flip"}}`` for ``m_A - m_B``: observed = on the
    decided instances only; low/high = over every joint outcome of the open instances."""
    (Sa, Wa, oa), (Sb, Wb, ob) = a, b
    n_all = n_decided + n_open
    inst = np.concatenate([oa.inst, ob.inst])
    tag = np.concatenate([oa.tag, ob.tag])
    out = {}
    for m in METRICS:
        ka_dec, kb_dec = _coef(m, Wa, n_decided), _coef(m, Wb, n_decided)
        ka, kb = _coef(m, Wa + oa.mass, n_all), _coef(m, Wb + ob.mass, n_all)
        if None in (ka_dec, kb_dec, ka, kb):
            out[m] = {"observed": None, "low": None, "high": None, "could_flip": None}
            continue
        observed = ka_dec * Sa - kb_dec * Sb
        terms = np.concatenate([ka * oa.weight, -kb * ob.weight])
        if inst.size:
            key = inst * (int(tag.max()) + 1) + tag
            _, inv = np.unique(key, return_inverse=True)
            per = np.bincount(inv.reshape(-1), weights=terms)
        else:
            per = np.zeros(0)
        base = ka * Sa - kb * Sb
        low, high = base + per[per < 0].sum(), base + per[per > 0].sum()
        # the final difference can take another sign than the observed one (a tie included)
        flip = low <= 0 if observed > 0 else (high >= 0 if observed < 0 else bool(low < 0 or high > 0))
        out[m] = {"observed": observed, "low": float(low), "high": float(high), "could_flip": bool(flip)}
    return out


__all__ = ["OpenAnswers", "difference_range", "normalise", "system_range"]
