"""Extract the messages, update every language's catalogue and compile them.

    python scripts/translations.py            # every folder of scorekeeper/translations
    python scripts/translations.py --new it   # first a catalogue for a new language

Runs pybabel (Babel) with scorekeeper/translations/babel.cfg. A language is a
folder there, named by its code (``de``, ``fr``), holding
``LC_MESSAGES/messages.po``; ``--new`` makes that folder from messages.pot
(pybabel init). Edit the .po files, then run this again to compile each
messages.mo (committed, so an install needs no build step). Steps for a new
language: docs/languages.md.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "scorekeeper" / "translations"


def pybabel(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", *args], check=True, cwd=ROOT)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--new", metavar="CODE", action="append", default=[], help="start a catalogue for CODE")
    asked = parser.parse_args()
    pot = str(TRANSLATIONS / "messages.pot")
    pybabel("extract", "-F", str(TRANSLATIONS / "babel.cfg"), "-k", "N_", "-k", "_l", "--no-location", "--sort-output",
            "--omit-header", "-o", pot, ".")  # fmt: skip
    for code in asked.new:
        if not (TRANSLATIONS / code).exists():
            pybabel("init", "-i", pot, "-d", str(TRANSLATIONS), "-l", code)
    # without -l: every catalogue under the folder
    pybabel("update", "-i", pot, "-d", str(TRANSLATIONS), "--no-fuzzy-matching")
    pybabel("compile", "-d", str(TRANSLATIONS), "--statistics")


if __name__ == "__main__":
    main()
