"""Look-alike names (scorekeeper/lookalikes.py, issue 33): Unicode's confusables, letter by
letter across scripts, never within one script or for the same name."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.engine import same_name
from scorekeeper.lookalikes import looks_alike, mixes_lookalike_scripts, refused_lookalikes

#: Latin letters and their Cyrillic look-alikes (Unicode's confusables.txt lists each pair).
LATIN, CYRILLIC = "AaBCcEeHKMOoPpTXxy", "АаВСсЕеНКМОоРрТХху"
letters = st.text(st.sampled_from(LATIN + CYRILLIC + "dnl '"), min_size=1, max_size=8)


@given(letters, letters)
def test_looking_alike_is_symmetric_and_never_the_same_name(first, second):
    assert looks_alike(first, second) == looks_alike(second, first)
    assert not (looks_alike(first, second) and same_name(first, second))


@given(st.text(st.sampled_from(LATIN), min_size=1, max_size=8), st.data())
def test_a_latin_name_with_any_letter_made_cyrillic_looks_like_it(name, data):
    index = data.draw(st.integers(0, len(name) - 1))
    alike = name[:index] + CYRILLIC[LATIN.index(name[index])] + name[index + 1 :]
    assert looks_alike(name, alike)
    assert [(e.message_id, e.params["other"]) for e in refused_lookalikes([name, "Bo", alike])] == [
        ("name-looks-alike", name)
    ]


def test_letters_of_one_script_that_look_alike_are_two_names():
    assert not looks_alike("Al", "AI") and not looks_alike("Bo1", "Bol") and not looks_alike("rn", "m")


def test_a_name_mixing_scripts_with_a_look_alike_letter():
    assert mixes_lookalike_scripts("\u0410da")  # the Cyrillic А among Latin letters
    assert not any(map(mixes_lookalike_scripts, ("Ada", "Zoë", "Дарси", "李 Ada", "Ana-María", "D’Arcy")))
