"""Every figure is what its label says (issue #35): a figure the inputs cannot give is refused
naming what is missing, and inputs that look swapped are warned about.

* ``agree --granularity top|depth=N`` without a sense tree would print the leaf figures labelled
  "top": refused.
* ``score``/``compare --policy coarse`` with an inventory that lacks lexelts of the gold would
  score those lexelts' senses as their own groups (the fine figure, labelled coarse): refused as
  ``validate`` calls the inputs "NOT valid", or scored with ``--skip-bad-lines`` saying how much
  was not covered.
* ``--gold`` and ``--system`` given the other way round: warned where the files tell (a system's
  lines with several tags and no weights against a gold with none, the files' names or roles,
  a "system" answering every gold instance and more).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hieradjudicate.cli.entry import main
from tests.conftest import DEMO, skip_without_realdata


def cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out = capsys.readouterr()
    return code, out.out, out.err


def _demo_pair(*, granularity: str, inventory: bool) -> list[str]:
    inv = ["--inventory", DEMO / "inventory.txt"] if inventory else []
    return ["agree", *inv, "--annotations", f"ann={DEMO / 'annotator_ann.key'}",
            "--annotations", f"ben={DEMO / 'annotator_ben.key'}", "--granularity", granularity]


# -- 1. agree --granularity without a tree ---------------------------------------------------------
@pytest.mark.parametrize("granularity", ["top", "depth=1", "depth=2"])
def test_agree_above_the_leaves_without_an_inventory_is_refused_naming_the_inventory(capsys, granularity):
    code, out, err = cli(capsys, *_demo_pair(granularity=granularity, inventory=False))
    assert code == 1 and out == ""
    assert f"--granularity {granularity}" in err and "--inventory" in err and "Traceback" not in err


def test_agree_above_the_leaves_with_a_flat_inventory_is_refused(capsys, tmp_path):
    flat = tmp_path / "flat.tsv"  # a tree table whose senses have no parent: no level above the leaves
    lines = ["lexelt\tsense\tparent\tgloss"]
    for key in ("annotator_ann.key", "annotator_ben.key"):
        for line in (DEMO / key).read_text().splitlines():
            lexelt, _, *tags = line.split()
            lines += [f"{lexelt}\t{t}\t\tx" for t in tags]
    flat.write_text("\n".join(dict.fromkeys(lines)) + "\n")
    args = _demo_pair(granularity="top", inventory=False)
    code, out, err = cli(capsys, *args[:1], "--inventory", flat, *args[1:])
    assert code == 1 and "no parent relations" in err and str(flat) in err


def test_agree_top_with_the_demo_tree_still_gives_the_top_level_figures(capsys):
    code, out, err = cli(capsys, *_demo_pair(granularity="top", inventory=True), "--format", "json")
    assert code == 0, err
    top = json.loads(out)
    code, out, _ = cli(capsys, *_demo_pair(granularity="leaf", inventory=True), "--format", "json")
    leaf = json.loads(out)
    assert top["granularity"] == "top" and top["fleiss"]["kappa"] > leaf["fleiss"]["kappa"]


# -- 2. coarse scoring with an inventory that lacks the gold's lexelts ------------------------------
def _bank_only_inventory(tmp_path: Path) -> Path:
    """The demo's tree cut to its first lexelt (bank.n): the gold's other 7 lexelts are absent."""
    text = (DEMO / "inventory.txt").read_text()
    first = text.split("\n# lexelt ", 1)[0]
    assert first.startswith("# lexelt bank.n")
    path = tmp_path / "bank_only.txt"
    path.write_text(first.rstrip() + "\n")
    return path


def _system(tmp_path: Path, route: str) -> Path:
    """ben's key as a system: clean (the byte-level scorer2 route) or with a comment (the strict one)."""
    text = (DEMO / "annotator_ben.key").read_text()
    if route == "strict":
        first, rest = text.split("\n", 1)
        text = f"{first} !! a comment sends every file to the strict reader\n{rest}"
    path = tmp_path / f"ben_{route}.key"
    path.write_text(text)
    return path


@pytest.mark.parametrize("route", ["clean", "strict"])
@pytest.mark.parametrize("policy", ["coarse", "mixed", "fine", "leaf"])
def test_score_with_an_inventory_lacking_gold_lexelts_is_refused_as_validate_refuses(capsys, tmp_path,
                                                                                     route, policy):
    inv = _bank_only_inventory(tmp_path)
    system = _system(tmp_path, route)
    gold = DEMO / "annotator_ann.key"
    code, out, _ = cli(capsys, "validate", "--inventory", inv, "--annotations", gold,
                       "--annotations", f"{system}:system")
    assert code == 1 and "NOT valid: 7 lexelt(s)" in out  # what validate calls these inputs
    code, out, err = cli(capsys, "score", "--inventory", inv, "--gold", gold, "--system", system,
                         "--policy", policy)
    assert code == 1 and out == "", out
    assert "7 lexelt(s)" in err and "interest.n" in err and "--skip-bad-lines" in err


@pytest.mark.parametrize("route", ["clean", "strict"])
def test_coarse_score_with_skip_bad_lines_says_how_much_the_inventory_did_not_cover(capsys, tmp_path, route):
    inv = _bank_only_inventory(tmp_path)
    system = _system(tmp_path, route)
    gold = DEMO / "annotator_ann.key"
    code, out, err = cli(capsys, "score", "--inventory", inv, "--gold", gold, "--system", system,
                         "--policy", "coarse", "--skip-bad-lines", "--format", "json")
    assert code == 0, err
    n_gold = len((DEMO / "annotator_ann.key").read_text().splitlines())
    n_bank = sum(1 for line in (DEMO / "annotator_ann.key").read_text().splitlines() if line.startswith("bank.n "))
    assert f"{n_gold - n_bank} of {n_gold} gold instances" in err and "7 lexelt(s)" in err


def test_compare_coarse_with_an_inventory_lacking_gold_lexelts_is_refused(capsys, tmp_path):
    inv = _bank_only_inventory(tmp_path)
    code, out, err = cli(capsys, "compare", "--inventory", inv, "--gold", DEMO / "annotator_ann.key",
                         "--system", f"ben={DEMO / 'annotator_ben.key'}",
                         "--system", f"cho={DEMO / 'annotator_cho.key'}", "--policy", "coarse")
    assert code == 1 and "absent from the inventory" in err


def test_agree_with_an_inventory_lacking_lexelts_is_refused(capsys, tmp_path):
    inv = _bank_only_inventory(tmp_path)
    args = _demo_pair(granularity="top", inventory=False)
    code, out, err = cli(capsys, args[0], "--inventory", inv, *args[1:])
    assert code == 1 and "7 lexelt(s)" in err and "absent from the inventory" in err


def test_report_from_files_with_an_inventory_lacking_lexelts_is_refused(capsys, tmp_path):
    inv = _bank_only_inventory(tmp_path)
    out = tmp_path / "r.html"
    code, _, err = cli(capsys, "report", "--inventory", inv, "--annotations", f"ann={DEMO / 'annotator_ann.key'}",
                       "--annotations", f"ben={DEMO / 'annotator_ben.key'}", "-o", out, "--resamples", "0")
    assert code == 1 and "7 lexelt(s)" in err and not out.exists()


def test_senseval3_coarse_with_the_demo_inventory_is_refused_not_the_fine_figure(capsys):
    data = skip_without_realdata("senseval3") / "senseval3"
    inputs = ("--inventory", DEMO / "inventory.txt", "--gold", data / "EnglishLS.test.key",
              "--system", data / "answers" / "baseline_responses.txt")
    code, out, err = cli(capsys, "score", *inputs, "--policy", "coarse")
    assert code == 1 and out == ""
    code, out, _ = cli(capsys, "validate", *[str(a).replace("--gold", "--annotations")
                                             .replace("--system", "--annotations") for a in inputs])
    absent = out.split("NOT valid: ", 1)[1].split(" lexelt(s)")[0]  # validate's count, named the same
    assert code == 1 and f"{absent} lexelt(s) of the gold are absent" in err


# -- 3. --gold and --system the other way round -----------------------------------------------------
SWAP = "look swapped"


def _score(capsys, gold, *systems, policy="fine", extra=()):
    sys_args = [a for s in systems for a in ("--system", s)]
    return cli(capsys, "score", "--gold", gold, *sys_args, "--policy", policy, *extra)


def _multi_tag_key(tmp_path: Path) -> Path:
    """ann's key where every tenth instance carries a second tag (a gold with alternatives)."""
    lines = (DEMO / "annotator_ann.key").read_text().splitlines()
    out = [f"{line} 1" if i % 10 == 0 and not line.endswith(" 1") else line for i, line in enumerate(lines)]
    path = tmp_path / "ann_key.txt"
    path.write_text("\n".join(out) + "\n")
    return path


@pytest.mark.parametrize("policy", ["fine", "leaf"])
def test_a_system_with_several_tags_per_instance_against_a_single_tag_gold_warns_of_a_swap(capsys, tmp_path,
                                                                                           policy):
    key = _multi_tag_key(tmp_path)
    single = tmp_path / "ben_answers.txt"  # one tag per line, as most systems answer
    single.write_text("".join(" ".join(line.split()[:3]) + "\n"
                              for line in (DEMO / "annotator_ben.key").read_text().splitlines()))
    code, out, err = _score(capsys, single, key, policy=policy)  # swapped
    assert code == 0 and SWAP in err and "several tags" in err
    code, out, err = _score(capsys, key, single, policy=policy)  # the right way round
    assert code == 0 and SWAP not in err


@pytest.mark.parametrize("gold_name,system_name", [("run1.ans", "gold.key"),
                                                   ("ALL.lesk_example.key.txt", "ALL.gold.key.txt"),
                                                   ("baseline_responses.txt", "EnglishLS.test.key")])
def test_file_names_that_say_system_for_the_gold_or_gold_for_a_system_warn_of_a_swap(capsys, tmp_path,
                                                                                    gold_name, system_name):
    gold, system = tmp_path / gold_name, tmp_path / system_name
    gold.write_text((DEMO / "annotator_ann.key").read_text())
    system.write_text((DEMO / "annotator_ben.key").read_text())
    code, out, err = _score(capsys, gold, system)
    assert code == 0 and SWAP in err and "name" in err
    code, out, err = _score(capsys, system, gold)
    assert SWAP not in err


def test_explicit_roles_the_wrong_way_round_warn_of_a_swap(capsys, tmp_path):
    code, out, err = _score(capsys, f"{DEMO / 'annotator_ann.key'}:system", f"{DEMO / 'annotator_ben.key'}:gold")
    assert SWAP in err and "role" in err


@pytest.mark.parametrize("policy", ["fine", "leaf"])
def test_a_system_answering_every_gold_instance_and_more_is_named_beside_another_sign(capsys, tmp_path, policy):
    lines = (DEMO / "annotator_ann.key").read_text().splitlines()
    partial = tmp_path / "lesk_output.txt"  # a name that marks a system's output, answering half
    partial.write_text("\n".join(lines[::2]) + "\n")
    whole = tmp_path / "ann_all.txt"
    whole.write_text("\n".join(lines) + "\n")
    code, out, err = _score(capsys, partial, whole, policy=policy)
    assert SWAP in err and "ann_all.txt answers every instance of the gold and 200 the gold lacks" in err
    code, out, err = _score(capsys, whole, partial, policy=policy)
    assert SWAP not in err


@pytest.mark.parametrize("policy", ["fine", "leaf"])
def test_a_gold_smaller_than_the_systems_answers_alone_is_no_swap(capsys, tmp_path, policy):
    """A gold still being adjudicated (exported with its decided instances) is smaller than a
    system's answers: coverage alone tells nothing."""
    lines = (DEMO / "annotator_ann.key").read_text().splitlines()
    decided = tmp_path / "decided.key"
    decided.write_text("\n".join(lines[::2]) + "\n")
    code, out, err = _score(capsys, decided, DEMO / "system_neural.ans", policy=policy)
    assert code == 0 and SWAP not in err


def test_the_demo_the_right_way_round_gives_no_swap_warning(capsys):
    code, out, err = _score(capsys, DEMO / "annotator_ann.key", DEMO / "system_lesk.ans",
                            DEMO / "system_neural.ans", policy="leaf", extra=("--inventory", DEMO / "inventory.txt"))
    assert code == 0 and SWAP not in err


def test_senseval3_swapped_warns(capsys):
    data = skip_without_realdata("senseval3") / "senseval3"
    key, base = data / "EnglishLS.test.key", data / "answers" / "baseline_responses.txt"
    code, out, err = _score(capsys, base, key, extra=("--inventory", data / "EnglishLS.sensemap"))
    assert SWAP in err
    code, out, err = _score(capsys, key, base, extra=("--inventory", data / "EnglishLS.sensemap"))
    assert code == 0 and SWAP not in err
