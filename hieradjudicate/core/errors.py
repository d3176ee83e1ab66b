"""Domain errors and the problem log every reader fills.

Every message a user sees names the file, the line (and column where it
helps) and what was expected.  Readers collect problems up to a cap so that
one run shows them all, count skipped lines, and raise :class:`FormatError`
only when nothing usable could be read.
"""

from __future__ import annotations

from dataclasses import dataclass, field

MAX_ERRORS = 50


@dataclass(frozen=True)
class Problem:
    """One finding about an input file."""

    file: str
    line: int | None
    message: str
    column: int | None = None
    severity: str = "error"  # "error" or "warning"

    def __str__(self) -> str:
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return f"{where}: {self.severity}: {self.message}"

    def as_dict(self) -> dict:
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "severity": self.severity,
            "message": self.message,
        }


class HieradjError(Exception):
    """Base of every error meant for a user (never shown with a traceback)."""


class FormatError(HieradjError):
    """A file could not be read; carries every problem found."""

    def __init__(self, problems: list[Problem] | Problem | str, file: str = "", line: int | None = None):
        if isinstance(problems, str):
            problems = [Problem(file, line, problems)]
        elif isinstance(problems, Problem):
            problems = [problems]
        self.problems = list(problems)
        first = str(self.problems[0]) if self.problems else "unreadable input"
        more = len(self.problems) - 1
        super().__init__(first + (f" (and {more} more problem(s))" if more > 0 else ""))


class InventoryError(FormatError):
    """The sense inventory is inconsistent (duplicates, cycles, bad parents...)."""


class NotIdentifiable(HieradjError):
    """A model cannot tell its parameters apart on these data: its figures would be one point of a
    continuum, so it is refused rather than run (Dawid & Skene or MACE with fewer than three sets
    on every instance)."""


class ProjectError(HieradjError):
    """A project file cannot be opened or written."""


@dataclass
class ProblemLog:
    """Collects problems for one file, up to ``cap`` errors, and counts skipped lines."""

    file: str
    cap: int = MAX_ERRORS
    problems: list[Problem] = field(default_factory=list)
    n_errors: int = 0
    n_warnings: int = 0
    skipped_lines: int = 0

    def error(self, line: int | None, message: str, column: int | None = None, skipped: bool = True) -> None:
        self.n_errors += 1
        if skipped:
            self.skipped_lines += 1
        if self.n_errors <= self.cap:
            self.problems.append(Problem(self.file, line, message, column, "error"))

    def warning(self, line: int | None, message: str, column: int | None = None) -> None:
        self.n_warnings += 1
        if self.n_warnings <= self.cap:
            self.problems.append(Problem(self.file, line, message, column, "warning"))

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def full(self) -> bool:
        return self.n_errors >= self.cap

    def fail(self, line: int | None, message: str, column: int | None = None, cls: type[FormatError] = FormatError) -> FormatError:
        """Record a fatal problem and return the exception to raise."""
        self.error(line, message, column)
        return cls(self.errors)

    def summary(self) -> str:
        parts = []
        if self.n_errors:
            parts.append(f"{self.n_errors} error(s)")
            if self.n_errors > self.cap:
                parts.append(f"only the first {self.cap} listed")
        if self.skipped_lines:
            parts.append(f"{self.skipped_lines} line(s) skipped")
        if self.n_warnings:
            parts.append(f"{self.n_warnings} warning(s)")
        return ", ".join(parts) if parts else "no problems"
