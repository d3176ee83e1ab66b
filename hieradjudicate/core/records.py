"""Plain records that readers (``io``) hand to the model (``core``).

Readers know file formats; the model knows trees and leaves.  These records
are the only contract between them, so that every format feeds the same
model and every model feature works for every format.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from hieradjudicate.core.errors import Problem

#: The roles an annotation set can play.
ROLES = ("annotator", "system", "gold")


@dataclass
class SenseRecord:
    """One sense node as a file states it.

    ``lexelt`` may be ``None`` when the format does not say (Senseval sense
    maps); the inventory then attaches the sense through the dictionary, the
    annotations or the WordNet sense key's lemma.  The same sense may be
    stated on several lines (a sense-map group head appears once per member);
    the inventory merges the statements and reports contradictions.
    """

    lexelt: str | None
    sense: str
    parent: str | None = None
    gloss: str = ""
    weight: float | None = None  # downward weight of this node under its parent
    branching: int | None = None  # branching factor of THIS node (as a parent)
    aliases: tuple[str, ...] = ()  # other strings annotations may use (WordNet keys)
    line: int | None = None
    file: str = ""


@dataclass
class InventorySource:
    """Everything read from one inventory file."""

    path: str
    format: str  # e.g. "senseval-sensemap", "senseval-dictionary", "tree-table", "outline", "json"
    senses: list[SenseRecord]
    problems: list[Problem] = field(default_factory=list)
    skipped_lines: int = 0
    lexelt_pos: dict[str, str] = field(default_factory=dict)


@dataclass
class AnnotationSource:
    """Everything read from one annotation file, in columns (one row per label).

    Items (instances) and tags are factorised by the reader: ``item`` indexes
    ``item_lexelt``/``item_instance``, ``tag`` indexes ``tags``, ``set``
    indexes ``set_names``.  ``weight`` is NaN where the file gives none.  One
    file may hold several sets (long and wide tables: one per annotator).
    A (set, item) pair appears in one block of consecutive rows only:
    duplicates were already reported and dropped by the reader (first wins).
    """

    path: str
    format: str
    set_names: list[str]
    item_lexelt: list[str]
    item_instance: list[str]
    tags: list[str]
    item: np.ndarray  # int64, per label row
    set: np.ndarray  # int64, per label row
    tag: np.ndarray  # int64, per label row
    weight: np.ndarray  # float64, per label row, NaN = no weight given
    line: np.ndarray  # int64, per label row (1-based line of the file)
    problems: list[Problem] = field(default_factory=list)
    skipped_lines: int = 0
    duplicates: int = 0
    comments: dict[int, str] = field(default_factory=dict)  # row index of first label -> "!!" comment
    contexts: list["Context"] = field(default_factory=list)  # formats that carry their text (XMI)
    # set name -> role the file itself gives it (Label Studio predictions: system), overriding the
    # role given for the file
    set_roles: dict[str, str] = field(default_factory=dict)
    # when each label's answer was made (UTC seconds) and the seconds spent on it, per label row, where
    # the file says (Label Studio, Prodigy, a table's date column): NaN where absent, None for none
    time: np.ndarray | None = None
    lead_time: np.ndarray | None = None

    @property
    def n_labels(self) -> int:
        return int(self.item.shape[0])


@dataclass
class Context:
    """The text an instance was annotated in; ``head`` = (start, end) character offsets."""

    lexelt: str
    instance: str
    text: str
    head: tuple[int, int] | None
    line: int | None = None


@dataclass
class ContextSource:
    path: str
    format: str
    contexts: list[Context]
    problems: list[Problem] = field(default_factory=list)
    skipped_lines: int = 0
