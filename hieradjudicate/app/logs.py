"""The log file: unexpected errors go here with their traceback, never to the user's screen."""

from __future__ import annotations

import logging
import os
import traceback
from pathlib import Path


def log_dir() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "hieradjudicate"


def log_path() -> Path:
    return log_dir() / "hieradjudicate.log"


def get_logger() -> logging.Logger:
    logger = logging.getLogger("hieradjudicate")
    if not logger.handlers:
        try:
            log_dir().mkdir(parents=True, exist_ok=True)
            handler: logging.Handler = logging.FileHandler(log_path(), encoding="utf-8")
        except OSError:
            handler = logging.NullHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
    return logger


def log_exception(exc: BaseException) -> Path:
    get_logger().error("".join(traceback.format_exception(type(exc), exc, exc.__traceback__)))
    return log_path()
