"""Readers and writers of every file format and the project store (no Qt)."""
