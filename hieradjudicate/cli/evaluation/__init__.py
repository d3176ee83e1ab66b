"""Commands that evaluate systems: compare (paired tests, open ranges, the regression view), its groups and output, and the stored runs."""
