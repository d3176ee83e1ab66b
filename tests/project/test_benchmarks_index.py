"""The benchmarks folder a newcomer can find their way in: every script in its index, no import circle."""

from __future__ import annotations

import ast
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


def _sibling_imports(path: Path, names: set[str]) -> set[str]:
    """The benchmark modules ``path`` imports, at the top or inside a function."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add(node.module.split(".")[0])
    return out & names


def test_every_benchmark_script_is_in_the_index() -> None:
    index = (BENCH / "README.md").read_text(encoding="utf-8")
    missing = [p.name for p in sorted(BENCH.glob("*.py")) if f"`{p.name}`" not in index]
    assert not missing, f"benchmarks/README.md does not list {missing}"


def test_no_benchmark_imports_its_way_back_to_itself() -> None:
    names = {p.stem for p in BENCH.glob("*.py")}
    graph = {n: _sibling_imports(BENCH / f"{n}.py", names) - {n} for n in names}
    for start in sorted(names):
        seen, todo = set(), list(graph[start])
        while todo:
            n = todo.pop()
            assert n != start, f"benchmarks/{start}.py imports its way back to itself"
            if n not in seen:
                seen.add(n)
                todo.extend(graph[n])
