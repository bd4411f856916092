"""An excerpt not found in its transcript: the nearest passage, and how the words differ."""

from django.urls import reverse

from claims.models import ClaimStatus
from claims.nearest import nearest_passage
from episodes.models import Status
from tests.factories import make_claim, make_episode

TEXT = "Ada: We moved everything to GRPO last spring.\nBen: It was cheaper than we expected."
CLAIMS = reverse("admin:claims_claim_changelist")


def test_a_changed_word_is_named_on_both_sides():
    nearest = nearest_passage("We moved everything to GRP0 last spring.", TEXT)

    assert nearest.passage == "We moved everything to GRPO last spring."
    assert nearest.differences() == [
        "The transcript says <ins>GRPO</ins>, the excerpt says <del>GRP0</del>."
    ]
    assert nearest.marked_passage() == (
        "We moved everything to <del>GRP0</del> <ins>GRPO</ins> last spring."
    )


def test_a_word_added_and_a_word_left_out_are_each_said():
    nearest = nearest_passage("It was much cheaper than expected.", TEXT)

    assert nearest.passage == "It was cheaper than we expected."
    assert nearest.differences() == [
        "The excerpt says <del>much</del>, the transcript does not.",
        "The transcript says <ins>we</ins> here, the excerpt leaves it out.",
    ]


def test_punctuation_is_a_difference_of_its_own():
    nearest = nearest_passage("It was cheaper than we expected!", TEXT)

    assert nearest.differences() == [
        "The transcript says <ins>.</ins>, the excerpt says <del>!</del>."
    ]


def test_nothing_near_gives_no_passage():
    assert nearest_passage("Completely different words about sailing boats.", TEXT) is None


def test_the_nearest_passage_is_found_among_many_similar_ones():
    filler = "\n".join(f"Line {n}: we moved some things to other places." for n in range(3000))
    transcript = filler + "\n" + TEXT + "\n" + filler

    nearest = nearest_passage("We moved everything to GRP0 last spring.", transcript)

    assert nearest.passage == "We moved everything to GRPO last spring."
    assert nearest.start == transcript.index("We moved everything")


def test_the_words_shown_are_escaped():
    nearest = nearest_passage("<b>Ada</b>: We moved everything", "<i>Ada</i>: We moved everything")

    assert "<ins>i</ins> &gt;Ada&lt;/" in nearest.marked_passage()
    assert "<i>" not in nearest.marked_passage()


def test_the_claim_page_shows_the_nearest_passage_with_its_time(editor_client):
    episode = make_episode()
    episode.save_transcript(TEXT, [[1, 0], [65, 46]])
    claim = make_claim(episode, excerpt="It was cheaper than expected.")

    html = editor_client.get(reverse("admin:claims_claim_change", args=[claim.pk])).content
    html = html.decode()

    assert "Nearest passage in the transcript (at 1:05):" in html
    assert "The transcript says <ins>we</ins> here, the excerpt leaves it out." in html


def test_the_episode_page_shows_it_beside_the_inline_claim(editor_client):
    episode = make_episode(transcript=TEXT)
    make_claim(episode, excerpt="We moved everything to GRP0 last spring.")

    html = editor_client.get(reverse("admin:episodes_episode_change", args=[episode.pk]))

    assert "The transcript says <ins>GRPO</ins>, the excerpt says <del>GRP0</del>." in (
        html.content.decode()
    )


def test_an_excerpt_far_from_every_passage_says_so(editor_client):
    claim = make_claim(make_episode(transcript=TEXT), excerpt="Words about sailing boats.")

    html = editor_client.get(reverse("admin:claims_claim_change", args=[claim.pk])).content

    assert "Nothing in the transcript is close to this excerpt." in html.decode()


def test_the_publish_confirmation_shows_each_nearest_passage(editor_client):
    claim = make_claim(
        make_episode(transcript=TEXT),
        excerpt="We moved everything to GRP0 last spring.",
        status=Status.DRAFT,
    )

    response = editor_client.post(CLAIMS, {"action": "publish", "_selected_action": [claim.pk]})

    assert "The transcript says <ins>GRPO</ins>, the excerpt says <del>GRP0</del>." in (
        response.content.decode()
    )
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.DRAFT
