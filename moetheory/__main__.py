"""``python -m moetheory`` runs the command line."""

import sys

from moetheory.engine.cli import console_main

sys.exit(console_main())
