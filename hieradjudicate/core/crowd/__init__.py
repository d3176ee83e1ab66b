"""Competence of a crowd: Dawid & Skene, MACE, their acceleration and the per-lexelt parts they are fitted on."""
