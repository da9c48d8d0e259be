"""Names that look the same but are typed with letters of another script (issue 33).

"Ada" and "Аda" (its first letter the Cyrillic А, U+0410) are drawn alike on
every phone, but no Unicode normal form makes them one: :func:`~.engine.name_key`
keeps them apart, and R8 alone would seat both at one table. Which letters of
one script look like which of another is Unicode's own list (the confusables
of Unicode Technical Standard #39, ``confusables.txt``), read here through the
``confusable_homoglyphs`` library (pure Python, that list and the scripts of
``Scripts.txt`` as data; the library Django's registration apps check user
names with). It is kept out of the engine, which is the standard library only
and starts as fast as a plain script: the list is a megabyte of JSON.

Two names *look alike* when their keys differ and, letter by letter, each
two letters that differ are of two scripts (neither of them the "common"
digits and punctuation, whose look-alikes such as "l" and "1" are told apart
by a reader) and the list gives one as the other's look-alike, in either
case. At a table and in a game such a name is refused as the same name as
the other (:func:`refused_lookalikes`); on a group's roster it is flagged
(:func:`lookalike_in`, :func:`mixes_lookalike_scripts`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from confusable_homoglyphs import categories, confusables

from .engine import GameError, InvalidPlayerName, name_key

#: Scripts of the list that are no script of their own: digits, punctuation, combining marks.
_NO_SCRIPT = frozenset(("COMMON", "INHERITED", "Unknown"))


def _look_alike_letters(first: str, second: str) -> bool:
    """Two different letters of two scripts that Unicode lists as look-alikes (either way round)."""
    scripts = (categories.alias(first), categories.alias(second))
    if scripts[0] == scripts[1] or _NO_SCRIPT.intersection(scripts):
        return False
    return any(alike["c"] == second for alike in confusables.confusables_data.get(first, ())) or any(
        alike["c"] == first for alike in confusables.confusables_data.get(second, ())
    )


def _alike_in_a_case(first: str, second: str) -> bool:
    """Letters of a key (case-folded) that look alike as small or as capital letters."""
    return first == second or any(
        _look_alike_letters(a, b) for a, b in ((first, second), (first.upper(), second.upper()))
    )


def looks_alike(first: str, second: str) -> bool:
    """Whether two names that are not the same name (:func:`~.engine.same_name`)
    are drawn alike: the same letters, but some from another script that
    Unicode lists as their look-alikes ("Ada" and "Аda" with a Cyrillic А).

    >>> looks_alike("Ada", "\\u0410da"), looks_alike("Ada", "Ada"), looks_alike("Al", "AI")
    (True, False, False)
    """
    return _keys_alike(name_key(first), name_key(second))


def _keys_alike(a: str, b: str) -> bool:
    if a == b or len(a) != len(b) or (a.isascii() and b.isascii()):
        return False
    return all(_alike_in_a_case(x, y) for x, y in zip(a, b, strict=True))


def lookalike_in(name: str, others: Iterable[str]) -> str | None:
    """The first of *others* that *name* looks like (:func:`looks_alike`), or ``None``."""
    return next((other for other in others if looks_alike(name, other)), None)


def lookalikes_among(names: Iterable[tuple[str, str]]) -> dict[str, str]:
    """For a roster, as (name, :func:`~.engine.name_key`) pairs: each name that
    looks like another of them (:func:`looks_alike`) → the first such other.

    Only a key with a letter beyond ASCII can look like another, and only one
    of its own length, so a roster of hundreds of plain names costs nothing.
    """
    by_length: dict[int, list[tuple[str, str]]] = {}
    for name, key in names:
        by_length.setdefault(len(key), []).append((name, key))
    found: dict[str, str] = {}
    for same_length in by_length.values():
        for name, key in same_length:
            for other, other_key in same_length:
                if name not in found and not (key.isascii() and other_key.isascii()) and _keys_alike(key, other_key):
                    found[name] = other
    return found


def refused_lookalikes(names: Sequence[str]) -> list[GameError]:
    """R8's duplicate check widened to look-alikes, for a game's or a table's
    *names* in seat order: one ``"name-looks-alike"`` error (``other``: the
    earlier name it looks like, ``player``: its index, ``player_name``) for
    each name that looks like an earlier one; ``[]`` if none does."""
    errors: list[GameError] = []
    for index, name in enumerate(names):
        other = lookalike_in(name, names[:index])
        if other is not None:
            errors.append(InvalidPlayerName("name-looks-alike", other=other, player=index, player_name=name))
    return errors


def mixes_lookalike_scripts(name: str) -> bool:
    """Whether *name* mixes scripts with a letter that Unicode lists as a
    look-alike of a letter of the name's main script (the script most of its
    letters are in): "Аda" does, "Zoë", "李 Ada" and "Ana-María" do not.

    >>> mixes_lookalike_scripts("\\u0410da"), mixes_lookalike_scripts("Zoë")
    (True, False)
    """
    scripts = Counter(categories.alias(ch) for ch in name if categories.alias(ch) not in _NO_SCRIPT)
    if len(scripts) < 2:
        return False
    main = scripts.most_common(1)[0][0]
    return bool(confusables.is_confusable(name, preferred_aliases=[main, *_NO_SCRIPT]))
