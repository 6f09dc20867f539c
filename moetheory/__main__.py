"""``python -m moetheory`` runs the command line."""

import sys

from moetheory.engine.cli import main

sys.exit(main())
