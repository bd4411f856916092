"""Claim numbers in the admin: offered in order, renumbered only as drafts, unique per episode."""

import re
from html import unescape

from claims.models import Claim, ClaimStatus
from tests.claims.admin_forms import claim_change_form
from tests.claims.test_admin import episode_form
from tests.factories import make_claim, make_episode, make_speaker

CLAIMS = "/admin/claims/claim/"
EPISODES = "/admin/episodes/episode/"


def input_tag(html, name):
    return re.search(rf'<input[^>]*name="{name}"[^>]*>', html).group(0)


def value_of(html, name):
    return re.search(r'value="([^"]*)"', input_tag(html, name)).group(1)


def errors(response):
    """The text of every error list on the page."""
    lists = re.findall(
        r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', response.content.decode(), re.S
    )
    return [" ".join(unescape(re.sub(r"<[^>]*>", " ", item)).split()) for item in lists]


def inline_rows(episode):
    """The episode's drafts as its change form posts them back, unchanged (its published
    claims are a table, not forms)."""
    return [row_of(claim) for claim in episode.claims.drafts().order_by("number")]


def row_of(claim):
    fields = ("number", "type", "status", "excerpt", "attribution", "unresolved_label")
    row = {name: getattr(claim, name) for name in fields}
    return {**row, "id": claim.pk, "speaker": claim.speaker_id or "", "episode": ""}


def post_episode(editor_client, episode, rows, new_rows=()):
    data = episode_form(episode.podcast, [*rows, *new_rows], title=episode.title, slug=episode.slug)
    data["claims-INITIAL_FORMS"] = len(rows)
    for i in range(len(rows)):
        data[f"claims-{i}-episode"] = episode.pk
    return editor_client.post(f"{EPISODES}{episode.pk}/change/", data)


def test_add_claim_for_an_episode_offers_its_next_number(editor_client):
    episode = make_episode()
    for number in (1, 2, 5):
        make_claim(episode, number=number)

    html = editor_client.get(f"{CLAIMS}add/", {"episode": episode.pk}).content.decode()

    assert value_of(html, "number") == "6"


def test_add_claim_without_an_episode_leaves_the_number_to_the_editor(editor_client):
    html = editor_client.get(f"{CLAIMS}add/").content.decode()

    assert "value=" not in input_tag(html, "number")


def test_the_blank_claim_below_an_episodes_ledger_offers_the_next_number(editor_client):
    episode = make_episode()
    make_claim(episode, number=1)
    make_claim(episode, number=7, status=ClaimStatus.DRAFT)

    html = editor_client.get(f"{EPISODES}{episode.pk}/change/").content.decode()

    # The draft is the inline's first row, the blank one its second.
    assert value_of(html, "claims-1-number") == "8"


def test_the_blank_claim_left_as_offered_is_not_saved(editor_client):
    episode = make_episode()
    make_claim(episode, number=1, speaker=make_speaker())
    # As a browser sends the untouched row: no type chosen, the defaults left.
    blank = {"number": 2, "type": "", "excerpt": "", "status": ClaimStatus.DRAFT}

    response = post_episode(editor_client, episode, inline_rows(episode), [blank])

    assert response.status_code == 302
    assert episode.claims.count() == 1


def test_a_draft_is_renumbered_on_its_page(editor_client):
    claim = make_claim(status=ClaimStatus.DRAFT, number=3)

    response = editor_client.post(f"{CLAIMS}{claim.pk}/change/", claim_change_form(claim, number=4))

    assert response.status_code == 302
    claim.refresh_from_db()
    assert claim.number == 4


def test_a_published_claims_number_is_shown_but_not_editable_in_its_episode(editor_client):
    episode = make_episode()
    published = make_claim(episode, number=1)
    make_claim(episode, number=2, status=ClaimStatus.DRAFT)

    html = editor_client.get(f"{EPISODES}{episode.pk}/change/").content.decode()

    # The published claim is a row of the table, its number a link to its own page;
    # the draft is the inline's only claim, its number editable.
    assert f'<a href="{CLAIMS}{published.pk}/change/" aria-label="Change claim 01">01</a>' in html
    assert value_of(html, "claims-0-number") == "2"
    assert " disabled" not in input_tag(html, "claims-0-number")
    assert "claims-2-number" not in html


def test_a_published_claim_keeps_its_number_whatever_the_episode_form_sends(editor_client):
    episode = make_episode()
    claim = make_claim(episode, number=1)
    # As a page opened while the claim was a draft would send it, renumbered.
    row = {**row_of(claim), "number": 9, "status": ClaimStatus.DRAFT}

    response = post_episode(editor_client, episode, [row])

    assert response.status_code == 200
    assert errors(response)[0] == (
        "A claim on this page was published, retracted or deleted since the page was opened: "
        "reload the page to see the episode's claims as they are now."
    )
    claim.refresh_from_db()
    assert claim.number == 1
    assert episode.claims.count() == 1


def test_a_number_taken_in_the_episode_is_refused_on_the_add_form(editor_client):
    taken = make_claim(number=4)
    data = claim_change_form(taken, number=4, status=ClaimStatus.DRAFT, excerpt="Other words.")

    response = editor_client.post(f"{CLAIMS}add/", data)

    assert response.status_code == 200
    assert errors(response) == [
        f"Claim 04 of “{taken.episode.title}” already exists: choose another number "
        "(the next free one is 5)."
    ]
    assert Claim.objects.count() == 1


def test_renumbering_a_draft_onto_a_taken_number_is_refused(editor_client):
    episode = make_episode()
    make_claim(episode, number=1)
    draft = make_claim(episode, number=2, status=ClaimStatus.DRAFT)

    response = editor_client.post(f"{CLAIMS}{draft.pk}/change/", claim_change_form(draft, number=1))

    assert response.status_code == 200
    assert any("Claim 01 of" in error and "already exists" in error for error in errors(response))
    draft.refresh_from_db()
    assert draft.number == 2


def test_a_new_inline_claim_with_a_taken_number_is_refused(editor_client):
    episode = make_episode()
    make_claim(episode, number=1, speaker=(ada := make_speaker()))
    new = {"number": 1, "excerpt": "New words.", "speaker": ada.pk, "status": ClaimStatus.DRAFT}

    response = post_episode(editor_client, episode, inline_rows(episode), [new])

    assert response.status_code == 200
    assert errors(response)[0] == (
        "Claim 01 of this episode is published and keeps its number: give this claim another."
    )
    assert episode.claims.count() == 1


def test_two_new_inline_claims_with_one_number_are_refused(editor_client):
    episode, ada = make_episode(), make_speaker()
    new = [
        {"number": 3, "excerpt": f"Words {n}.", "speaker": ada.pk, "status": ClaimStatus.DRAFT}
        for n in (1, 2)
    ]

    response = post_episode(editor_client, episode, [], new)

    assert response.status_code == 200
    assert errors(response)[0] == (
        "Two claims of this episode have the same number: give each its own."
    )
    assert episode.claims.count() == 0


def test_swapping_two_drafts_numbers_is_refused_with_a_form_error_not_a_crash(editor_client):
    episode, ada = make_episode(), make_speaker()
    make_claim(episode, ada, number=1, status=ClaimStatus.DRAFT, excerpt="First words.")
    make_claim(episode, ada, number=2, status=ClaimStatus.DRAFT, excerpt="Second words.")
    rows = inline_rows(episode)
    rows[0]["number"], rows[1]["number"] = 2, 1

    response = post_episode(editor_client, episode, rows)

    assert response.status_code == 200
    assert errors(response) == [
        "Claim 02 of this episode has this number until it is saved with another: free the "
        "number in one save, then give it in the next.",
        "Claim 01 of this episode has this number until it is saved with another: free the "
        "number in one save, then give it in the next.",
    ]
    assert list(episode.claims.order_by("number").values_list("excerpt", flat=True)) == [
        "First words.",
        "Second words.",
    ]


def test_taking_the_number_of_a_draft_deleted_in_the_same_save_is_refused(editor_client):
    episode, ada = make_episode(), make_speaker()
    make_claim(episode, ada, number=1, status=ClaimStatus.DRAFT, excerpt="Old words.")
    rows = inline_rows(episode)
    rows[0]["DELETE"] = "on"
    new = {"number": 1, "excerpt": "New words.", "speaker": ada.pk, "status": ClaimStatus.DRAFT}

    response = post_episode(editor_client, episode, rows, [new])

    assert response.status_code == 200
    assert errors(response) == [
        "Claim 01 of this episode has this number until it is saved with another: free the "
        "number in one save, then give it in the next."
    ]
    assert list(episode.claims.values_list("excerpt", flat=True)) == ["Old words."]
