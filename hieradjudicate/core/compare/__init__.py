"""Comparing systems: Pedersen's system agreement, paired significance tests, the regression view."""
