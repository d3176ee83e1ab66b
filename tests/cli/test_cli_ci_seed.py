"""#24 item 5: --seed for the bootstrap, and a warning when too few resamples make interval ends move."""

from __future__ import annotations

import json
from pathlib import Path

import hieradjudicate
from hieradjudicate.cli.entry import main
from hieradjudicate.cli.options import STABLE_RESAMPLES

DEMO = Path(hieradjudicate.__file__).resolve().parent.parent / "resources" / "demo"
FILES = ["--inventory", str(DEMO / "inventory.txt"), "--annotations", str(DEMO / "annotator_ann.key"),
         "--annotations", f"ben={DEMO / 'annotator_ben.key'}", "--annotations", f"cho={DEMO / 'annotator_cho.key'}"]


def _agree(capsys, *extra: str) -> tuple[dict, str]:
    assert main(["agree", *FILES, "--format", "json", *extra]) == 0
    cap = capsys.readouterr()
    return json.loads(cap.out)["ci"], cap.err


def test_agree_seed_is_an_option_and_few_resamples_are_warned(capsys) -> None:
    a, err = _agree(capsys, "--ci", "200", "--seed", "1")
    assert a["seed"] == 1 and "--ci 200" in err and f"{STABLE_RESAMPLES} or more" in err
    again, _ = _agree(capsys, "--ci", "200", "--seed", "1")
    other, _ = _agree(capsys, "--ci", "200", "--seed", "2")
    assert again["fleiss"] == a["fleiss"]  # the same seed, the same intervals
    assert other["fleiss"] != a["fleiss"] and other["seed"] == 2
    default, err = _agree(capsys, "--ci", str(STABLE_RESAMPLES))
    assert "warning" not in err and default["seed"] == 20_240_601


def test_score_seed_and_warning(capsys) -> None:
    args = ["score", "--inventory", str(DEMO / "inventory.txt"), "--gold", str(DEMO / "annotator_ann.key"),
            "--system", f"lesk={DEMO / 'system_lesk.ans'}", "--format", "json", "--ci", "300"]
    got = {}
    for seed in ("3", "3", "4"):
        assert main([*args, "--seed", seed]) == 0
        cap = capsys.readouterr()
        assert "--ci 300" in cap.err
        ci = json.loads(cap.out)["systems"][0]["ci"]
        assert ci["seed"] == int(seed)
        got.setdefault(seed, []).append(ci["recall"])
    assert got["3"][0] == got["3"][1] and got["4"][0] != got["3"][0]


def test_report_warns_below_stable_resamples(tmp_path, capsys) -> None:
    out = tmp_path / "r.html"
    assert main(["report", *FILES, "-o", str(out), "--resamples", "50", "--seed", "9",
                 "--competence", "none"]) == 0
    assert "--resamples 50" in capsys.readouterr().err and out.exists()
