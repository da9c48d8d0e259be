""" "Merge two players" starts with nothing chosen and says what it does (issue 35): a merge is
never one press away."""

from __future__ import annotations

from tests.web.test_groups import game_of, group_paths, phones, save, soup_of  # noqa: F401 (phones: a fixture)


def test_the_merge_form_starts_with_nothing_chosen_and_says_what_it_does(phones):  # noqa: F811
    phone, _, _ = phones
    save(phone, game_of("Ana", "Bo", "Cy", "Di"))
    [group_path] = group_paths(phone)
    merge = soup_of(phone.get(group_path + "?lang=de")).select_one("#merge")
    for select in merge.select("select"):
        chosen = select.select("option[selected]")
        assert [option["value"] for option in chosen] == [""] and select.has_attr("required")
    button = merge.select_one("#merge-button").get_text()
    assert button == "Zusammenführen: die Partien des ersten Spielers werden die des zweiten"
    # sent as it stands (a browser without the required check): refused, nothing merged
    refused = phone.post(f"{group_path}/players/merge", data={"source": "", "target": ""}, follow_redirects=True)
    assert "Nichts wurde zusammengeführt" in soup_of(refused).select_one("#flash").get_text()
