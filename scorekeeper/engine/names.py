"""When two typed names are the same player's (RULES.md R8): one function for the whole app.

R8 refuses two players whose names are equal "case-insensitive, surrounding
spaces ignored". What a person reads as the same name is wider than that, and
every part of the app (the engine's R8 check, the saved results, a group's
roster, the stats) must agree on it, so it is decided here only:

- Unicode NFC (two ways of typing "Zoë" are one name);
- surrounding white space ignored, and any run of white space inside, the
  no-break and other Unicode spaces included, read as one space
  ("Mia  Sophie" and "Mia\u00a0Sophie" are "Mia Sophie");
- invisible format characters (Unicode category Cf: zero-width space, soft
  hyphen, direction marks) ignored, except the joiners ZWJ/ZWNJ where they
  change what is shown: inside an emoji sequence ("👨‍👩‍👧", one family emoji,
  is not "👨👩👧", three people) or inside a word of a script that joins its
  letters (Persian "می‌خواهم"); and the tag characters of a flag sequence;
- case ignored (Unicode case folding, so "STRASSE" is "straße").
"""

from __future__ import annotations

import unicodedata

ZWJ = "\u200d"
ZWNJ = "\u200c"
_JOINERS = frozenset((ZWJ, ZWNJ))
_VARIATION_SELECTOR_EMOJI = "\ufe0f"
#: Scripts in which a joiner between two letters changes nothing that is shown.
_NON_JOINING_SCRIPTS = ("LATIN", "GREEK", "CYRILLIC", "ARMENIAN", "CJK", "HIRAGANA", "KATAKANA", "HANGUL")


def _is_emoji_part(ch: str) -> bool:
    """A pictograph, an emoji modifier (skin tone) or the emoji variation selector."""
    return unicodedata.category(ch) in ("So", "Sk") or ch == _VARIATION_SELECTOR_EMOJI


def _is_tag(ch: str) -> bool:
    return "\U000e0020" <= ch <= "\U000e007f"


def _is_joining_letter(ch: str) -> bool:
    """A letter or mark of a script whose letters a joiner can change (Arabic, Devanagari, …)."""
    if unicodedata.category(ch)[0] not in "LM" or ch.isascii():
        return False
    return not unicodedata.name(ch, "").startswith(_NON_JOINING_SCRIPTS)


def _keeps_joiner(before: str, after: str) -> bool:
    if _is_emoji_part(before) and _is_emoji_part(after):
        return True
    return _is_joining_letter(before) and _is_joining_letter(after)


def display_name(text: str) -> str:
    """*text* as the one form of its name: NFC, trimmed, white-space runs as one
    space, invisible format characters dropped (joiners kept where they show).

    >>> display_name("  Mia\u00a0 Sophie\u200b ")
    'Mia Sophie'
    """
    chars = unicodedata.normalize("NFC", text)
    kept: list[str] = []
    for i, ch in enumerate(chars):
        if ch.isspace():
            if kept and kept[-1] != " ":
                kept.append(" ")
            continue
        if unicodedata.category(ch) != "Cf":
            kept.append(ch)
        elif ch in _JOINERS:
            after = next((c for c in chars[i + 1 :] if unicodedata.category(c) != "Cf"), "")
            if kept and after and _keeps_joiner(kept[-1], after):
                kept.append(ch)
        elif _is_tag(ch) and kept and (_is_tag(kept[-1]) or _is_emoji_part(kept[-1])):
            kept.append(ch)
    return unicodedata.normalize("NFC", "".join(kept).strip(" "))


def name_key(text: str) -> str:
    """The key under which a name is the same player's: :func:`display_name`, case-folded.

    Stored beside every saved result and roster entry, so that a database
    index finds a player's games; see the module docstring for what it ignores.
    """
    return unicodedata.normalize("NFC", display_name(text).casefold())


def same_name(first: str, second: str) -> bool:
    """Whether two typed names are the same player's (R8's duplicate check, the roster, the stats)."""
    return name_key(first) == name_key(second)
