"""The import graph runs one way: no module imports, directly or through others, a module that
imports it back — whether the import sits at the top of a file or inside a function.

Function-level imports are counted on purpose: they defer a cost, they do not remove the
dependency, and a circle through them is the same knot for a reader as one at module level.
"""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parents[2] / "hieradjudicate"


def _module_name(path: Path) -> str:
    rel = path.relative_to(PKG.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def import_graph() -> dict[str, set[str]]:
    """Edges module -> hieradjudicate modules it imports anywhere in its text."""
    files = {_module_name(p): p for p in PKG.rglob("*.py")}
    graph: dict[str, set[str]] = {name: set() for name in files}
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                # "from pkg import mod" imports the module pkg.mod when there is one
                targets = [f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in files else node.module
                           for a in node.names]
            for t in targets:
                if t in files and t != name:
                    graph[name].add(t)
    return graph


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return out


def test_finder_sees_a_cycle():
    # the test would be worthless if the finder could not see one
    assert find_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert find_cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles():
    graph = import_graph()
    assert len(graph) > 50  # the walk found the package
    assert find_cycles(graph) == []


LAYERS = {"core": 0, "io": 1, "app": 2, "gui": 3, "cli": 3}


def test_layers_point_downward():
    """core ← io ← app ← gui/cli: no import reaches up a layer (cli may open gui lazily)."""
    bad = []
    for mod, deps in import_graph().items():
        parts = mod.split(".")
        if len(parts) < 2 or parts[1] not in LAYERS:
            continue
        for d in deps:
            dp = d.split(".")
            if len(dp) < 2 or dp[1] not in LAYERS:
                continue
            if parts[1] == "cli" and dp[1] == "gui":
                continue
            if LAYERS[dp[1]] > LAYERS[parts[1]] or (parts[1] == "gui" and dp[1] == "cli"):
                bad.append(f"{mod} -> {d}")
    assert bad == []


def test_no_folder_is_crowded():
    """No module stands beside more than about a dozen siblings (the layout issue's bar: 14)."""
    crowded = {}
    for folder in [PKG, *(p for p in PKG.rglob("*") if p.is_dir() and p.name != "__pycache__")]:
        mods = [p for p in folder.glob("*.py") if p.name != "__init__.py"]
        if len(mods) > 14:
            crowded[str(folder.relative_to(PKG.parent))] = len(mods)
    assert crowded == {}
