"""The episode page, checked against the reference episode and against invented cases."""

import json
import re
from html import unescape

import pytest
from django.conf import settings
from django.urls import reverse as django_reverse
from django.utils.html import escape

from claims.models import Attribution, ClaimType
from episodes import records
from episodes.models import Status
from tests.factories import make_claim, make_episode, make_podcast, make_speaker

REFERENCE_URL = "/episodes/the-cognitive-revolution/the-rl-fine-tuning-playbook/"
DEMO_FILE = json.loads((settings.BASE_DIR / "claims/demo/reference_episode.json").read_text())
SPEAKER_NAMES = {speaker["slug"]: speaker["name"] for speaker in DEMO_FILE["speakers"]}
# The reference episode and its claims, each claim with its speaker's name.
REFERENCE = {
    "episode": DEMO_FILE["episodes"][0],
    "claims": [
        {**claim, "speaker": SPEAKER_NAMES[claim["speaker"]]}
        for claim in DEMO_FILE["episodes"][0]["claims"]
    ],
}
RECORD_HEAD = re.compile(r"\b(\d{2,}) / (" + "|".join(ClaimType.values) + r")\b")


def visible_text(response):
    """The page's main content as a reader sees it: tags dropped, whitespace collapsed."""
    html = response.content.decode()
    main = html[html.index("<main") : html.index("</main>")]
    return " ".join(unescape(re.sub(r"<[^>]*>", " ", main)).split())


def links(response):
    """Every link on the page as (href, visible text)."""
    return [
        (unescape(href), " ".join(unescape(re.sub(r"<[^>]*>", " ", inner)).split()))
        for href, inner in re.findall(
            r'<a\b[^>]*\bhref="([^"]*)"[^>]*>(.*?)</a>', response.content.decode(), re.S
        )
    ]


@pytest.fixture
def reference(client, demo):
    response = client.get(REFERENCE_URL)
    assert response.status_code == 200
    return response


# The reference episode, as load_demo loads it.


def test_reference_page_links_back_to_all_source_episodes(reference):
    assert ("/episodes/", "← All source episodes") in links(reference)


def test_reference_page_names_its_podcast_as_episode_intelligence(reference):
    assert "The Cognitive Revolution / episode intelligence" in visible_text(reference)
    assert ("/podcasts/the-cognitive-revolution/", "The Cognitive Revolution") in links(reference)


def test_reference_page_shows_the_title(reference):
    assert re.search(
        r"<h1>\s*" + re.escape(escape(REFERENCE["episode"]["title"])) + r"\s*</h1>",
        reference.content.decode(),
    )


def test_reference_page_shows_date_claim_count_and_people_count(reference):
    assert "1 May 2026 · 19 published claims · 2 attributable people" in visible_text(reference)


def test_reference_page_links_to_the_original_episode(reference):
    original = REFERENCE["episode"]["original_url"]

    assert (original, "Open original episode ↗") in links(reference)


def test_reference_page_jumps_to_the_evidence(reference):
    assert ("#ledger", "Read the evidence") in links(reference)
    assert re.search(r'<section\b[^>]*\bid="ledger"', reference.content.decode())


def test_reference_page_links_both_speakers_in_name_order(reference):
    assert "Speakers in the public record Kyle Corbitt Nathan Labenz Claim mix" in visible_text(
        reference
    )
    assert ("/speakers/kyle-corbitt/", "Kyle Corbitt") in links(reference)
    assert ("/speakers/nathan-labenz/", "Nathan Labenz") in links(reference)


def test_reference_page_shows_the_claim_mix_largest_first(reference):
    assert (
        "Claim mix evaluation 9 belief 6 prediction 3 recommendation 1 Evidence policy"
        in visible_text(reference)
    )


def test_reference_page_states_the_evidence_policy(reference):
    assert (
        "Evidence policy Every row of the claim ledger preserves an exact excerpt. Identified speakers are "
        "linked; unresolved voices are labeled and excluded from people counts."
    ) in visible_text(reference)


def test_reference_page_introduces_the_claim_ledger(reference):
    assert "Claim ledger The useful parts, with receipts. 19 published records" in visible_text(
        reference
    )


def test_reference_page_numbers_records_with_gaps_kept(reference):
    heads = RECORD_HEAD.findall(visible_text(reference))

    assert [number for number, _ in heads] == [
        *("01", "02", "03", "04", "05", "06", "07", "08", "09"),
        *("11", "12", "13", "14", "15", "17", "18", "19", "21", "22"),
    ]


def test_reference_page_types_each_record_as_the_reference_does(reference):
    heads = RECORD_HEAD.findall(visible_text(reference))

    assert heads == [(f"{c['number']:02d}", c["type"]) for c in REFERENCE["claims"]]


def test_reference_page_shows_each_excerpt_verbatim_exactly_once(reference):
    html = reference.content.decode()

    miscounted = {
        c["number"]: html.count(escape(c["excerpt"]))
        for c in REFERENCE["claims"]
        if html.count(escape(c["excerpt"])) != 1
    }
    assert miscounted == {}


def test_reference_page_quotes_each_excerpt(reference):
    html = reference.content.decode()

    unquoted = [c["number"] for c in REFERENCE["claims"] if f"“{escape(c['excerpt'])}”" not in html]
    assert unquoted == []


def test_reference_page_attributes_each_record_to_its_speaker(reference):
    voices = re.findall(r"Speaker (.+?) Publisher", visible_text(reference))

    assert voices == [c["speaker"] for c in REFERENCE["claims"]]


def test_reference_page_names_the_publisher_of_each_record(reference):
    assert visible_text(reference).count("Publisher The Cognitive Revolution") == 19


# Invented cases, with fictional people and shows.


def test_draft_claims_are_absent_from_the_episode_page(client, db):
    # Named: a numbered default name ("Example Show 103") would hold "03 / ".
    episode = make_episode(podcast=make_podcast(name="Example Show"), title="Example Episode")
    ada = make_speaker(name="Ada Example")
    make_claim(episode, speaker=ada, number=1, excerpt="Published words by Ada.")
    make_claim(episode, speaker=ada, number=2, excerpt="More published words by Ada.")
    draft = make_claim(
        episode, speaker=make_speaker(name="Ben Sample"), number=3, status=Status.DRAFT
    )

    response = client.get(episode.get_absolute_url())
    text = visible_text(response)

    assert draft.excerpt not in text
    assert "Ben Sample" not in text
    assert "03 / " not in text
    assert "2 published claims · 1 attributable person" in text
    assert "2 published records" in text


def test_a_draft_episode_answers_404(client, db):
    claim = make_claim(episode=make_episode(status=Status.DRAFT))

    response = client.get(claim.episode.get_absolute_url())

    assert response.status_code == 404
    assert "There is no public page here" in response.content.decode()


def test_an_unresolved_voice_shows_its_label_unlinked(client, db):
    claim = make_claim(attribution=Attribution.UNRESOLVED, unresolved_label="Caller 2")

    response = client.get(claim.episode.get_absolute_url())

    assert "Speaker Unresolved voice — Caller 2 Publisher" in visible_text(response)
    assert "Unresolved voice — <em>Caller 2</em>" in response.content.decode()
    assert [text for _, text in links(response) if "Caller 2" in text] == []


def test_an_unlabelled_unresolved_voice_is_called_unresolved_voice(client, db):
    claim = make_claim(attribution=Attribution.UNRESOLVED)

    response = client.get(claim.episode.get_absolute_url())

    assert "Speaker Unresolved voice Publisher" in visible_text(response)


def test_unresolved_voices_are_not_counted_as_attributable_people(client, db):
    episode = make_episode()
    make_claim(episode, speaker=make_speaker(name="Ada Example"))
    make_claim(episode, attribution=Attribution.UNRESOLVED, unresolved_label="Caller 2")
    make_claim(episode, attribution=Attribution.UNRESOLVED)

    text = visible_text(client.get(episode.get_absolute_url()))

    assert "3 published claims · 1 attributable person" in text
    assert "Speakers in the public record Ada Example Claim mix" in text


def test_a_speaker_with_several_claims_counts_once(client, db):
    episode = make_episode()
    ada = make_speaker(name="Ada Example")
    make_claim(episode, speaker=ada)
    make_claim(episode, speaker=ada)

    text = visible_text(client.get(episode.get_absolute_url()))

    assert "2 published claims · 1 attributable person" in text


def test_the_episode_page_works_out_each_address_once_not_once_per_card(client, db, monkeypatch):
    episode = make_episode()
    ada, ben = make_speaker(), make_speaker()
    for speaker in (ada, ada, ada, ben):
        make_claim(episode, speaker=speaker)
    make_claim(episode, attribution=Attribution.UNRESOLVED)
    url = episode.get_absolute_url()
    reversed_names = []

    def reverse(viewname, **kwargs):
        reversed_names.append(viewname)
        return django_reverse(viewname, **kwargs)

    monkeypatch.setattr(records, "reverse", reverse)
    records._shared_reverse.cache_clear()  # addresses outlive a request: start from none
    response = client.get(url)

    assert response.status_code == 200
    # The episode (its claims' permalinks build on it), its podcast, and the two speakers.
    assert sorted(reversed_names) == [
        "episodes:episode_detail",
        "episodes:podcast_detail",
        "episodes:speaker_detail",
        "episodes:speaker_detail",
    ]


def test_an_editors_summary_is_shown_above_the_excerpt(client, db):
    claim = make_claim(
        summary="Ada recommends one smoke test.",
        excerpt="If you do one thing, write a single smoke test.",
    )

    text = visible_text(client.get(claim.episode.get_absolute_url()))

    assert "01 / evaluation Ada recommends one smoke test. “If you do one thing," in text


def test_without_a_summary_the_excerpt_is_shown_once(client, db):
    claim = make_claim(excerpt="If you do one thing, write a single smoke test.")

    response = client.get(claim.episode.get_absolute_url())

    assert "01 / evaluation “If you do one thing, write a single smoke test.”" in visible_text(
        response
    )
    assert response.content.decode().count(claim.excerpt) == 1


def test_an_excerpt_holding_a_script_is_shown_as_text(client, db):
    claim = make_claim(excerpt="Then she typed <script>alert(1)</script> into the form.")

    response = client.get(claim.episode.get_absolute_url())
    html = response.content.decode()

    assert "<script>alert(1)</script>" not in html
    assert "Then she typed &lt;script&gt;alert(1)&lt;/script&gt; into the form." in html
