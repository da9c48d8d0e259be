"""Extract the messages, update the German catalogue and compile it.

    python scripts/translations.py

Runs pybabel (Babel) with scorekeeper/translations/babel.cfg; edit
scorekeeper/translations/de/LC_MESSAGES/messages.po, then run this again to
compile messages.mo (committed, so an install needs no build step).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "scorekeeper" / "translations"


def pybabel(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", *args], check=True, cwd=ROOT)


def main() -> None:
    pot = str(TRANSLATIONS / "messages.pot")
    pybabel("extract", "-F", str(TRANSLATIONS / "babel.cfg"), "-k", "N_", "-k", "_l", "--no-location", "--sort-output",
            "--omit-header", "-o", pot, ".")  # fmt: skip
    pybabel("update", "-i", pot, "-d", str(TRANSLATIONS), "-l", "de", "--no-fuzzy-matching")
    pybabel("compile", "-d", str(TRANSLATIONS), "--statistics")


if __name__ == "__main__":
    main()
