"""`python -m kotc`: the `kotc` command."""

import sys

from kotc.cli.main import main

sys.exit(main())
