"""The blueprint ``games``: saved games, their corrections and revisions, History, a
player's stats, exports and imports (``/games``, ``/g/<id>``, ``/player``)."""
