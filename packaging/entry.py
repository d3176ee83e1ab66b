"""Entry point of the PyInstaller bundle: the same command line as the installed program."""

import sys

from hieradjudicate.cli.entry import main

if __name__ == "__main__":
    sys.exit(main())
