"""generate_synthetic: fictional data at scale, consistent with what the site relies on."""

import io
import re
from collections import Counter

import pytest
from django.core.management import CommandError, call_command

from claims import search, verbatim
from claims.models import Attribution, Claim, Verification
from claims.synthetic import (
    GIVEN_NAMES,
    SHOW_NOUNS,
    SHOW_WORDS,
    SURNAMES,
    SYNTHETIC_URL,
    Plan,
)
from episodes.models import Episode, Podcast, Speaker, Status, Transcript
from ledger.models import current_version

CLAIMS = 400


def generate(*args):
    call_command(
        "generate_synthetic", "--claims", str(CLAIMS), "--quiet", *args, stdout=io.StringIO()
    )


@pytest.fixture
def synthetic(db):
    generate("--seed", "3")


def test_it_makes_exactly_the_claims_asked_for(synthetic):
    assert Claim.objects.count() == CLAIMS


def test_every_episode_has_5_to_80_claims_numbered_from_one(synthetic):
    assert Episode.objects.count() > 1
    for episode in Episode.objects.all():
        numbers = sorted(episode.claims.values_list("number", flat=True))
        assert 5 <= len(numbers) <= 80
        assert numbers == list(range(1, len(numbers) + 1))


def test_every_show_and_person_is_plainly_fictional(synthetic):
    show = re.compile(rf"({'|'.join(SHOW_WORDS)}) ({'|'.join(SHOW_NOUNS)}) \d+$")
    person = re.compile(rf"({'|'.join(GIVEN_NAMES)}) ({'|'.join(SURNAMES)})( \d+)?$")
    assert Podcast.objects.exists() and Speaker.objects.exists() and Episode.objects.exists()
    assert all(show.match(name) for name in Podcast.objects.values_list("name", flat=True))
    assert all(person.match(name) for name in Speaker.objects.values_list("name", flat=True))
    assert all(
        url.startswith(SYNTHETIC_URL)
        for url in Episode.objects.values_list("original_url", flat=True)
    )


def test_it_has_unresolved_voices_and_drafts(synthetic):
    attributions = Counter(Claim.objects.values_list("attribution", flat=True))
    assert attributions[Attribution.UNRESOLVED] > 0
    assert Claim.objects.filter(status=Status.DRAFT).exists()
    assert Claim.objects.published().count() < CLAIMS


def test_a_few_speakers_say_much_and_most_say_little(db):
    call_command("generate_synthetic", "--claims", "4000", "--quiet", stdout=io.StringIO())
    per_speaker = sorted(
        Counter(Claim.objects.exclude(speaker=None).values_list("speaker", flat=True)).values()
    )

    assert len(per_speaker) >= 50
    assert per_speaker[-1] > 10 * per_speaker[len(per_speaker) // 2]


def test_search_context_is_what_the_model_would_compose(synthetic):
    assert Claim.objects.count() == CLAIMS
    for claim in Claim.objects.select_related("episode", "speaker"):
        assert claim.search_context == claim.compose_search_context()


def test_the_search_index_holds_every_claim(synthetic):
    # "model" is the vocabulary's commonest word: search must find every claim that says it.
    says_model = [
        claim.pk
        for claim in Claim.objects.all()
        if re.search(r"\bmodel\b", f"{claim.excerpt} {claim.search_context}", re.I)
    ]
    found = search.search(Claim.objects.all(), search.parse("model")).values_list("pk", flat=True)

    assert len(says_model) > CLAIMS / 3
    assert sorted(found) == sorted(says_model)


def test_the_ledger_version_moves(db):
    before = current_version()[0]
    generate()
    assert current_version()[0] > before


def test_the_same_seed_makes_the_same_claims(db):
    generate("--seed", "7")
    first = list(
        Claim.objects.order_by("episode__title", "number").values_list("excerpt", flat=True)
    )
    generate("--seed", "7", "--reset")
    again = list(
        Claim.objects.order_by("episode__title", "number").values_list("excerpt", flat=True)
    )

    assert first == again


def test_reset_replaces_synthetic_data_and_keeps_the_rest(demo):
    demo_claims = set(Claim.objects.values_list("pk", flat=True))
    generate()
    generate("--reset", "--seed", "2")

    assert Claim.objects.count() == len(demo_claims) + CLAIMS
    assert demo_claims <= set(Claim.objects.values_list("pk", flat=True))
    assert search.search(Claim.objects.all(), search.parse("model")).exists()


def test_it_refuses_to_add_to_earlier_synthetic_data_without_reset(synthetic):
    with pytest.raises(CommandError, match="--reset"):
        generate()


def test_every_episode_has_a_transcript_of_realistic_length(synthetic):
    lengths = [len(text) for text in Transcript.objects.values_list("text", flat=True)]
    assert len(lengths) == Episode.objects.count()
    assert min(lengths) > 55_000 and max(lengths) < 125_000


def test_every_excerpt_is_found_where_its_claim_says(synthetic):
    claims = Claim.objects.select_related("episode__transcript")
    assert {claim.verification for claim in claims} == {Verification.FOUND}
    for claim in claims:
        text = claim.episode.transcript.text
        assert text[claim.transcript_start : claim.transcript_end] == claim.excerpt
        assert verbatim.locate(claim.excerpt, text) == (
            claim.transcript_start,
            claim.transcript_end,
        )


def test_about_a_quarter_of_the_transcripts_are_public():
    transcripts = [transcript for _, transcript in Plan(4_000, seed=1).ledger()]
    share = sum(transcript.is_public for transcript in transcripts) / len(transcripts)
    assert 0.15 < share < 0.35


def test_the_kept_counts_equal_a_recount(synthetic, capsys):
    call_command("recount")
    assert "Counts that were wrong: none." in capsys.readouterr().out
