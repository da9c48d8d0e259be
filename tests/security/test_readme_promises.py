"""The README's promises about secrets and groups, each with the tests that check it
(issue 24: "The README's promises about secrets and groups hold as written").

Each promise is a short exact quote of the README or the pages of docs/ it leads to
(since issue 25 the README is a front door; compared with runs of white space read as
one space) and the node ids of the tests that check it as written. The quote
must still be in the README, so a README change that drops or rewords a promise fails
here and its tests get looked at again; each test named must exist, so a renamed or
removed test fails here too. A new promise about secrets or groups gets a line here.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PRIVATE = "tests/web/test_private_link.py::"
GAMES = "tests/web/test_games.py::"
ONCE = "tests/web/test_saving_once.py::"
GROUPS = "tests/web/test_groups.py::"
PAGES = "tests/web/test_table_pages.py::"
CHOICE = "tests/web/test_group_choice.py::"
API = "tests/web/test_tables_api.py::"
SERVICE = "tests/table/test_service.py::"
LOGS = "tests/web/test_logs.py::"
HEADERS = "tests/security/test_headers_and_limits.py::"
SECRET_FREE_RUN = "tests/serving/test_logs_hold_no_secret.py::test_no_log_of_a_run_holds_a_secret_it_used"

PROMISES: list[tuple[str, list[str]]] = [
    # -- saved games: the private link and the phone's edit cookie
    # saving lands on the read-only page, which shows the private link once
    (
        "That page shows, this once, the **private link** (`/g/<id>/<secret>`)",
        [PRIVATE + "test_saving_lands_on_the_read_only_address_with_the_secret_only_in_the_copy_box"],
    ),
    # only the private link (or its cookie) corrects or deletes; a wrong secret finds nothing
    (
        "that alone can correct or delete the game",
        [GAMES + "test_read_only_link_cannot_edit_or_delete", GAMES + "test_wrong_secret_is_a_404"],
    ),
    # the secret is never the page's address, nor in what it shares
    (
        "it never stands in the address bar, so the phone's own Share or Copy link cannot pass it on",
        [
            PRIVATE + "test_saving_lands_on_the_read_only_address_with_the_secret_only_in_the_copy_box",
            PRIVATE + "test_an_old_private_link_is_remembered_and_leaves_the_address_bar",
            "tests/web/test_share.py::test_a_saved_game_shares_its_read_only_link_never_the_private_one",
        ],
    ),
    # the edit cookie's name, path, flags, lifetime and size
    (
        "a signed cookie per game: `edit-<id>`, sent only to `/g/<id>…`, `HttpOnly`, `SameSite=Lax`, "
        "`Secure` over HTTPS, kept 400 days, about 90 bytes",
        [
            PRIVATE + "test_the_phone_remembers_its_secret_in_a_signed_cookie_of_that_game",
            PRIVATE + "test_the_edit_cookie_is_kept_400_days_about_90_bytes_and_secure_only_over_https",
            "tests/security/test_attack_findings.py::test_session_cookie_holds_no_edit_secret",
        ],
    ),
    # the saving phone keeps Correct and Delete on the read-only page
    (
        'keeps "Correct" and "Delete" on the read-only page (`/g/<id>/edit`, `/g/<id>/delete`)',
        [PRIVATE + "test_saving_lands_on_the_read_only_address_with_the_secret_only_in_the_copy_box"],
    ),
    # another phone opening the private link is remembered and redirected
    (
        "another phone opening the private link gets the same cookie and is sent on to the read-only address",
        [PRIVATE + "test_an_old_private_link_is_remembered_and_leaves_the_address_bar"],
    ),
    # a new secret key: cookies forgotten, private links kept
    (
        "A new secret key makes phones forget these cookies; the private links still work.",
        [PRIVATE + "test_a_new_secret_key_forgets_the_cookies_but_not_the_private_links"],
    ),
    # no-store wherever a secret is: private pages, invite pages, every table page
    (
        "Pages that hold a secret are sent `Cache-Control: no-store`",
        [
            PRIVATE + "test_pages_that_hold_a_secret_are_not_stored",
            GROUPS + "test_the_invite_link_adds_the_group_to_another_phone",
            PAGES + "test_every_table_page_is_sent_no_store",
        ],
    ),
    # no Referer from any page
    (
        "no page sends a Referer (`Referrer-Policy: no-referrer` everywhere",
        [PRIVATE + "test_no_page_sends_a_referer", HEADERS + "test_security_headers_on_every_response"],
    ),
    # the same save form twice hands its phone the private link; anyone else gets the read-only game
    (
        "the same form sent twice still hands its phone the private link (and stores one game even into "
        '"A new group": the edit secret\'s hash is unique too), while anyone else gets the read-only game',
        [
            ONCE + "test_the_same_form_posted_twice_stores_one_game_and_keeps_its_private_link",
            ONCE + "test_parallel_posts_of_the_same_form_store_one_game",
            ONCE + "test_back_and_save_again_or_a_second_phone_of_the_group_gets_the_game_already_saved",
        ],
    ),
    # a sheet saved by another group's phone: never a link into that group, a copy of one's own (issue 33)
    (
        "A phone of another group (or of none) is never linked to another group's game:** its sheet offers the "
        "save form, and saving puts a copy of the game of its own into its own group.",
        [GROUPS + "test_a_sheet_saved_by_another_groups_phone_never_links_there_and_is_saved_into_ones_own"],
    ),
    # edit secrets: only their SHA-256 is stored ("compared in constant time": see below)
    (
        "Edit secrets are stored hashed",
        [PRIVATE + "test_edit_secrets_are_stored_as_their_sha256_only"],
    ),
    # -- rematch and groups
    # the rematch link holds no group; the phone's own last group is offered first
    (
        "The new game's save form offers first the group this phone saved in last, so a rematch saved from the "
        "same phone goes to the same group without a choice; the link itself carries no group",
        [GROUPS + "test_a_rematch_link_carries_no_group_and_its_phone_saves_in_the_same_group"],
    ),
    # the first save starts a group, "Our games" unless named
    (
        'the first save on a phone starts one; left empty it is called "Our games"',
        [GROUPS + "test_a_first_save_left_unnamed_starts_a_group_called_our_games"],
    ),
    # history, stats and exports show this phone's groups' games only, notes included
    (
        "History, player stats and the exports (`/games`, `/player`, `/games.json`, `/games.csv`) show only the "
        "games of this phone's groups, so two groups never see each other's games, notes included",
        [
            GROUPS + "test_two_groups_never_see_each_others_games",
            GROUPS + "test_two_groups_never_see_each_others_notes",
        ],
    ),
    # one group's Rin is not another's
    (
        '"Rin" of one group is not "Rin" of another',
        [GROUPS + "test_two_groups_never_see_each_others_games"],
    ),
    # the invite link adds the group and moves on to its page; those pages are no-store, no-referrer
    (
        "opening the link (or scanning the code) adds the group to that phone and moves on to the group's page, "
        "so the secret does not stay in the address bar (the pages holding it send `Cache-Control: no-store` "
        "and `Referrer-Policy: no-referrer`)",
        [GROUPS + "test_the_invite_link_adds_the_group_to_another_phone"],
    ),
    # the save form offers first the group this phone chose itself: a save or a lock
    (
        "The save form offers first the group this phone itself chose last (saved a game in, or locked a table in)",
        [
            GROUPS + "test_saving_into_a_new_group_or_a_chosen_one",
            PAGES + "test_the_group_a_table_was_locked_in_is_offered_first_on_the_hosts_next_save",
        ],
    ),
    # a phone in a group is never offered "A new group" first (issue 33); a group it chose beats a link's
    (
        'else the group it joined last (an invite link, a locked table\'s "Add it to my History"): never "A new '
        'group" to a phone in a group, where a tap without reading would start another.',
        [
            GROUPS + "test_an_invite_link_does_not_choose_where_the_next_game_goes",
            GROUPS + "test_a_phone_whose_only_group_came_from_a_link_is_offered_it_never_a_new_group",
            GROUPS + "test_groups_of_a_cookie_from_before_the_mark_are_not_chosen",
            PAGES + "test_every_phone_seated_at_a_locked_table_adds_its_group_in_one_tap",
            CHOICE + "test_a_phone_whose_only_group_came_from_add_it_to_my_history_saves_there_by_default",
        ],
    ),
    # a saved game moves between two groups of one phone (issue 33)
    (
        "on a phone in both groups: it keeps its links and revisions, its players join the new group's roster by "
        "name, and both groups' standings catch up",
        [CHOICE + "test_a_saved_game_moves_to_another_group_of_a_phone_in_both_and_both_standings_follow"],
    ),
    # the groups cookie: signed, HttpOnly, Lax, at most 20
    (
        "(`groups`: signed with the secret key, `HttpOnly`, `SameSite=Lax`, at most 20 groups)",
        [
            GROUPS + "test_a_forged_or_foreign_cookie_opens_nothing",
            GROUPS + "test_the_invite_link_adds_the_group_to_another_phone",
            GROUPS + "test_a_phone_belongs_to_at_most_20_groups",
        ],
    ),
    # the cookie holds invite secrets; the server their SHA-256 only
    (
        "holding the groups' invite secrets; the server keeps only their SHA-256",
        [GROUPS + "test_only_the_sha256_of_an_invite_secret_is_stored"],
    ),
    # leaving, and coming back by the invite link
    (
        '"Leave this group" takes it off the phone; the invite link brings it back.',
        [
            GROUPS + "test_leaving_a_group_takes_its_games_off_this_phone",
            GROUPS + "test_leaving_a_group_and_opening_its_invite_link_brings_it_back",
        ],
    ),
    # an open history for a family server
    (
        "`SCOREKEEPER_OPEN_HISTORY=true` shows every game to everyone instead",
        [GROUPS + "test_open_history_shows_every_game_to_everyone"],
    ),
    # -- a visitor without a group link
    (
        "the new-game form and any sheet; a saved game's read-only page (`/g/<id>`, its PDF and exports) when "
        "they have its link, without the links to its players' stats",
        [
            GROUPS + "test_a_visitor_without_a_group_link_gets_a_saved_game_by_its_link_and_empty_exports",
            GROUPS + "test_a_visitor_without_a_group_link_gets_a_saved_games_pdf_by_its_link",
            GROUPS + "test_two_groups_never_see_each_others_games",
        ],
    ),
    (
        "History says that this phone is in no group and how to join or start one; player stats are a 404 and "
        "the exports are empty.",
        [
            GROUPS + "test_two_groups_never_see_each_others_games",
            GROUPS + "test_a_visitor_without_a_group_link_gets_a_saved_game_by_its_link_and_empty_exports",
        ],
    ),
    (
        "A group's page is a 404 to anyone not in the group, exactly like a group that does not exist.",
        [GROUPS + "test_a_groups_page_is_the_same_404_to_a_stranger_as_a_group_that_does_not_exist"],
    ),
    # a replaced invite link: phones that joined with the old one are out
    (
        "(phones that joined with the old link must open the new one)",
        [GROUPS + "test_a_new_invite_link_locks_out_phones_that_joined_with_the_old_one"],
    ),
    # -- the shared table
    (
        "The phone's secret for the table stays in a cookie (`HttpOnly`, `SameSite=Lax`, `Secure` over HTTPS)",
        [PAGES + "test_the_seat_secret_is_an_httponly_lax_cookie_secure_over_https"],
    ),
    (
        "Only the host's phone gets the private link that corrects or deletes the game.",
        [PAGES + "test_four_phones_enter_check_and_lock_into_case_19s_sheet"],
    ),
    # the lock's group: the one chosen beside the button, or a new one on the host's phone
    (
        "The game goes to a group as a save does: the one chosen beside the lock button",
        [
            PAGES + "test_a_refused_lock_keeps_no_new_group_and_a_lock_goes_to_the_group_chosen",
            PAGES + "test_a_host_whose_lock_answer_was_lost_gets_the_new_group_on_the_locked_page",
        ],
    ),
    # "Add it to my History": a signed table pass, ended by a new invite link
    (
        "it gets a table pass for the group, signed by the app and never the group's invite secret, which stops "
        "working when the group's invite link is replaced.",
        [PAGES + "test_every_phone_seated_at_a_locked_table_adds_its_group_in_one_tap"],
    ),
    # the groups seated phones offer for the lock, shown to the host's phone only (issue 33)
    (
        "Only the host's phone is shown the name of a group offered (with whose phone offered it), never another "
        "seated phone, the live part or the big screen",
        [CHOICE + "test_a_borrowed_hosts_phone_locks_the_table_into_the_group_a_seated_phone_offers"],
    ),
    # after the lock, a seated phone adds the game to its own group, once (issue 33)
    (
        "copy of the game goes there (once, however often it is tapped: a group holds one game per sheet)",
        [CHOICE + "test_after_the_lock_a_seated_phone_adds_the_game_to_its_own_group_in_one_tap"],
    ),
    (
        "(A table locked through the JSON API goes to no group unless it names one.)",
        [
            API + "test_case_19_through_the_api_alone_gives_the_engines_game",
            API + "test_the_host_puts_the_locked_game_in_a_group",
        ],
    ),
    (
        "`400 group-unknown` if the pair does not open it",
        [API + "test_the_host_puts_the_locked_game_in_a_group"],
    ),
    # the API's secrets: Bearer only, 192 bits, SHA-256, no cookie, no CSRF token
    (
        "They are 192 random bits, stored only as SHA-256",
        [
            API + "test_secrets_are_192_random_bits_kept_as_sha256_and_the_api_reads_no_cookie",
            SERVICE + "test_secrets_are_stored_only_as_hashes",
        ],
    ),
    (
        "the API reads no cookie as a credential (the wrong-code limit's `sk_phone` id allows nothing), so it needs"
        " no CSRF token.",
        [API + "test_secrets_are_192_random_bits_kept_as_sha256_and_the_api_reads_no_cookie"],
    ),
    (
        "for shared tables, takes its secrets from the `Authorization` header only",
        [
            API + "test_secrets_are_192_random_bits_kept_as_sha256_and_the_api_reads_no_cookie",
            API + "test_only_a_seats_own_phone_or_the_host_changes_it",
        ],
    ),
    # the edit link of a locked table: the host's alone, the same each time
    (
        "The edit link's secret is derived from the host's (HMAC), so only the host gets it, every time they lock.",
        [
            API + "test_case_19_through_the_api_alone_gives_the_engines_game",
            API + "test_lock_answers_409_with_every_reason_and_only_to_the_host",
        ],
    ),
    # a stream's ticket: a guessed code watches nothing
    (
        "a code only guessed watches nothing",
        [SERVICE + "test_a_stream_needs_a_ticket_signed_for_a_table"],
    ),
    # -- logs
    (
        "The app names each answer's *route* in a header (`/join/<public_id>/<secret>`, numbers kept, no query "
        "string; every route, later ones included",
        [
            LOGS + "test_every_answer_names_its_route_without_its_values",
            LOGS + "test_a_path_of_no_route_is_named_by_its_first_part",
        ],
    ),
    # nginx logs the route, drops the header, and logs its own answers by the path's first part
    (
        "nginx's access log writes that instead of the path, and takes the header off the answer; what nginx "
        "answers itself it logs with the path's first part only",
        ["tests/serving/test_proxy.py::test_the_access_log_writes_no_secret_of_a_path"],
    ),
    (
        "The app's error log writes the route too, and database errors leave out their statements' values "
        "(`hide_parameters`). gunicorn writes no access log",
        [
            LOGS + "test_the_error_log_writes_the_route_not_the_secret",
            LOGS + "test_database_errors_leave_out_their_statements_values",
            "tests/serving/test_deploy_files.py::test_gunicorn_writes_no_access_log",
        ],
    ),
    # gunicorn's own lines about a request (issue 32, item 8)
    (
        "its own lines about a request (`Error handling request POST /g/<public_id>/<secret>/edit` for a worker "
        "stopped after 30 s on one request, `Invalid request from ip=…` quoting a request line it refuses) write "
        "the route as well",
        [
            LOGS + "test_gunicorns_own_lines_write_the_route_not_the_secret",
            LOGS + "test_the_development_servers_line_per_request_writes_the_route",
            SECRET_FREE_RUN,
        ],
    ),
    # nginx's error log: critical errors only (every lesser line names the request line)
    ("so the site writes only critical errors to it", [SECRET_FREE_RUN]),
    # -- headers, cookies and forms everywhere
    (
        "Every response carries a Content-Security-Policy without `unsafe-inline` (no inline script or style "
        "anywhere), `frame-ancestors 'none'`, `X-Content-Type-Options: nosniff` and `Referrer-Policy: no-referrer`",
        [HEADERS + "test_security_headers_on_every_response", HEADERS + "test_no_inline_scripts_or_styles_anywhere"],
    ),
    (
        "the EN / DE / FR / IT / ES links in the header switch it (`?lang=de` on any page) and a cookie "
        "remembers the choice (`Secure` over HTTPS)",
        [PRIVATE + "test_the_language_cookie_is_secure_over_https"],
    ),
    (
        "served over HTTPS: redirect http, send HSTS, mark cookies `Secure`",
        [
            HEADERS + "test_https_mode_redirects_and_marks_cookies_secure",
            HEADERS + "test_plain_http_by_default_has_no_secure_cookie_or_hsts",
        ],
    ),
    (
        "the session cookie is `SameSite=Lax`",
        [HEADERS + "test_the_session_cookie_is_samesite_lax"],
    ),
    (
        "Every form that changes something has a CSRF token",
        [
            GROUPS + "test_roster_forms_need_membership_and_a_csrf_token",
            PAGES + "test_a_post_without_its_csrf_token_changes_nothing_and_says_so",
            "tests/security/test_refusals.py::test_expired_delete_import_and_save_forms_get_the_error_page",
        ],
    ),
    (
        "Errors never show a traceback.",
        [HEADERS + "test_error_pages_never_show_a_traceback"],
    ),
    (
        "a secret key is generated once into the instance folder (`instance/secret_key`, mode 0600)",
        [HEADERS + "test_secret_key_generated_once_into_the_instance_folder"],
    ),
]

#: Promises read in the README that no test can check by what the app does: how long a
#: comparison takes is timing, which lives in bench/, never in assertions. They are kept
#: by reading the code (``hmac.compare_digest`` in store/groups.py, store/games.py and
#: table/model.py); listed so that they stay in sight.
READ_IN_THE_CODE: list[str] = [
    "the server keeps only their SHA-256, compared in constant time",
    "stored only as SHA-256 and compared in constant time",
    "Edit secrets are stored hashed and compared in constant time.",
]


def readme() -> str:
    """README.md and docs/*.md, with every run of white space read as one space."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    return " ".join(" ".join(page.read_text(encoding="utf-8").split()) for page in pages)


def quote_id(quote: str) -> str:
    return " ".join(quote.split())[:60]


@pytest.mark.parametrize("quote", [quote for quote, _ in PROMISES] + READ_IN_THE_CODE, ids=quote_id)
def test_the_readme_still_makes_the_promise(quote):
    assert " ".join(quote.split()) in readme(), "the README no longer says this; look at its tests again"


def test_every_promise_names_tests_and_is_listed_once():
    quotes = [quote for quote, _ in PROMISES]
    assert len(set(quotes)) == len(quotes)
    assert all(tests for _, tests in PROMISES)


@pytest.mark.parametrize("node_id", sorted({node for _, tests in PROMISES for node in tests}))
def test_each_named_test_exists(node_id):
    path, _, name = node_id.partition("::")
    assert path.startswith("tests/") and path.endswith(".py") and (ROOT / path).is_file(), node_id
    module = importlib.import_module(path.removesuffix(".py").replace("/", "."))
    assert name.startswith("test_") and callable(getattr(module, name, None)), node_id
