"""A mistyped role after an existing file (``ann=a.key:golden``) is named as such: before, the whole
``a.key:golden`` was taken as a path and the user read 'file not found' about a file that exists."""

from __future__ import annotations

from pathlib import Path

import pytest

import hieradjudicate
from hieradjudicate.app.loading.specs import AnnotationSpec
from hieradjudicate.cli.entry import main
from hieradjudicate.core.errors import HieradjError

DEMO = Path(hieradjudicate.__file__).resolve().parent.parent / "resources" / "demo"


@pytest.mark.parametrize("text", ["ann=KEY:golden", "KEY:golden", "ann=KEY:Gold"])
def test_a_role_that_is_no_role_after_an_existing_file_is_named(text):
    text = text.replace("KEY", str(DEMO / "annotator_ann.key"))
    with pytest.raises(HieradjError, match=r"is not a role; expected \[NAME=\]PATH\[:ROLE\] with ROLE one of "
                                           "annotator, system, gold"):
        AnnotationSpec.parse(text)


def test_known_roles_and_paths_with_colons_still_parse(tmp_path):
    key = str(DEMO / "annotator_ann.key")
    assert AnnotationSpec.parse(f"ann={key}:gold") == AnnotationSpec(key, "ann", "gold")
    odd = tmp_path / "a:b.key"
    odd.write_text("bank.n bank.n.001 1\n")
    assert AnnotationSpec.parse(str(odd)).path == str(odd)
    missing = tmp_path / "nothing.key"
    assert AnnotationSpec.parse(f"{missing}:golden").path == f"{missing}:golden"  # still 'file not found'


def test_validate_says_the_role_is_mistyped(capsys):
    rc = main(["validate", "--inventory", str(DEMO / "inventory.txt"),
               "--annotations", f"ann={DEMO / 'annotator_ann.key'}:golden"])
    err = capsys.readouterr().err
    assert rc == 1
    assert "'golden' is not a role" in err and "not found" not in err
