"""Capturing claims from the transcript on the episode's admin page: the panel, and finding an
excerpt to start a new claim from (the path that needs no JavaScript)."""

from urllib.parse import parse_qs, urlsplit

import pytest
from django.contrib.contenttypes.models import ContentType
from django.urls import reverse

from claims.models import Claim, ClaimStatus
from tests.claims.admin_forms import empty_inlines
from tests.factories import make_claim, make_episode

TEXT = "Ada: We moved everything to GRPO last spring.\nBen: It was cheaper than we expected."
CUES = [[1, 0], [65, 46]]


def timed_episode(**fields):
    episode = make_episode(**fields)
    episode.save_transcript(TEXT, CUES)
    return episode


def change_page(client, episode):
    return client.get(reverse("admin:episodes_episode_change", args=[episode.pk])).content.decode()


def find(client, episode, **params):
    return client.get(reverse("admin:episodes_episode_find", args=[episode.pk]), params)


def prefilled(response):
    """The claim add form's address a redirect leads to, and its GET parameters."""
    url = urlsplit(response["Location"])
    return url.path, {name: values[0] for name, values in parse_qs(url.query).items()}


def test_the_panel_shows_each_line_with_its_time(editor_client):
    html = change_page(editor_client, timed_episode())

    assert '<p><time datetime="PT1S">0:01</time> <span data-at="0">Ada: We moved' in html
    assert '<p><time datetime="PT65S">1:05</time> <span data-at="46">Ben: It was' in html


def test_the_panel_marks_captured_passages_with_their_claim_numbers(editor_client):
    episode = timed_episode()
    make_claim(episode, number=7, excerpt="It was cheaper")

    html = change_page(editor_client, episode)

    assert (
        '<span data-at="46">Ben: </span><sup class="claim-tag">07</sup>'
        '<mark data-at="51" title="Claim 07">It was cheaper</mark>'
        '<span data-at="65"> than we expected.</span>'
    ) in html


def test_overlapping_captures_are_marked_with_both_numbers(editor_client):
    episode = timed_episode()
    make_claim(episode, number=1, excerpt="moved everything to GRPO")
    make_claim(episode, number=2, excerpt="GRPO last spring")

    html = change_page(editor_client, episode)

    assert '<mark data-at="28" title="Claim 01, 02">GRPO</mark>' in html


def test_the_panel_escapes_the_transcript(editor_client):
    episode = make_episode(transcript="Ada: <script>alert(1)</script> & more")

    html = change_page(editor_client, episode)

    assert '<span data-at="0">Ada: &lt;script&gt;alert(1)&lt;/script&gt; &amp; more</span>' in html


def test_an_episode_without_a_transcript_has_no_panel(editor_client):
    assert "Capture from the transcript" not in change_page(editor_client, make_episode())


def test_a_pasted_excerpt_found_opens_the_claim_form_filled_in(editor_client):
    episode = timed_episode()
    make_claim(episode, number=4, excerpt="We moved everything")

    response = find(editor_client, episode, excerpt="it was  CHEAPER than we expected")

    assert response.status_code == 302
    assert prefilled(response) == (
        reverse("admin:claims_claim_add"),
        {
            "episode": str(episode.pk),
            "number": "5",
            "excerpt": "It was cheaper than we expected",
            "timestamp": "65",
        },
    )


def test_the_claim_form_shows_what_the_transcript_filled_in(editor_client):
    episode = timed_episode()
    url = find(editor_client, episode, excerpt="It was cheaper")["Location"]

    form = editor_client.get(url).context["adminform"].form

    assert (form["number"].value(), form["excerpt"].value(), form["timestamp"].value()) == (
        "1",
        "It was cheaper",
        "65",
    )
    assert str(form["episode"].value()) == str(episode.pk)


def test_a_selection_is_taken_as_the_transcripts_own_words(editor_client):
    episode = timed_episode()

    response = find(editor_client, episode, start="38", end="57")

    assert prefilled(response)[1]["excerpt"] == "spring. Ben: It was"
    assert prefilled(response)[1]["timestamp"] == "1"


@pytest.mark.parametrize(("start", "end"), [("5", "2"), ("-1", "4"), ("0", "9999"), ("x", "4")])
def test_a_bogus_selection_falls_back_to_the_excerpt(editor_client, start, end):
    response = find(editor_client, timed_episode(), start=start, end=end, excerpt="")

    assert response.status_code == 200
    assert "Paste the words to capture" in response.content.decode()


def test_an_excerpt_not_in_the_transcript_is_said_to_be_missing_with_the_nearest(editor_client):
    response = find(editor_client, timed_episode(), excerpt="We moved everything to GRP0")

    html = response.content.decode()
    assert response.status_code == 200
    assert "is not in the transcript of this episode, word for word." in html
    assert "The transcript says <ins>GRPO</ins>, the excerpt says <del>GRP0</del>." in html
    assert not Claim.objects.exists()


def test_a_captured_claim_saved_takes_the_transcripts_time(editor_client):
    episode = timed_episode()
    speaker = make_claim(episode, number=1, excerpt="Ada: We moved").speaker
    query = prefilled(find(editor_client, episode, excerpt="It was cheaper"))[1]

    response = editor_client.post(
        reverse("admin:claims_claim_add"),
        {
            **query,
            "type": "observation",
            "status": "draft",
            "summary": "",
            "attribution": "identified",
            "speaker": speaker.pk,
            "unresolved_label": "",
            **empty_inlines(),
        },
    )

    assert response.status_code == 302
    claim = Claim.objects.get(number=2)
    assert (claim.excerpt, claim.timestamp, claim.timestamp_from_transcript) == (
        "It was cheaper",
        65,
        True,
    )


def test_finding_needs_the_permission_to_add_claims(client, django_user_model):
    staff = django_user_model.objects.create_user("viewer", password="x", is_staff=True)
    client.force_login(staff)

    assert find(client, timed_episode(), excerpt="It was").status_code == 403


@pytest.mark.parametrize("claims", [3, 40])
def test_the_episode_page_runs_the_same_queries_whatever_its_claims(
    editor_client, django_assert_num_queries, claims
):
    episode = timed_episode()
    for number in range(1, claims + 1):
        excerpt = "It was cheaper" if number % 2 else "Words nobody said."
        # One in three a draft, edited inline; the others rows of the table above it.
        status = ClaimStatus.DRAFT if number % 3 == 0 else ClaimStatus.PUBLISHED
        make_claim(episode, number=number, excerpt=excerpt, status=status)
    url = reverse("admin:episodes_episode_change", args=[episode.pk])
    ContentType.objects.clear_cache()  # as a fresh process finds it, whatever ran before

    # Session and user; the episode with its podcast and transcript; the editor's
    # permissions (twice); who appeared on it; the drafts with their speakers; the
    # published and retracted claims with theirs; the captured passages; the podcast's
    # autocomplete; the content types (the history links'), in one query, whatever the claims.
    with django_assert_num_queries(11):
        response = editor_client.get(url)

    # The claims inline follows the appearances': the drafts and a blank claim.
    assert response.context["inline_admin_formsets"][1].formset.total_form_count() == (
        claims // 3 + 1
    )
    assert f"Published and retracted claims ({claims - claims // 3})" in response.content.decode()
