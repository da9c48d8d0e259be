"""Kingdoms scored per second: the engine (explanations on) versus bench/reference.py.

Run from the repository root::

    .venv/bin/python bench/engine_vs_reference.py            # 400 random kingdoms, 5 rounds
    valgrind --tool=callgrind .venv/bin/python bench/engine_vs_reference.py --only engine --kingdoms 300 --seed 7

Both score the same random kingdoms (seeded) and must agree on every row
first; then each is timed over all of them, best of the rounds. The engine's
run includes every explanation, as the engine gives it: the records behind
all seven rows (``explanations()``), spelled out down to what a sentence
needs (each tribe card's lands and how each is reached, each tamer's way to
its Dragon). The engine has no words; writing those records as English
sentences (``scorekeeper.words``, Babel) is timed apart, as a third figure.
Target: the engine at least 2.5× the reference.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import reference  # noqa: E402

from scorekeeper.engine import RULESETS, Card, DragonScore, Kingdom, Row, TribeScore, score_kingdom  # noqa: E402
from scorekeeper.words import ENGLISH  # noqa: E402

CARDS = [card.value for card in Card]


def random_kingdoms(count: int, seed: int) -> list[list[list[str]]]:
    rng = random.Random(seed)
    return [[[rng.choice(CARDS) for _ in range(4)] for _ in range(4)] for _ in range(count)]


def engine_score(grid, ruleset: str) -> dict:
    """What is timed: score one kingdom and spell out every reason behind its
    rows, as the records the sentence writer reads."""
    score = score_kingdom(Kingdom.from_rows(grid), RULESETS[ruleset])
    for reasons in score.explanations().values():
        for reason in reasons:
            if type(reason) is TribeScore:
                reason.lands  # noqa: B018 - what is timed
            elif type(reason) is DragonScore:
                for _tribe, cells in reason.tamers:
                    for cell in cells:
                        reason.way_from(cell)
    return score.rows


def engine_and_english(grid, ruleset: str) -> dict:
    """Timed apart: score one kingdom and write every explanation as an English sentence."""
    score = score_kingdom(Kingdom.from_rows(grid), RULESETS[ruleset])
    for row in Row:
        ENGLISH.explain(score, row)
    return score.rows


def engine_rows(grid, ruleset: str) -> dict:
    """The engine's rows keyed like the reference's, to check they agree."""
    rows = engine_score(grid, ruleset)
    return {row.value: value for row, value in rows.items() if row is not Row.LEGENDS}


def best_rates(functions, kingdoms, ruleset: str, rounds: int) -> list[float]:
    """Kingdoms per second for each function, best of *rounds*.

    The rounds take turns (one round of each function, then again), so a
    machine that speeds up or slows down mid-run moves both figures alike.
    """
    best = [float("inf")] * len(functions)
    for _ in range(rounds):
        for index, function in enumerate(functions):
            start = time.perf_counter()
            for grid in kingdoms:
                function(grid, ruleset)
            best[index] = min(best[index], time.perf_counter() - start)
    return [len(kingdoms) / seconds for seconds in best]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kingdoms", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--only",
        choices=("engine", "english", "reference", "nothing"),
        help="score the kingdoms once with one side, untimed and unchecked (for counting instructions)",
    )
    args = parser.parse_args()
    kingdoms = random_kingdoms(args.kingdoms, args.seed)
    if args.only:
        function = {
            "engine": engine_score,
            "english": engine_and_english,
            "reference": reference.score,
            "nothing": lambda grid, ruleset: None,
        }
        for grid in kingdoms:
            function[args.only](grid, "pocket")
        return
    for ruleset in RULESETS:
        for grid in kingdoms:
            assert engine_rows(grid, ruleset) == reference.score(grid, ruleset), (ruleset, grid)
    print(f"engine and reference agree on {len(kingdoms)} random kingdoms in both rulesets")
    for ruleset in RULESETS:
        functions = (engine_score, reference.score, engine_and_english)
        ours, theirs, english = best_rates(functions, kingdoms, ruleset, args.rounds)
        print(
            f"{ruleset:8} engine {ours:8.0f} kingdoms/s (explanations on), "
            f"reference {theirs:8.0f} kingdoms/s: {ours / theirs:.1f}×; "
            f"with English sentences {english:8.0f} kingdoms/s: {english / theirs:.1f}×"
        )


if __name__ == "__main__":
    main()
