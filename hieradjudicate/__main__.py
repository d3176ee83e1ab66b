import sys

from hieradjudicate.cli.entry import main

sys.exit(main())
