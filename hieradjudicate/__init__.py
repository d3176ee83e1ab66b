"""hieradjudicate: adjudicate word-sense annotations over hierarchical sense inventories."""

import os as _os

# The metrics run many small matrix products (one per lexelt): OpenBLAS's threads cost more than
# they give there (MASC agreement: 0.9-1.1 s with two threads, 0.53-0.6 s with one; measured with
# benchmarks and real data).  Set before numpy is imported; a user's own setting wins.
for _var in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    _os.environ.setdefault(_var, "1")

__version__ = "0.1.0"
