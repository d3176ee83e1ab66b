"""A key file given as the inventory is named as annotations: before, 'cannot tell the inventory format
from the content; expected a sense map ...' about the demo's annotator_ann.key or the WSD framework's
gold key, leaving the user to guess that the files were given in each other's places."""

from __future__ import annotations

from pathlib import Path

import pytest

import hieradjudicate
from hieradjudicate.core.errors import FormatError
from hieradjudicate.io.inventories.read import detect_inventory_format

DEMO = Path(hieradjudicate.__file__).resolve().parent.parent / "resources" / "demo"
SAYS = "this looks like annotations (key lines 'lexelt instance_id tag ...' or 'instance_id sense_key ...')"


@pytest.mark.parametrize("text", [
    (DEMO / "annotator_ann.key").read_text(),
    "d000.s000.t000 document%1:10:00::\nd000.s000.t001 summary%1:10:00::\n",
])
def test_a_key_is_named_as_annotations(text):
    with pytest.raises(FormatError, match=r"this looks like annotations \(key lines"):
        detect_inventory_format(text, "given.txt")


@pytest.mark.parametrize("text, fmt", [
    ("38201\n38202 2 38204\n38203 2 38204\n", "senseval-sensemap"),
    ((DEMO / "inventory.txt").read_text(), "outline"),
])
def test_inventories_are_still_read_as_such(text, fmt):
    assert detect_inventory_format(text, "given.txt") == fmt


def test_text_of_no_kind_keeps_the_general_message():
    with pytest.raises(FormatError, match="cannot tell the inventory format") as err:
        detect_inventory_format("this is prose\nwith words in it\n", "given.txt")
    assert SAYS not in str(err.value)
