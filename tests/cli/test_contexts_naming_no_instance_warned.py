"""A context file whose contexts name no instance of the annotations (another task's file, or ids
written otherwise) is warned of by ``validate`` and ``project new``, naming the file, how many and the
first: before, both said nothing and the project's instances simply had no context."""

from __future__ import annotations

from pathlib import Path

import hieradjudicate
from hieradjudicate.cli.entry import main

DEMO = Path(hieradjudicate.__file__).resolve().parent.parent / "resources" / "demo"
INPUTS = ["--inventory", str(DEMO / "inventory.txt"), "--annotations", f"ann={DEMO / 'annotator_ann.key'}"]


def _contexts(tmp_path: Path) -> Path:
    ctx = tmp_path / "other.tsv"
    ctx.write_text("lexelt\tinstance\tcontext\n"
                   "bank.n\tbank.n.001\tI went to the <head>bank</head> today.\n"
                   "bank.n\tbank.v.7\tThey <head>bank</head> on it.\n"
                   "zz.n\tzz.1\tnothing <head>here</head>\n")
    return ctx


def test_validate_warns_of_contexts_naming_no_instance(tmp_path, capsys):
    ctx = _contexts(tmp_path)
    assert main(["validate", *INPUTS, "--contexts", str(ctx)]) == 0  # a warning, not an error
    out = capsys.readouterr().out
    assert (f"{ctx}:3: 2 of 3 context(s) of this file name no instance of the annotations "
            "(first: bank.n bank.v.7)") in out
    assert "1 of the 400 instances got a context from it" in out


def test_project_new_warns_of_contexts_naming_no_instance(tmp_path, capsys):
    ctx = _contexts(tmp_path)
    assert main(["project", "new", str(tmp_path / "p.hadj"), *INPUTS, "--contexts", str(ctx)]) == 0
    err = capsys.readouterr().err
    assert f"warning: {ctx}: 2 of 3 context(s) of this file name no instance of the annotations" in err


def test_matching_contexts_bring_no_warning(tmp_path, capsys):
    assert main(["project", "new", str(tmp_path / "p.hadj"), *INPUTS, "--contexts",
                 str(DEMO / "contexts.tsv")]) == 0
    assert "warning" not in capsys.readouterr().err
    assert main(["validate", *INPUTS, "--contexts", str(DEMO / "contexts.tsv")]) == 0
    assert "warning" not in capsys.readouterr().out


def test_validate_says_how_many_instances_have_a_context(tmp_path, capsys):
    """Before, validate said nothing of the contexts' coverage: 99 contexts for 400 instances was 'valid'."""
    part = tmp_path / "part.tsv"
    part.write_text("".join((DEMO / "contexts.tsv").read_text().splitlines(keepends=True)[:100]))
    assert main(["validate", *INPUTS, "--contexts", str(part)]) == 0
    assert "instances with a context: 99 of 400" in capsys.readouterr().out
    assert main(["validate", *INPUTS, "--contexts", str(part), "--format", "json"]) == 0
    assert '"instances_with_context": 99' in capsys.readouterr().out
    assert main(["validate", *INPUTS]) == 0
    assert "instances with a context" not in capsys.readouterr().out
