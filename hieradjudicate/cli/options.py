"""Options and argument parsing shared by every command group (imported by them, importing none)."""

from __future__ import annotations

import argparse

from hieradjudicate.core.errors import HieradjError


def add_inputs(p: argparse.ArgumentParser, *, annotations: bool = True, skip_option: bool = True) -> None:
    p.add_argument("--inventory", action="append", default=[], metavar="PATH",
                   help="sense inventory file (sense map, dictionary XML, tree table, outline, JSON); repeatable")
    if annotations:
        p.add_argument("--annotations", action="append", default=[], metavar="[NAME=]PATH[:ROLE]",
                       help="annotation file (Senseval key/answers, long/wide table, JSON Lines); repeatable")
    p.add_argument("--tree-columns", metavar="FIELD=COL,...",
                   help="column mapping for tree tables, e.g. sense=node_id,parent=parent_id,gloss=label")
    p.add_argument("--downward", default="uniform", metavar="uniform|estimate:SET",
                   help="downward probabilities: uniform (default; explicit weights and branching factors "
                        "of the inventory apply) or estimated from the leaf tags of annotation set SET, add-one smoothed")
    p.add_argument("--xmi-layer", metavar="TYPE",
                   help="INCEpTION/WebAnno XMI or WebAnno TSV 3: the span layer holding the sense (type name or its last part, "
                        "e.g. NamedEntity); without it DKPro's WordSense is used, or the layers found are listed")
    p.add_argument("--xmi-feature", metavar="FEATURE",
                   help="XMI / WebAnno TSV 3: the feature of that layer holding the sense (WebAnno TSV 3 "
                        "without it: value, or the layer's only feature)")
    p.add_argument("--xmi-lexelt", choices=("text", "lemma", "layer"), default=None,
                   help="XMI: the lexelt of a span: its lemma where one is annotated, else its text (text, "
                        "the default), the lemma only (lemma), or one lexelt for the whole layer (layer)")
    p.add_argument("--json-fields", metavar="FIELD=KEY,...",
                   help="Label Studio / Prodigy: which task keys hold the lexelt and the instance, and which "
                        "control holds the sense, e.g. lexelt=word,instance=sid,choice=sense; Label Studio's "
                        "model predictions are systems (one set per model_version) unless "
                        "predictions=annotator (or gold; predictions=skip leaves them out)")
    p.add_argument("--format", choices=("text", "json", "csv"), default="text", help="output format")
    if skip_option:
        add_skip_option(p)


def add_skip_option(p: argparse.ArgumentParser) -> None:
    """``--skip-bad-lines``: go on without the lines validate would name (said on stderr)."""
    p.add_argument("--skip-bad-lines", action="store_true",
                   help="go on when an input file has lines with problems, leaving them out (stderr says "
                        "how many and where); without it such a file stops the command, as validate would")


def reading_policy(args: argparse.Namespace, result=None, *, sources=()) -> None:
    """Refuse input with dropped lines (validate's message, exit 1) unless ``--skip-bad-lines``;
    with it, say on stderr how many lines were left out.  ``result``: a load result;
    ``sources``: reader sources read without :func:`~hieradjudicate.app.loading.load.load`."""
    import sys

    from hieradjudicate.app.loading.policy import bad_lines, check_load, enforce

    skip = bool(getattr(args, "skip_bad_lines", False))
    notice = check_load(result, skip=skip) if result is not None else enforce(bad_lines(sources), skip=skip)
    if notice:
        print(f"hieradjudicate: warning: {notice}", file=sys.stderr)


def specs(args: argparse.Namespace, attr: str = "annotations", role: str = "annotator"):
    """The ``--annotations``-style options of ``args`` as annotation set specifications."""
    from hieradjudicate.app.loading.specs import AnnotationSpec

    out = [AnnotationSpec.parse(a, role) for a in getattr(args, attr, [])]
    xmi = {k: v for k, v in (("layer", getattr(args, "xmi_layer", None)),
                             ("feature", getattr(args, "xmi_feature", None)),
                             ("lexelt", getattr(args, "xmi_lexelt", None))) if v}
    fields = parse_columns(getattr(args, "json_fields", None))
    if fields:
        bad = sorted(set(fields) - {"lexelt", "instance", "choice", "predictions"})
        if bad:
            raise HieradjError(f"--json-fields: unknown field {bad[0]!r}; expected lexelt, instance, choice "
                               "or predictions")
        from hieradjudicate.io.annotations.tools.labelstudio import PREDICTION_ROLES

        if fields.get("predictions", "system") not in PREDICTION_ROLES:
            raise HieradjError(f"--json-fields: predictions={fields['predictions']!r}; expected "
                               f"{', '.join(PREDICTION_ROLES)}")
        from hieradjudicate.io.annotations.sniffing import looks_like_labelstudio

        for spec in out:
            try:
                with open(spec.path, "rb") as fh:
                    head = fh.read(65536).decode("utf-8", "replace")
            except OSError:
                continue
            first = head.lstrip().split("\n", 1)[0]
            if looks_like_labelstudio(head) or ('"_annotator_id"' in first or '"accept"' in first):
                spec.columns = dict(fields)
    if xmi:
        from hieradjudicate.io.annotations.sniffing import is_uima

        for spec in out:
            try:
                with open(spec.path, "rb") as fh:
                    head = fh.read(4096)
            except OSError:
                continue  # the reader names the missing file
            if is_uima(head):
                spec.format, spec.columns = "uima-xmi", dict(xmi)
            elif head.lstrip(b"\xef\xbb\xbf").startswith(b"#FORMAT=WebAnno TSV 3"):
                spec.format, spec.columns = "webanno-tsv", dict(xmi)
    return out


def parse_columns(text: str | None) -> dict[str, str] | None:
    if not text:
        return None
    out = {}
    for part in text.split(","):
        k, sep, v = part.partition("=")
        if not sep or not k.strip() or not v.strip():
            raise HieradjError(f"--tree-columns: expected FIELD=COLUMN pairs separated by commas, got {part!r}")
        out[k.strip()] = v.strip()
    return out


def non_negative(text: str) -> int:
    """argparse type: a whole number >= 0 (a usage error, exit 2, otherwise)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected 0 or more, got {value}")
    return value


def positive(text: str) -> int:
    """argparse type: a whole number >= 1."""
    value = non_negative(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected 1 or more, got {value}")
    return value


def unit_interval(text: str) -> float:
    """argparse type: a number in (0, 1] (a score threshold)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"expected a number in (0, 1], got {text}")
    return value


def non_negative_float(text: str) -> float:
    """argparse type: a finite number >= 0 (a tolerance)."""
    import math

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {text}")
    return value


#: fewer bootstrap resamples than this give interval ends that move visibly with the seed (BCa's
#: ends are extreme quantiles of the resampled values; issue #24 saw an agreement interval's lower
#: end move between 0.18 and 0.38 at 200); Efron & Tibshirani (1993) advise 1000 or more
STABLE_RESAMPLES = 1000


def add_seed_option(p: argparse.ArgumentParser, default_text: str) -> None:
    """``--seed``: the bootstrap's random seed (the same seed and data give the same intervals)."""
    p.add_argument("--seed", type=non_negative, default=None, metavar="S",
                   help=f"random seed of the bootstrap resampling (default {default_text}); the same seed "
                        "and data give the same intervals, another seed shows how much they move")


def resample_warning(n_resamples: int, option: str = "--ci") -> None:
    """Say on stderr when ``n_resamples`` (> 0) is too few for stable interval ends."""
    import sys

    if 0 < n_resamples < STABLE_RESAMPLES:
        print(f"hieradjudicate: warning: {option} {n_resamples}: with fewer than {STABLE_RESAMPLES} resamples "
              "the interval ends move between seeds (--seed shows by how much); use "
              f"{option} {STABLE_RESAMPLES} or more for figures to report", file=sys.stderr)
