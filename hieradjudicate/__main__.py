import sys

from hieradjudicate.cli import main

sys.exit(main())
