"""Readers of annotation tools' exchange formats: Label Studio's JSON and Prodigy's JSONL (labelstudio), JSON Lines (jsonl), INCEpTION/WebAnno UIMA CAS XMI (uima) and WebAnno TSV (webanno_tsv)."""
