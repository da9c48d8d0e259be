"""Every language: a language is an entry of LANGUAGES and a folder of
scorekeeper/translations (docs/languages.md), and every message of the
sources is translated in each, compiled, with its plural forms and its
parameters. The tests loop over the languages: a new one needs no edit here.

English is the message ids themselves and has no catalogue.
"""

from __future__ import annotations

import re
from functools import cache

import pytest
from babel import Locale
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from scorekeeper.engine import Card, parse_card
from scorekeeper.web.forms import KEYS, card_of_word, parse_kingdom_text, typed_words
from scorekeeper.words import ENGLISH, LANGUAGES, TRANSLATIONS, words_in

TRANSLATED = sorted(set(LANGUAGES) - {"en"})
ROOT = TRANSLATIONS.parent.parent
_FIELD = re.compile(r"%\((\w+)\)[sd]")


@cache
def source_messages() -> dict[tuple[str, str | None], object]:
    """Every message of the sources (pybabel's extraction, scripts/translations.py's keywords), by (id, context)."""
    with (TRANSLATIONS / "babel.cfg").open(encoding="utf-8") as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    keywords = {**DEFAULT_KEYWORDS, "N_": None, "_l": None}
    found = {}
    for _file, _line, message, _comments, context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=keywords
    ):
        key = message[0] if isinstance(message, tuple) else message
        found[(key, context)] = message
    return found


def catalogue(language: str):
    with (TRANSLATIONS / language / "LC_MESSAGES" / "messages.po").open("rb") as po:
        return read_po(po, locale=language)


def test_each_catalogue_folder_is_a_language_offered_and_each_language_has_one():
    folders = {path.parent.parent.name for path in TRANSLATIONS.glob("*/LC_MESSAGES/messages.po")}
    assert folders == set(TRANSLATED)
    for language, name in LANGUAGES.items():
        assert Locale.parse(language).language == language and name  # a code Babel knows, named in its own words


def test_the_sources_hold_the_messages_the_writer_and_the_pages_use():
    messages = source_messages()
    assert len(messages) > 500
    assert ("Score the game", None) in messages and ("Fo", "card code") in messages
    assert ("in conflict", None) in messages  # said beside a grid cell: written outside an f-string to be found


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated_and_compiled(language):
    """Each message of the sources has its words in *language*: not fuzzy, every
    plural form of the language's rule, the same parameters as the English
    (a singular may leave out the count: "in a minute"), and messages.mo
    compiled from this messages.po."""
    po = catalogue(language)
    with (TRANSLATIONS / language / "LC_MESSAGES" / "messages.mo").open("rb") as mo:
        compiled = read_mo(mo)
    for (key, context), message in source_messages().items():
        entry = po.get(key, context=context)
        assert entry is not None and not entry.fuzzy, (language, key, context)
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if isinstance(message, tuple):
            assert len(strings) == po.num_plurals, (language, key)
        assert all(strings), (language, key, context)
        english = set(_FIELD.findall(" ".join(message) if isinstance(message, tuple) else message))
        for text in strings:
            assert set(_FIELD.findall(text)) <= english, (language, key, text)
            assert english - set(_FIELD.findall(text)) <= {"num"}, (language, key, text)
        kept = compiled.get(key, context=context).string
        assert (tuple(kept) if isinstance(kept, list) else kept) == entry.string, "compile it: scripts/translations.py"
    assert not [error for error in po.check()], language  # Babel's own checks (python-format)


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_language_has_ten_different_two_letter_codes(language):
    words = words_in(language)
    codes = [words.code(card) for card in Card]
    assert len({code.lower() for code in codes}) == 10, codes
    assert all(len(code) == 2 and code.isalpha() for code in codes), codes


def test_no_typed_word_names_two_cards_in_any_two_languages():
    """Every language's words are read on every page, so a word (code, name)
    must mean the same card in all of them: the French Marais is ``Ma``, not a
    code already taken."""
    cards_of: dict[str, set[Card]] = {}
    for language in LANGUAGES:
        for card in Card:
            for word in words_in(language).typed(card):
                cards_of.setdefault(word, set()).add(card)
    assert {word: cards for word, cards in cards_of.items() if len(cards) > 1} == {}
    assert not set(cards_of) & set(KEYS)  # the one-letter keys are the palette's


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_s_codes_and_names_are_read_on_every_page(language):
    words = words_in(language)
    for card in Card:
        for word in (words.code(card), words.card(card), words.cards(card), words.card(card).upper()):
            assert card_of_word(word) is card, (language, word)
    assert typed_words()[words.code(Card.PORTAL).lower()] is Card.PORTAL
    line = " ".join([words.cards(Card.PORTAL), words.code(Card.FOREST), words.card(Card.PORTAL), "."])
    assert parse_kingdom_text("\n".join([line] * 4))[:4] == ["portal", "forest", "portal", ""]


def test_english_words_stay_the_engine_s():
    for card in Card:
        assert parse_card(ENGLISH.code(card)) is card and card_of_word(card.value) is card
