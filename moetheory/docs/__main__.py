"""``python -m moetheory.docs``: generate the claim pages (see :func:`moetheory.docs.main`)."""

import sys

from moetheory.docs._cli import main

sys.exit(main())
