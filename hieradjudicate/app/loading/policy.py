"""One reading policy for every command: input is read as strictly as ``validate`` reads it.

Readers never stop at a bad line: they record a :class:`~hieradjudicate.core.errors.Problem`
(file, line, column, what was expected), skip the line and go on, so that
``validate`` can list every problem in one run.  Every other command
(``score``, ``agree``, ``compare``, ``report``, ``project new``, ``reimport``,
the wizard) must not then compute a figure from what is left without saying
so: :func:`bad_lines` collects, per file, the lines a reader dropped (lines
with errors, and duplicate answers, which ``validate`` also counts against a
file), and :func:`enforce` either refuses with validate's own message or,
when the user asked to go on (``--skip-bad-lines``), returns the sentence
that says how many lines were left out and where the first were.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from hieradjudicate.core.errors import FormatError, Problem

#: how many problems the refusal lists before "and N more"
SHOWN = 5
#: the option that lets a command go on without the bad lines
SKIP_OPTION = "--skip-bad-lines"
_DUPLICATE = "duplicate answer"


class BadLines:
    """The lines one file's reader dropped.  (A plain class: ``score`` imports it at every start,
    and a dataclass costs about a millisecond to make.)"""

    def __init__(self, path: str, count: int, problems: list[Problem] | None = None) -> None:
        self.path = path
        self.count = count  # every dropped line, also those beyond the reader's problem cap
        self.problems: list[Problem] = [] if problems is None else problems  # the first ones, in file order

    def __repr__(self) -> str:
        return f"BadLines(path={self.path!r}, count={self.count!r}, problems={self.problems!r})"


class BadInputError(FormatError):
    """Input files hold lines that were dropped; the command stops (exit 1)."""

    def __init__(self, bad: list[BadLines]) -> None:
        problems = [p for b in bad for p in b.problems]
        super().__init__(problems or [Problem(b.path, None, "lines were dropped") for b in bad])
        self.bad = bad
        self.args = (refusal_text(bad),)

    def __str__(self) -> str:
        return self.args[0]


def where(p: Problem) -> str:
    """``file:line:column`` as ``validate`` prints it."""
    text = p.file
    if p.line is not None:
        text += f":{p.line}"
        if p.column:
            text += f":{p.column}"
    return text


def _is_dropped(p: Problem) -> bool:
    return p.severity == "error" or p.message.startswith(_DUPLICATE)


def bad_lines(files: Iterable[Any], extra: Iterable[Problem] = ()) -> list[BadLines]:
    """The dropped lines of each file that has any.

    Parameters
    ----------
    files
        :class:`~hieradjudicate.app.loading.load.FileReport` objects, or reader
        sources (anything with ``path``, ``problems``, ``skipped_lines`` and
        ``duplicates``).
    extra
        Problems found after reading (the corpus's own); its errors count too.
    """
    out: list[BadLines] = []
    seen: set[int] = set()
    for f in files:
        probs = [p for p in getattr(f, "problems", []) if _is_dropped(p)]
        seen.update(id(p) for p in getattr(f, "problems", []))
        count = max(len(probs), int(getattr(f, "skipped_lines", 0) or 0)
                    + int(getattr(f, "duplicates", 0) or 0))
        if count:
            out.append(BadLines(str(f.path), count, probs))
    rest = [p for p in extra if id(p) not in seen and p.severity == "error"]
    for p in rest:
        same = next((b for b in out if b.path == p.file), None)
        if same is None:
            same = BadLines(p.file, 0)
            out.append(same)
        same.problems.append(p)
        same.count += 1
    return out


def refusal_text(bad: list[BadLines]) -> str:
    """validate's lines for the first problems, "and N more", and what the user can do."""
    total = sum(b.count for b in bad)
    files = bad[0].path if len(bad) == 1 else ", ".join(f"{b.path} ({b.count})" for b in bad)
    lines = [f"{total} line(s) with problems in {files}; stopped before using the input:"]
    shown = [p for b in bad for p in b.problems][:SHOWN]
    lines += [f"  {where(p)}: {p.message}" for p in shown]
    if total > len(shown):
        lines.append(f"  and {total - len(shown)} more")
    lines.append(f"`hieradjudicate validate` lists every problem; {SKIP_OPTION} leaves these lines "
                 "out and goes on")
    return "\n".join(lines)


def skipped_text(bad: list[BadLines]) -> str:
    """The sentence a command prints on stderr when it went on without the bad lines."""
    total = sum(b.count for b in bad)
    first = ", ".join(where(p) for b in bad for p in b.problems[:3])
    return (f"skipped {total} line(s) with problems ({SKIP_OPTION})"
            + (f", the first at {first}" if first else "")
            + "; `hieradjudicate validate` lists them all")


def enforce(bad: list[BadLines], *, skip: bool) -> str | None:
    """Refuse (raise :class:`BadInputError`) when lines were dropped, unless ``skip``.

    Returns the notice to print when lines were skipped, ``None`` when there were none.
    """
    if not bad:
        return None
    if not skip:
        raise BadInputError(bad)
    return skipped_text(bad)


def check_load(result: Any, *, skip: bool) -> str | None:
    """:func:`enforce` for a :class:`~hieradjudicate.app.loading.load.LoadResult`."""
    corpus = getattr(result, "corpus", None)
    extra = corpus.problems if corpus is not None else result.problems
    return enforce(bad_lines(result.files, extra), skip=skip)
