"""Lexelts too small for a per-lexelt chance correction to mean anything (issue #23).

Every kappa and alpha of the dashboard estimates chance agreement within each lexelt.  In a lexelt
of one instance that estimate *is* the observed agreement, so the lexelt adds nothing but zeros; the
WSD framework's ALL has 2.6 instances per lexelt, and its pooled Cohen kappa of two systems is 0.00
for that reason alone.  These helpers count such lexelts and say so in words.
"""

from __future__ import annotations

import numpy as np

#: fewer instances than this in a lexelt: its chance agreement is estimated from a handful of labels
#: and one instance moves its kappa by more than 0.1
FEW_INSTANCES = 10


def thin_counts(lexelt_of: np.ndarray, n_lexelts: int) -> tuple[int, int, int, int]:
    """``(thin lexelts, lexelts, instances in thin lexelts, instances)`` of the instances whose lexelt
    indices are ``lexelt_of`` (one entry per instance)."""
    per = np.bincount(np.asarray(lexelt_of, np.int64), minlength=n_lexelts)
    used = per > 0
    few = used & (per < FEW_INSTANCES)
    return int(few.sum()), int(used.sum()), int(per[few].sum()), int(per.sum())


def thin_sentence(few: int, lexelts: int, inst_few: int, inst: int, whose: str = "") -> str:
    """A sentence when at least half the instances lie in thin lexelts (else ""): the pooled figure
    then rests mostly on chance estimates made from a handful of labels."""
    if not few or inst_few * 2 < inst:
        return ""
    return (f"{few:,} of {lexelts:,} lexelts{whose} have fewer than {FEW_INSTANCES} instances and hold "
            f"{inst_few:,} of the {inst:,} instances: within them chance agreement is estimated from a "
            "handful of labels (in a lexelt of one instance it equals the observed agreement), so this "
            "chance-corrected figure rests on too few instances per lexelt to mean much")


def pair_thin(lexelt_of_shared: np.ndarray, n_lexelts: int) -> str:
    """The sentence for one pair, over the instances the pair shares."""
    return thin_sentence(*thin_counts(lexelt_of_shared, n_lexelts), whose=" the pair shares")


def group_thin(inst: np.ndarray, lex: np.ndarray, n_lexelts: int) -> str:
    """The sentence for a panel, over the instances that at least two sets of the long form answered."""
    u, c = np.unique(np.asarray(inst, np.int64), return_counts=True)
    return thin_sentence(*thin_counts(lex[u[c >= 2]], n_lexelts), whose=" answered by two sets or more")
