"""The window's competence estimates kept on disk, so a project opened again shows them at once (#33).

Dawid & Skene on MASC takes some ten seconds of two CPUs (1.08 M labels, 377 passes over them to its
confirmed fixed point); a project's annotations never change once imported, so the window's estimate of
the same labels under the same model and stopping rule is the same every time it opens the project.
An estimate that took :data:`MIN_SECONDS` or more is written to ``$XDG_CACHE_HOME/hieradjudicate/
competence`` (default ``~/.cache``) under the SHA-256 of everything it was computed from: the model, the
stopping rule, the labels (instance, rater and leaf of every label, or their distributions), each
instance's lexelt and the lexelts' leaf counts, and the source of the code that computes it (so a changed
algorithm never reads an old figure).  A file that cannot be read whole (damaged, cut short, of another
layout) is ignored and the estimate made again; writes are atomic (:func:`hieradjudicate.io.atomic.
write_atomic`), and the folder is kept under :data:`MAX_BYTES` (oldest first out).

The figures read back are the arrays written, to the bit; the window says the estimate was kept, and how
long it took when it was made.  ``HIERADJ_NO_CACHE`` (any value) turns the cache off (the test suite does,
except in the tests of the cache itself).
"""

from __future__ import annotations

import hashlib
import io
import os
import zipfile
from functools import lru_cache
from pathlib import Path

import numpy as np

#: an estimate quicker than this is made again each time (not worth a file)
MIN_SECONDS = 1.0
#: the folder's size at most; the oldest files go first
MAX_BYTES = 256 << 20
#: the layout of a file; another layout is not read
LAYOUT = 1
_ARRAYS = ("workers", "accuracy", "stderr", "n_labels", "tasks", "posterior", "entropy", "priors", "unconverged")


def cache_dir() -> Path | None:
    """The folder of kept estimates, or ``None`` when the cache is off."""
    if os.environ.get("HIERADJ_NO_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "hieradjudicate" / "competence"


@lru_cache(maxsize=1)
def _code_digest() -> str:
    """The SHA-256 of the code an estimate comes from: the crowd models and this layer's use of them."""
    here = Path(__file__).resolve().parent
    crowd = here.parent.parent / "core" / "crowd"
    h = hashlib.sha256()
    for f in sorted(crowd.glob("*.py")) + [here / "competence.py", Path(__file__).resolve()]:
        h.update(f.name.encode() + b"\0" + f.read_bytes())
    return h.hexdigest()


def key(model: str, max_iter: int | None, tol: float | None, arrays: list[np.ndarray | None]) -> str:
    """The name of the estimate of ``model`` under that stopping rule from ``arrays`` (the fit's inputs)."""
    h = hashlib.sha256(f"{LAYOUT} {model} {max_iter!r} {tol!r} {_code_digest()}".encode())
    for a in arrays:
        if a is None:
            h.update(b"none;")
            continue
        a = np.ascontiguousarray(a)
        h.update(f"{a.dtype.str} {a.shape};".encode())
        h.update(memoryview(a).cast("B"))
    return h.hexdigest()


def load(name: str):
    """``(Competence, seconds)`` kept under ``name``, or ``None`` (none kept, cache off, or unreadable)."""
    from hieradjudicate.core.crowd.competence import Competence

    folder = cache_dir()
    if folder is None:
        return None
    path = folder / f"{name}.npz"
    try:
        with np.load(path, allow_pickle=False) as f:
            got = {k: f[k] for k in (*_ARRAYS, "meta", "elbo")}
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):  # absent, damaged, cut short: made again
        return None
    meta = got["meta"]
    if meta.shape != (6,) or int(meta[0]) != LAYOUT:
        return None
    res = Competence(got["workers"], got["accuracy"], got["stderr"], got["n_labels"], got["tasks"], got["posterior"],
                     got["entropy"], None, got["priors"], int(meta[1]), bool(meta[2]), got["elbo"].tolist(),
                     float(meta[3]), float(meta[4]), unconverged=tuple(int(x) for x in got["unconverged"]))
    try:
        os.utime(path)  # recently used: kept longest
    except OSError:
        pass
    return res, float(meta[5])


def store(name: str, res, seconds: float) -> None:
    """Keep ``res`` (a :class:`~hieradjudicate.core.crowd.competence.Competence`) under ``name`` if it took
    :data:`MIN_SECONDS` or more; a failure to write (disk full, no folder) only loses the saving."""
    from hieradjudicate.io.atomic import write_atomic

    folder = cache_dir()
    if folder is None or seconds < MIN_SECONDS:
        return
    buf = io.BytesIO()
    meta = np.array([LAYOUT, res.iterations, float(res.converged), res.change, res.distance, seconds])
    arrays = {k: np.asarray(getattr(res, k)) for k in _ARRAYS if k != "unconverged"}
    np.savez(buf, meta=meta, elbo=np.asarray(res.elbo, np.float64),
             unconverged=np.asarray(res.unconverged, np.int64), **arrays)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_atomic(folder / f"{name}.npz", buf.getvalue())
        _trim(folder)
    except OSError:
        pass


def _trim(folder: Path) -> None:
    """Remove the least recently used files until the folder holds at most :data:`MAX_BYTES`."""
    files = []
    for f in folder.glob("*.npz"):
        try:
            st = f.stat()
        except OSError:
            continue
        files.append((st.st_mtime, st.st_size, f))
    total = sum(s for _, s, _ in files)
    for _, size, f in sorted(files):
        if total <= MAX_BYTES:
            break
        try:
            f.unlink()
            total -= size
        except OSError:
            pass
