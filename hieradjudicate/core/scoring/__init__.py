"""Scoring systems and annotators against a gold: Melamed & Resnik leaf scores, scorer2's policies, figures, open ranges against a gold still being adjudicated, score intervals."""
