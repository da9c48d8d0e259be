"""CPU time of a whole ``scorekeeper score`` process against the plain reference scorer's.

Run from the repository root::

    .venv/bin/python bench/cli_vs_reference.py              # 7 rounds of 15 runs each side
    .venv/bin/python bench/cli_vs_reference.py --rounds 11 --runs 20

Each round runs ``python -m scorekeeper score GAME`` and ``python
bench/reference.py GAME`` in turn (paired: one of each, again and again), and
takes the user + system CPU time of each child process from the kernel
(``os.wait4``), so other load on the machine hardly moves the figures.
Prints each round's medians, then the median ratio and its spread.
Target (issue "Fast for every new game"): at most 2 × the reference.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "examples" / "four-players.json"


def cpu_ms(command: list[str]) -> float:
    """User + system CPU milliseconds of one run of *command* (output discarded)."""
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(command)} failed: {process.stderr.read().decode()[-500:]}")
    process.stderr.close()
    return (usage.ru_utime + usage.ru_stime) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--runs", type=int, default=15, help="runs of each side per round")
    parser.add_argument("--game", type=Path, default=GAME)
    args = parser.parse_args()
    ours = [sys.executable, "-m", "scorekeeper", "score", str(args.game)]
    reference = [sys.executable, str(ROOT / "bench" / "reference.py"), str(args.game)]
    for command in (ours, reference):  # warm the file cache
        cpu_ms(command)
    ratios = []
    print(f"{'round':>5} {'scorekeeper score':>18} {'reference':>10} {'ratio':>6}   (CPU ms, medians of {args.runs})")
    for n in range(1, args.rounds + 1):
        a, b = [], []
        for _ in range(args.runs):
            a.append(cpu_ms(ours))
            b.append(cpu_ms(reference))
        ratio = statistics.median(a) / statistics.median(b)
        ratios.append(ratio)
        print(f"{n:>5} {statistics.median(a):>18.1f} {statistics.median(b):>10.1f} {ratio:>6.2f}")
    print(f"ratio: median {statistics.median(ratios):.2f}, from {min(ratios):.2f} to {max(ratios):.2f} (target ≤ 2)")


if __name__ == "__main__":
    main()
