"""Print one of the README's two fresh-machine commands: ``verify`` (first) or ``test`` (second)."""

import re
import sys
from pathlib import Path

blocks = re.findall(r"```bash\n(.*?)\n```", Path("README.md").read_text(encoding="utf-8"), re.S)
which = {"verify": 0, "test": 1}[sys.argv[1]]
print(blocks[which].strip())
