"""WordNet 3.0 as a sense inventory, read from its database files (Debian's ``wordnet-base``).

Only the lemmas the annotations use are read: ``index.<pos>`` gives a lemma's synsets in sense-number
order and ``data.<pos>`` each synset at its byte offset (wndb(5WN)), so a corpus of 7,000 instances
costs one pass over the four index files and a few thousand seeks.  We read the files ourselves
rather than through NLTK (a test-only dependency here, and its reader loads every lemma of a part
of speech on first use) or ``wn`` (needs a WN-LMF download, not the Debian files users have).

The tree shows granularity: lexelt (``lemma.pos``) -> lexicographer file (the supersense, node
id e.g. ``noun.artifact``) -> sense, the sense's id being its sense key (``brig%1:06:00::``; satellites
carry their head, ``absurd%5:00:00:foolish:00``) and its gloss ``lemma#N: definition; "examples"``.
``--inventory wordnet`` uses ``/usr/share/wordnet``; a folder holding ``index.noun`` and
``data.noun`` is used as given.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from hieradjudicate.core.errors import FormatError
from hieradjudicate.core.records import InventorySource, SenseRecord

DEFAULT_FOLDER = "/usr/share/wordnet"
POS_FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
SS_TYPE_NUM = {"n": 1, "v": 2, "a": 3, "s": 5, "r": 4}
#: lexicographer file names by number (lexnames(5WN))
LEXNAMES = ["adj.all", "adj.pert", "adv.all", "noun.Tops", "noun.act", "noun.animal", "noun.artifact", "noun.attribute", "noun.body", "noun.cognition", "noun.communication", "noun.event", "noun.feeling", "noun.food", "noun.group", "noun.location", "noun.motive", "noun.object", "noun.person", "noun.phenomenon", "noun.plant", "noun.possession", "noun.process", "noun.quantity", "noun.relation", "noun.shape", "noun.state", "noun.substance", "noun.time", "verb.body", "verb.change", "verb.cognition", "verb.communication", "verb.competition", "verb.consumption", "verb.contact", "verb.creation", "verb.emotion", "verb.motion", "verb.perception", "verb.possession", "verb.social", "verb.stative", "verb.weather", "adj.ppl"]


def wordnet_folder(spec: str) -> Path | None:
    """The WordNet database folder an ``--inventory`` value names, or None when it names none."""
    if spec == "wordnet":
        return Path(os.environ.get("HIERADJ_WORDNET", DEFAULT_FOLDER))
    p = Path(spec)
    if p.is_dir() and (p / "index.noun").is_file() and (p / "data.noun").is_file():
        return p
    return None


def _index(folder: Path, pos: str, lemmas: set[str]) -> dict[str, list[tuple[int, int]]]:
    """(synset offset, index line) of each needed lemma, in sense-number order."""
    out: dict[str, list[tuple[int, int]]] = {}
    path = folder / f"index.{POS_FILES[pos]}"
    try:
        fh = open(path, encoding="latin-1")
    except OSError as exc:
        raise FormatError(f"cannot read the WordNet index ({exc.strerror}); expected a complete WordNet "
                          "database folder", file=str(path)) from None
    with fh:
        for lineno, line in enumerate(fh, start=1):
            if line.startswith(" "):  # the licence header
                continue
            lemma = line[: line.find(" ")]
            if lemma not in lemmas:
                continue
            f = line.split()
            # lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset...
            try:
                n_synsets, n_ptr = int(f[2]), int(f[3])
                offsets = [int(x) for x in f[4 + n_ptr + 2: 4 + n_ptr + 2 + n_synsets]]
            except (ValueError, IndexError):
                offsets = []
                n_synsets = -1
            if len(offsets) != n_synsets or any(o < 0 for o in offsets):
                raise FormatError("a damaged WordNet index line; expected 'lemma pos synset_cnt p_cnt "
                                  "[pointers] sense_cnt tagsense_cnt' and synset_cnt offsets",
                                  file=str(path), line=lineno)
            out[lemma] = [(o, lineno) for o in offsets]
    return out


class _Data:
    """A ``data.POS`` file read by offset; every damage names the file, offset and index line."""

    def __init__(self, path: Path, index: Path) -> None:
        self.path, self.index = path, index
        try:
            self.fh = open(path, "rb")
            self.size = os.fstat(self.fh.fileno()).st_size
        except OSError as exc:
            raise FormatError(f"cannot read the WordNet data file ({exc.strerror}); expected a complete "
                              "WordNet database folder", file=str(path)) from None

    def close(self) -> None:
        self.fh.close()

    def synset(self, offset: int, index_line: int) -> tuple[int, str, list[tuple[str, int]],
                                                           list[tuple[str, int, str]], str]:
        if offset >= self.size:
            raise FormatError(f"synset offset {offset} is past the end of {self.path.name} ({self.size} "
                              "bytes); the index and data files do not belong together",
                              file=str(self.index), line=index_line)
        self.fh.seek(offset)
        line = self.fh.readline().decode("latin-1")
        try:
            result = _synset_fields(line)
            if line.split(" ", 1)[0] != f"{offset:08d}" or result[1] not in SS_TYPE_NUM:
                raise ValueError
        except (ValueError, IndexError):
            raise FormatError(f"no intact synset at byte offset {offset} (named on line {index_line} of "
                              f"{self.index.name}); expected 'offset lex_filenum ss_type w_cnt words "
                              "p_cnt pointers | gloss'", file=str(self.path)) from None
        return result


def _synset_fields(line: str) -> tuple[int, str, list[tuple[str, int]], list[tuple[str, int, str]], str]:
    """(lex_filenum, ss_type, [(word, lex_id)], [(pointer, offset, pos)], gloss) of a data line."""
    head, _, gloss = line.partition(" | ")
    f = head.split()
    lexfile, ss_type, w_cnt = int(f[1]), f[2], int(f[3], 16)
    words = [(f[4 + 2 * k].split("(")[0], int(f[5 + 2 * k], 16)) for k in range(w_cnt)]
    at = 4 + 2 * w_cnt
    p_cnt = int(f[at])
    ptrs = [(f[at + 1 + 4 * k], int(f[at + 2 + 4 * k]), f[at + 3 + 4 * k]) for k in range(p_cnt)]
    if lexfile < 0 or not words:
        raise ValueError
    return lexfile, ss_type, words, ptrs, gloss.strip()


def read_wordnet(spec: str, lexelts: Iterable[str]) -> InventorySource:
    """The senses of ``lexelts`` (``lemma.pos``, pos one of n v a r) as an inventory."""
    folder = wordnet_folder(spec)
    if folder is None or not (folder / "index.noun").is_file():
        raise FormatError(f"no WordNet database here (expected index.noun and data.noun in {folder or spec}); "
                          "on Debian: apt install wordnet-base", file=str(spec))
    lexelts = list(lexelts)
    wanted: dict[str, set[str]] = {p: set() for p in POS_FILES}
    for lexelt in lexelts:
        lemma, _, pos = lexelt.rpartition(".")
        if pos in wanted and lemma:
            wanted[pos].add(lemma.lower().replace(" ", "_"))
    senses: list[SenseRecord] = []
    for pos, lemmas in wanted.items():
        if not lemmas:
            continue
        index = _index(folder, pos, lemmas)
        data = _Data(folder / f"data.{POS_FILES[pos]}", folder / f"index.{POS_FILES[pos]}")
        try:
            for lemma in sorted(index):
                lexelt = f"{lemma}.{pos}"
                groups: set[str] = set()
                for rank, (offset, index_line) in enumerate(index[lemma], start=1):
                    lexfile, ss_type, words, ptrs, gloss = data.synset(offset, index_line)
                    lex_id = next((i for w, i in words if w.lower() == lemma), 0)
                    head = ""
                    if ss_type == "s":  # a satellite's key names its head adjective
                        target = next((o for p, o, _ in ptrs if p == "&"), None)
                        if target is not None:
                            _, _, hwords, _, _ = data.synset(target, index_line)
                            head = f"{hwords[0][0].lower()}:{hwords[0][1]:02d}"
                    key = f"{lemma}%{SS_TYPE_NUM[ss_type]}:{lexfile:02d}:{lex_id:02d}:{head or ':'}"
                    # the supersense (an id within the lexelt: nodes of different lexelts never meet)
                    group = LEXNAMES[lexfile] if lexfile < len(LEXNAMES) else f"lexfile.{lexfile:02d}"
                    if group not in groups:
                        groups.add(group)
                        senses.append(SenseRecord(lexelt, group, None, "supersense (WordNet lexicographer file)"))
                    senses.append(SenseRecord(lexelt, key, group, f"{lemma.replace('_', ' ')}#{rank}: {gloss}"))
        finally:
            data.close()
    if not senses:  # a project built on it could not be opened again ("no senses found")
        asked = sorted(str(x) for x in set(lexelts))
        shown = ", ".join(asked[:5]) + (f" and {len(asked) - 5} more" if len(asked) > 5 else "")
        raise FormatError(f"WordNet has none of the {len(asked)} lexelt(s) the annotations use"
                          + (f" ({shown})" if asked else "")
                          + "; WordNet lexelts are lemma.pos with pos n, v, a or r (bank.n). Leave the "
                          "inventory out (every tag becomes a sense of its own) or choose another one",
                          file=str(folder))
    return InventorySource(str(folder), "wordnet", senses)


def as_tree_table(src: InventorySource) -> bytes:
    """The inventory as the program's own tree table (``lexelt, sense, parent, gloss``): what a
    project keeps of it, so that the project opens without the WordNet files."""
    rows = ["lexelt\tsense\tparent\tgloss"]
    for s in src.senses:
        gloss = " ".join(s.gloss.split())
        rows.append(f"{s.lexelt}\t{s.sense}\t{s.parent or ''}\t{gloss}")
    return ("\n".join(rows) + "\n").encode("utf-8")
