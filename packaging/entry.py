"""Entry point of the PyInstaller bundle: the same command line as the installed program."""

import multiprocessing
import sys

from hieradjudicate.cli.entry import main

if __name__ == "__main__":
    multiprocessing.freeze_support()  # Dawid & Skene's worker processes start the bundle again as workers
    sys.exit(main())
