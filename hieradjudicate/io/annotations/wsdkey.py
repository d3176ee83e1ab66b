"""Key files of the unified WSD evaluation framework (Raganato, Camacho-Collados & Navigli 2017).

``instance_id key [key ...]`` with WordNet 3.0 sense keys (``document%1:10:00::``): in a gold
key several keys mean any of them is correct; in a system's answer they split its vote evenly.
The file names no lexelt: it comes from the first key's lemma and part of speech
(``lemma%1`` noun, ``%2`` verb, ``%3``/``%5`` adjective, ``%4`` adverb), so ``document.n``,
the lexelt a WordNet inventory and the framework's XML (lemma + POS) give the instance too.
"""

from __future__ import annotations

import re

from hieradjudicate.core.errors import ProblemLog
from hieradjudicate.io.annotations.build import Parsed

#: a WordNet sense key: lemma%ss_type:lex_filenum:lex_id:head_word:head_id
SENSE_KEY = re.compile(r"^[^\s%]+%[1-5]:\d\d:\d\d:[^\s:]*:(\d\d)?$")
POS_OF_TYPE = {"1": "n", "2": "v", "3": "a", "4": "r", "5": "a"}
EXPECTED = "'instance_id sense_key [sense_key ...]' (WordNet sense keys such as document%1:10:00::)"


def looks_like_wsd_key(line: str) -> bool:
    """A first line ``id key ...`` whose second field is a WordNet sense key."""
    fields = line.split()
    return len(fields) >= 2 and bool(SENSE_KEY.match(fields[1])) and "%" not in fields[0]


def lexelt_of(key: str) -> str:
    """``document%1:10:00::`` -> ``document.n`` (the framework's lemma + POS)."""
    lemma, rest = key.split("%", 1)
    return f"{lemma.lower()}.{POS_OF_TYPE[rest[0]]}"


def parse_wsd_key(text: str, set_name: str, log: ProblemLog) -> Parsed:
    """Parse a framework key; a bad line is named (line, column, what was expected) and skipped."""
    lexelts: list[str] = []
    instances: list[str] = []
    unit_line: list[int] = []
    label_unit: list[int] = []
    label_tag: list[int] = []
    tags: dict[str, int] = {}
    for lineno, line in enumerate(text.split("\n"), start=1):
        fields = line.split()
        if not fields:
            continue
        if len(fields) < 2:
            log.error(lineno, f"no sense key after the instance id; expected {EXPECTED}",
                      column=len(line.rstrip()) + 1)
            continue
        bad = next((f for f in fields[1:] if not SENSE_KEY.match(f)), None)
        if bad is not None:
            log.error(lineno, f"{bad!r} is not a WordNet sense key; expected {EXPECTED}",
                      column=line.find(bad, len(fields[0])) + 1)
            continue
        unit = len(unit_line)
        lexelts.append(lexelt_of(fields[1]))
        instances.append(fields[0])
        unit_line.append(lineno)
        for key in dict.fromkeys(fields[1:]):  # a key repeated on a line counts once
            label_unit.append(unit)
            label_tag.append(tags.setdefault(key, len(tags)))
    return Parsed.from_rows(lexelts, instances, [0] * len(unit_line), unit_line, label_unit, label_tag,
                            [float("nan")] * len(label_tag), [set_name], list(tags))
