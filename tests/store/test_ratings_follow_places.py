"""Ratings that respect the places (issue 33, item 1): the property the rating model was
chosen by (store/standing.py, docs/standing.md), over games of 2 to 4 players with shared
places (R7.4).

- After one game from equal ratings, a strictly better place gives a strictly higher rating
  (the ordinal, mu − 3·sigma, as the standing shows it to one decimal, and mu) and a shared
  place an equal one.
- Over any sequence of games, a player who finished ahead of another in every game they
  played, the two always at the table together, is rated above them.

The second property says "always together" because without it no model can keep it: Ada
beats Bo once, then Bo beats Cy ten times and Cy beats Ada ten times; every rating worth
the name puts Bo above Ada although Ada finished ahead in the one game they shared.

The same checks, run on OpenSkill's other models (openskill 6.2.0): ``BradleyTerryFull``
(chosen), ``BradleyTerryPart``, ``ThurstoneMostellerFull`` and ``ThurstoneMostellerPart``
keep both; ``PlackettLuce``, the library's default and this app's model before, fails the
first with a shared place: the issue's game below.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from scorekeeper.store.standing import Rating, new_rating, ordinal, rate_game


def shown(rating: Rating) -> str:
    """The rating as the standing shows it: the ordinal to one decimal."""
    return f"{ordinal(rating.mu, rating.sigma):.1f}"


@st.composite
def places(draw: st.DrawFn, players: int) -> list[int]:
    """R7's places of *players* seats: 1 for the best, a shared place repeated and the
    next skipped (``[1, 1, 3, 4]``), from totals drawn small so that ties are common."""
    totals = draw(st.lists(st.integers(0, 3), min_size=players, max_size=players))
    return [1 + sum(other > total for other in totals) for total in totals]


def assert_follows_places(after: list[Rating], places: list[int], *, as_shown: bool) -> None:
    """Better place, higher rating (and mu); shared place, the same rating (and mu)."""
    for (one, place), (other, other_place) in itertools.permutations(zip(after, places, strict=True), 2):
        if place < other_place:
            assert ordinal(one.mu, one.sigma) > ordinal(other.mu, other.sigma), (places, after)
            assert one.mu > other.mu, (places, after)
            if as_shown:
                assert float(shown(one)) > float(shown(other)), (places, after)
        elif place == other_place:
            assert (one.mu, one.sigma) == (other.mu, other.sigma), (places, after)


@settings(max_examples=300)
@given(st.integers(2, 4).flatmap(places))
def test_after_one_game_of_new_players_a_better_place_shows_a_higher_rating(game: list[int]):
    assert_follows_places(rate_game([new_rating() for _ in game], game), game, as_shown=True)


@settings(max_examples=300)
@given(st.floats(0, 50), st.floats(0.5, 25 / 3), st.integers(2, 4).flatmap(places))
def test_after_one_game_from_any_equal_ratings_a_better_place_rates_higher(mu: float, sigma: float, game: list[int]):
    assert_follows_places(rate_game([Rating(mu, sigma) for _ in game], game), game, as_shown=False)


@st.composite
def evenings(draw: st.DrawFn) -> tuple[int, list[list[int | None]]]:
    """A group of 2 to 4 players and up to 25 games, each a table of at least two of them
    with their places (``None``: not at that table)."""
    players = draw(st.integers(2, 4))
    games = []
    for _ in range(draw(st.integers(1, 25))):
        seated = draw(st.lists(st.sampled_from(range(players)), min_size=2, max_size=players, unique=True))
        game_places = draw(places(len(seated)))
        games.append([game_places[seated.index(p)] if p in seated else None for p in range(players)])
    return players, games


@settings(max_examples=500)
@given(evenings())
@example((4, [[1, 1, 3, 4]]))  # the issue's game: Plackett-Luce rates Cy (3rd) above Ada and Bo
@example((3, [[1, 2, 3], [2, 1, None], [None, 1, 2]]))
def test_ahead_in_every_game_together_is_never_rated_below(evening: tuple[int, list[list[int | None]]]):
    players, games = evening
    ratings = [new_rating() for _ in range(players)]
    for game in games:
        seated = [p for p in range(players) if game[p] is not None]
        for player, rating in zip(
            seated, rate_game([ratings[p] for p in seated], [game[p] or 0 for p in seated]), strict=True
        ):
            ratings[player] = rating
    for ahead, behind in itertools.permutations(range(players), 2):
        theirs = [(game[ahead], game[behind]) for game in games if (game[ahead], game[behind]) != (None, None)]
        if theirs and all(mine is not None and other is not None and mine < other for mine, other in theirs):
            assert ordinal(ratings[ahead].mu, ratings[ahead].sigma) > ordinal(ratings[behind].mu, ratings[behind].sigma)


def test_the_issues_game_two_share_first_and_third_does_not_top():
    """Ada and Bo share place 1, Cy is 3rd, Di 4th, all new: Bradley-Terry (openskill 6.2.0)
    gives Ada and Bo mu 30.271, sigma 7.502 (7.8 shown), Cy 22.365 (−0.1), Di 17.094 (−5.4)."""
    ada, bo, cy, di = rate_game([new_rating() for _ in range(4)], [1, 1, 3, 4])
    assert [shown(r) for r in (ada, bo, cy, di)] == ["7.8", "7.8", "-0.1", "-5.4"]
    assert [round(r.mu, 3) for r in (ada, bo, cy, di)] == [30.271, 30.271, 22.365, 17.094]
    assert round(ada.sigma, 3) == round(di.sigma, 3) == 7.502


def test_plackett_luce_fails_the_property_the_issues_game():
    """The check can fail: the model before, on the issue's game, rates the 3rd place as high
    as the shared 1st in mu and above it in the rating shown (Cy 1.4, Ada and Bo 1.1, Di −2.3)."""
    model = PlackettLuce()
    after = [team[0] for team in model.rate([[model.rating()] for _ in range(4)], ranks=[1.0, 1.0, 3.0, 4.0])]
    assert [f"{r.ordinal():.1f}" for r in after] == ["1.1", "1.1", "1.4", "-2.3"]
    with pytest.raises(AssertionError):
        assert_follows_places([Rating(r.mu, r.sigma) for r in after], [1, 1, 3, 4], as_shown=True)
