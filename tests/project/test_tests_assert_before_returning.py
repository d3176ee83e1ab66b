"""No test counts as passed without checking anything (issue #35).

A test function that returns before its first assertion (``if nothing_to_check: return``) is
reported as passed having checked nothing.  A case with nothing to check is skipped with its
reason (``pytest.skip``) or, in a hypothesis test, rejected (``assume``) so another is drawn.
This reads every test module's syntax tree and names each such ``return``.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]

#: calls that check (or skip, or reject a draw): a ``return`` after one of them is not silent
CHECKING_CALLS = frozenset({"raises", "warns", "deprecated_call", "fail", "skip", "xfail", "importorskip",
                            "assume", "waitUntil", "waitSignal", "waitSignals", "check"})


def _own_nodes(node: ast.AST):
    """The nodes of a function's body, not of the functions, lambdas and classes it defines."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        yield child
        yield from _own_nodes(child)


def _checks(node: ast.AST) -> bool:
    if isinstance(node, (ast.Assert, ast.Raise)):
        return True
    if isinstance(node, ast.Call):
        f = node.func
        name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
        return "assert" in name.lower() or name in CHECKING_CALLS
    return False


def early_returns(source: str, filename: str = "<test>") -> list[str]:
    """``file:line: name`` of every ``return`` in a test function before its first check."""
    found = []
    for fn in ast.walk(ast.parse(source, filename)):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or not fn.name.startswith("test"):
            continue
        nodes = list(_own_nodes(fn))
        first = min((n.lineno for n in nodes if _checks(n)), default=None)
        found += [f"{filename}:{n.lineno}: {fn.name} returns before its first assertion"
                  for n in nodes if isinstance(n, ast.Return) and (first is None or n.lineno < first)]
    return found


def test_the_check_finds_a_return_before_the_first_assertion_and_nothing_else():
    source = (
        "def test_silent(x):\n"
        "    if x:\n"
        "        return\n"
        "    assert x == 0\n"
        "def test_skips(x):\n"
        "    if x:\n"
        "        pytest.skip('nothing to check')\n"
        "        return\n"
        "    assert x == 0\n"
        "def test_rejects(x):\n"
        "    assume(x)\n"
        "    assert x\n"
        "def test_nested_helper_may_return():\n"
        "    def helper():\n"
        "        return 1\n"
        "    assert helper() == 1\n"
        "def test_returns_after_asserting(x):\n"
        "    assert x is not None\n"
        "    if x:\n"
        "        return\n"
    )
    assert early_returns(source) == ["<test>:3: test_silent returns before its first assertion"]


def test_no_test_function_returns_before_its_first_assertion():
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        found += early_returns(path.read_text(encoding="utf-8"), str(path.relative_to(TESTS.parent)))
    assert not found, "\n".join(found)
