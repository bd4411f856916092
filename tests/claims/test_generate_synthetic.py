"""generate_synthetic: fictional data at scale, consistent with what the site relies on."""

import datetime
import io
import re
from collections import Counter

import pytest
from django.core.management import CommandError, call_command
from django.db.models import Count, Exists, OuterRef
from django.urls import reverse

from claims import search, verbatim
from claims.choices import ClaimStatus, ClaimType, Resolution
from claims.corrections import public_corrections
from claims.links import MOVED, ClaimLink, moves_of
from claims.models import Attribution, Claim, ClaimRevision, RevisionKind, Verification
from claims.references import ClaimReference, Reference
from claims.synthetic import (
    GIVEN_NAMES,
    SHOW_NOUNS,
    SHOW_WORDS,
    SURNAMES,
    SYNTHETIC_URL,
    Plan,
)
from claims.topics import Topic
from episodes.models import Appearance, Episode, Podcast, Role, Speaker, Status, Transcript
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


def test_every_episode_has_a_host_and_a_guest_who_may_say_nothing(synthetic):
    for episode in Episode.objects.all():
        roles = set(episode.appearances.values_list("role", flat=True))
        assert roles == {Role.HOST, Role.GUEST}
    quiet = Appearance.objects.exclude(
        Exists(Claim.objects.filter(episode=OuterRef("episode"), speaker=OuterRef("speaker")))
    )
    assert quiet.exists()


def test_reset_removes_synthetic_appearances_and_keeps_the_demos(demo):
    demo_appearances = set(Appearance.objects.values_list("pk", flat=True))
    generate()

    generate("--reset", "--seed", "2")

    assert demo_appearances
    assert demo_appearances <= set(Appearance.objects.values_list("pk", flat=True))


# What editors add around the claims (claims/synthetic_curation.py), at a size where
# even the rarest record (a retraction) shows up; the exact counts are seed 5's.
CURATED = 5_000
TAGGED_CLAIMS, NAMED_REFERENCES, LINKS = 1_976, 264, 93
CORRECTIONS, RETRACTIONS, WITH_HORIZON, RESOLVED = 54, 4, 326, 119


@pytest.fixture
def curated(db):
    call_command(
        "generate_synthetic",
        "--claims",
        str(CURATED),
        "--seed",
        "5",
        "--quiet",
        stdout=io.StringIO(),
    )


def test_every_claims_timestamp_is_its_transcripts_time(curated):
    claims = Claim.objects.select_related("episode__transcript")
    for claim in claims:
        transcript = claim.episode.transcript
        assert claim.timestamp_from_transcript
        assert transcript.time_at(claim.transcript_start) == claim.timestamp
        assert transcript.time_at(claim.transcript_end) == claim.timestamp


def test_transcripts_have_a_cue_every_few_sentences_in_time_order(curated):
    for transcript in Transcript.objects.all():
        offsets = [offset for _, offset in transcript.cues]
        times = [time for time, _ in transcript.cues]
        assert offsets == sorted(set(offsets)) and times == sorted(times)
        assert 500 < len(transcript.cues) < 1_300
        # Each cue starts a sentence, or a speaker's line.
        assert all(transcript.text[offset - 1] in " \n" for offset in offsets)


def test_topics_tag_two_fifths_of_claims_and_some_topics_are_big(curated):
    tagged = Claim.objects.filter(topics__isnull=False).distinct().count()
    sizes = sorted(Topic.objects.annotate(n=Count("claims")).values_list("n", flat=True))

    assert Topic.objects.count() == 40
    assert tagged == TAGGED_CLAIMS
    assert sizes[-1] > 5 * sizes[len(sizes) // 2]


def test_references_are_named_by_one_claim_in_twenty(curated):
    assert Reference.objects.count() == CURATED // 200
    assert ClaimReference.objects.count() == NAMED_REFERENCES
    popular = Reference.objects.with_public_counts().order_by("-claim_count").first()
    assert popular.claim_count > 10


def test_links_join_public_claims_mostly_a_speakers_own_earlier_ones(curated):
    links = ClaimLink.objects.select_related("from_claim__episode", "to_claim__episode")
    own = [link for link in links if link.from_claim.speaker_id == link.to_claim.speaker_id]

    assert len(links) == LINKS
    assert ClaimLink.objects.public().count() == LINKS
    assert len(own) > len(links) / 2
    assert all(link.relation in MOVED for link in own)
    assert all(link.to_claim.episode.air_date < link.from_claim.episode.air_date for link in own)
    pairs = {frozenset((link.from_claim_id, link.to_claim_id)) for link in links}
    assert len(pairs) == len(links)
    assert any(moves_of(link.from_claim.speaker).exists() for link in own)


def test_corrections_and_retractions_are_in_the_public_log(curated):
    corrected = Claim.objects.exclude(corrections=[])
    retracted = Claim.objects.filter(status=ClaimStatus.RETRACTED)
    log = public_corrections()

    assert corrected.count() == CORRECTIONS
    assert retracted.count() == RETRACTIONS
    assert log.count() == CORRECTIONS + RETRACTIONS
    for revision in log.filter(kind=RevisionKind.CORRECTED).select_related("claim"):
        (entry,) = revision.claim.corrections
        assert entry["note"] == revision.note
        assert datetime.datetime.fromisoformat(entry["at"]) == revision.created_at
        assert entry["fields"] == list(revision.changes)
    for claim in retracted:
        assert claim.retraction_reason and claim.retracted_at
        assert claim.revisions.get().kind == RevisionKind.RETRACTED


def test_the_corrections_page_lists_them(curated, client):
    newest = public_corrections().select_related("claim__episode").first()
    response = client.get(reverse("claims:corrections"))

    assert response.status_code == 200
    assert newest.note in response.text


def test_only_public_claims_are_corrected_retracted_or_linked(curated):
    on_record = Claim.objects.on_record()
    assert not ClaimRevision.objects.exclude(claim__in=on_record).exists()
    assert not ClaimLink.objects.exclude(from_claim__in=on_record, to_claim__in=on_record).exists()


def test_some_predictions_have_a_horizon_and_some_an_outcome(curated):
    predictions = Claim.objects.filter(type=ClaimType.PREDICTION)
    resolved = predictions.exclude(resolution=Resolution.OPEN)

    assert predictions.filter(horizon__isnull=False).count() == WITH_HORIZON
    assert resolved.count() == RESOLVED
    for claim in resolved:
        assert [s.url for s in claim.source_records.all()] == [
            s["url"] for s in claim.resolution_sources
        ]
        assert claim.revisions.get().kind == RevisionKind.RESOLVED
    assert (
        not Claim.objects.exclude(type=ClaimType.PREDICTION).filter(horizon__isnull=False).exists()
    )


def test_recount_leaves_the_curated_ledgers_counts_unchanged(curated, capsys):
    call_command("recount")
    assert "Counts that were wrong: none." in capsys.readouterr().out


def test_reset_removes_the_curated_records(curated):
    call_command(
        "generate_synthetic", "--claims", "400", "--reset", "--quiet", stdout=io.StringIO()
    )
    assert Topic.objects.count() == 40
    assert Reference.objects.count() == 5
    assert Claim.objects.count() == 400
