"""A claim captured twice in one episode is saved with a warning naming the other."""

from django.contrib.messages import get_messages
from django.urls import reverse

from claims.duplicates import excerpt_words, near_identical
from claims.models import Claim, ClaimStatus
from tests.claims.admin_forms import claim_change_form
from tests.claims.test_admin_numbering import inline_rows, post_episode
from tests.factories import make_claim, make_episode, make_speaker

CLAIMS = "/admin/claims/claim/"
PARAGRAPH = (
    "We ship every Friday, and every Friday somebody asks whether the tests "
    "really ran against production data, and every Friday the answer is no."
)


def warnings(response):
    return [str(m) for m in get_messages(response.wsgi_request) if m.level_tag == "warning"]


def add_claim(editor_client, episode, excerpt, number):
    """Add a draft claim to `episode` on the claim's add form."""
    template = Claim(episode=episode, number=number, type="belief", excerpt=excerpt)
    template.speaker = make_speaker()
    data = claim_change_form(template, status=ClaimStatus.DRAFT, speaker=template.speaker.pk)
    return editor_client.post(f"{CLAIMS}add/", data)


def test_the_same_words_with_other_case_and_punctuation_are_the_same_words():
    assert excerpt_words(PARAGRAPH) == excerpt_words(PARAGRAPH.replace(",", " —").upper())


def test_one_word_changed_in_a_paragraph_is_near_identical():
    assert near_identical(
        excerpt_words(PARAGRAPH), excerpt_words(PARAGRAPH.replace("really", "truly"))
    )


def test_a_short_excerpt_with_a_word_changed_is_not():
    assert not near_identical(excerpt_words("GRPO works well."), excerpt_words("GRPO works badly."))


def test_saving_a_claim_with_an_excerpt_already_captured_warns_and_names_the_other(editor_client):
    episode = make_episode()
    first = make_claim(episode, number=3, excerpt=PARAGRAPH)

    response = add_claim(editor_client, episode, PARAGRAPH, number=4)

    assert response.status_code == 302
    link = reverse("admin:claims_claim_change", args=[first.pk])
    assert warnings(response) == [
        f'Claim 04 may be captured twice: <a href="{link}">claim 03</a> of this episode has '
        "the same excerpt. Keep both only if the words were said twice."
    ]
    assert episode.claims.count() == 2


def test_a_near_identical_excerpt_is_warned_of_as_nearly_the_same(editor_client):
    episode = make_episode()
    make_claim(episode, number=1, excerpt=PARAGRAPH)

    response = add_claim(editor_client, episode, PARAGRAPH.replace("really", "truly"), number=2)

    assert [w.split(" of this episode has ")[1][:29] for w in warnings(response)] == [
        "nearly the same excerpt. Keep"
    ]


def test_other_words_in_the_episode_raise_no_warning(editor_client):
    episode = make_episode()
    make_claim(episode, number=1, excerpt=PARAGRAPH)

    response = add_claim(editor_client, episode, "Something else entirely was said.", number=2)

    assert warnings(response) == []


def test_the_same_words_in_another_episode_raise_no_warning(editor_client):
    make_claim(make_episode(), number=1, excerpt=PARAGRAPH)

    response = add_claim(editor_client, make_episode(), PARAGRAPH, number=1)

    assert warnings(response) == []


def test_a_retracted_claims_words_taken_up_again_raise_no_warning(editor_client):
    episode = make_episode()
    make_claim(episode, number=1, excerpt=PARAGRAPH).retract("Misattributed.")

    response = add_claim(editor_client, episode, PARAGRAPH, number=2)

    assert warnings(response) == []


def test_two_claims_captured_twice_in_the_episode_form_are_warned_of_once(editor_client):
    episode, ada = make_episode(), make_speaker()
    make_claim(episode, ada, number=1, excerpt="Words said once, early on.")
    new = [
        {"number": n, "excerpt": PARAGRAPH, "speaker": ada.pk, "status": ClaimStatus.DRAFT}
        for n in (2, 3)
    ]

    response = post_episode(editor_client, episode, inline_rows(episode), new)

    assert response.status_code == 302
    assert len(warnings(response)) == 1
    assert warnings(response)[0].startswith("Claim 02 may be captured twice: <a href=")
    assert ">claim 03</a> of this episode has the same excerpt." in warnings(response)[0]
