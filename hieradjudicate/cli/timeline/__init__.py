"""``project timeline`` and ``project mark`` (issue 32): registered by :mod:`hieradjudicate.cli.project`."""

from hieradjudicate.cli.timeline.command import register

__all__ = ["register"]
