"""Kept for existing imports: the shipped files are found by :mod:`hieradjudicate.resources`."""

from hieradjudicate.resources import resource_path, resources_root

__all__ = ["resource_path", "resources_root"]
