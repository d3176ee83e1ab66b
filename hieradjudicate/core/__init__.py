"""Pure model and metrics: stdlib + numpy only (never Qt, never pandas)."""
