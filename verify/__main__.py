"""``python -m verify`` is the same as the ``verify`` console script."""

import sys

from verify.cli import main

sys.exit(main())
