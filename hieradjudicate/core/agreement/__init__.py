"""Agreement between annotator sets over leaf distributions: kappas, Fleiss/Davies & Fleiss (with missing ratings), alpha, granularity roll-ups, per-lexelt and bootstrap intervals."""
