"""An export that writes back into a source file the project lacks (xmi, labelstudio, prodigy) names
every format that needs none, the WSD framework's key too: before, 'export senseval, csv or jsonl' left
out wsdeval, the format a researcher on the framework's data wants."""

from __future__ import annotations

from pathlib import Path

import pytest

import hieradjudicate
from hieradjudicate.cli.entry import main

DEMO = Path(hieradjudicate.__file__).resolve().parent.parent / "resources" / "demo"


@pytest.mark.parametrize("fmt", ["xmi", "labelstudio", "prodigy"])
def test_the_refusal_names_senseval_wsdeval_csv_and_jsonl(tmp_path, capsys, fmt):
    p = tmp_path / "demo.hadj"
    assert main(["project", "new", str(p), "--inventory", str(DEMO / "inventory.txt"),
                 "--annotations", f"ann={DEMO / 'annotator_ann.key'}"]) == 0
    assert main(["project", "export", str(p), "--format", fmt, "-o", str(tmp_path / "out")]) == 1
    assert "this project has none; export senseval, wsdeval, csv or jsonl" in capsys.readouterr().err
