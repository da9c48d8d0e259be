"""The DRAKO: Aetherya Pocket scoring engine: pure standard library.

Import from here::

    from scorekeeper.engine import Game, score_game
    sheet = score_game(Game.from_dict(json.load(f)))

Sections of RULES.md are named in each docstring (R1 … R9).
"""

from .cards import LANDS, TRIBES, Card, parse_card
from .errors import (
    DuplicateLegend,
    GameError,
    GameErrors,
    InvalidGame,
    InvalidKingdom,
    InvalidPlayerName,
    PlayerCountError,
    UnknownCard,
    UnknownLegend,
    UnknownRuleset,
)
from .game import (
    MAX_NAME_LENGTH,
    MAX_PLAYERS,
    MIN_PLAYERS,
    DeckWarning,
    Game,
    Player,
    PlayerResult,
    ScoreSheet,
    Tiebreak,
    cards_over_deck,
    checked_name,
    claimed_legends,
    deck_warnings,
    score_game,
    score_game_dict,
    shows_a_name,
)
from .kingdom import Kingdom, Link, PortalNetwork, cell_name, position, rows_of
from .legends import LEGENDS, LEGENDS_BY_ID, Legend
from .names import display_name, name_key, same_name
from .rulesets import CLASSIC, DEFAULT_RULESET, POCKET, RULES_VERSION, RULESETS, Ruleset, get_ruleset
from .scoring import (
    Conflict,
    DragonScore,
    KingdomScore,
    LandPoints,
    LegendClaim,
    Reason,
    Row,
    TribeScore,
    is_legend_shown,
    score_kingdom,
)

__all__ = [
    "RULES_VERSION",
    "CLASSIC",
    "DEFAULT_RULESET",
    "LANDS",
    "LEGENDS",
    "LEGENDS_BY_ID",
    "MAX_NAME_LENGTH",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "POCKET",
    "RULESETS",
    "TRIBES",
    "Card",
    "Conflict",
    "DeckWarning",
    "DragonScore",
    "DuplicateLegend",
    "Game",
    "GameError",
    "GameErrors",
    "InvalidGame",
    "InvalidKingdom",
    "InvalidPlayerName",
    "Kingdom",
    "KingdomScore",
    "LandPoints",
    "Legend",
    "LegendClaim",
    "Link",
    "Player",
    "PlayerCountError",
    "PlayerResult",
    "PortalNetwork",
    "Reason",
    "Row",
    "Ruleset",
    "ScoreSheet",
    "Tiebreak",
    "TribeScore",
    "UnknownCard",
    "UnknownLegend",
    "UnknownRuleset",
    "cell_name",
    "position",
    "rows_of",
    "checked_name",
    "claimed_legends",
    "cards_over_deck",
    "deck_warnings",
    "get_ruleset",
    "parse_card",
    "score_game",
    "score_game_dict",
    "is_legend_shown",
    "score_kingdom",
    "shows_a_name",
    "display_name",
    "name_key",
    "same_name",
]
