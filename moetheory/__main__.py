"""``python -m moetheory`` runs the command line."""

import sys

from moetheory.cli import main

sys.exit(main())
