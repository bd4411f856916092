"""Public counts kept beside the records (claims.counters) always equal a recount."""

from collections import Counter
from unittest.mock import patch

import pytest
from django.core.management import call_command
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from claims import counters
from claims.counters import recount_claims
from claims.models import Attribution, Claim, ClaimStatus, ClaimType
from episodes.models import Episode, Podcast, Speaker, Status
from tests.claims.ledger_files import as_json, run_import
from tests.factories import make_claim, make_episode, make_podcast, make_speaker

pytestmark = pytest.mark.django_db


def counted(model, fields):
    return {pk: rest for pk, *rest in model.objects.order_by("pk").values_list("pk", *fields)}


def kept_counts():
    return (
        counted(Episode, ("published_claim_count", "published_people_count")),
        counted(Speaker, ("public_claim_count", "public_claim_mix")),
        counted(Podcast, ("public_episode_count", "public_claim_count")),
    )


def true_counts():
    """Every count as the claims have it now, counted from scratch."""
    published = Claim.objects.filter(status=ClaimStatus.PUBLISHED)
    episodes = {
        e.pk: [
            published.filter(episode=e).count(),
            published.filter(episode=e).exclude(speaker=None).values("speaker").distinct().count(),
        ]
        for e in Episode.objects.order_by("pk")
    }
    speakers = {}
    for speaker in Speaker.objects.order_by("pk"):
        mix = Counter(
            Claim.objects.published().filter(speaker=speaker).values_list("type", flat=True)
        )
        speakers[speaker.pk] = [sum(mix.values()), dict(mix)]
    podcasts = {
        p.pk: [
            p.episodes.published().count(),
            published.filter(episode__podcast=p, episode__status=Status.PUBLISHED).count(),
        ]
        for p in Podcast.objects.order_by("pk")
    }
    return episodes, speakers, podcasts


@pytest.fixture
def ledger(db):
    podcast = make_podcast()
    episodes = [make_episode(podcast), make_episode(podcast, status=Status.DRAFT), make_episode()]
    return episodes, [make_speaker(), make_speaker()]


def add_claim(episodes, speakers, choice):
    episode, speaker = episodes[choice % 3], speakers[choice % 2]
    status = ClaimStatus.PUBLISHED if choice % 4 else ClaimStatus.DRAFT
    if choice % 5 == 0:
        make_claim(episode, attribution=Attribution.UNRESOLVED, status=status)
    else:
        make_claim(episode, speaker, status=status, type=ClaimType.values[choice % 9])


def publish_a_draft(episodes, speakers, choice):
    drafts = Claim.objects.filter(status=ClaimStatus.DRAFT).order_by("pk")
    if drafts:
        published = drafts.filter(pk=drafts[choice % len(drafts)].pk).publish(via="test")
        recount_claims(Claim.objects.filter(pk__in=published))  # as the admin's action does


def retract_one(episodes, speakers, choice):
    claims = list(Claim.objects.filter(status=ClaimStatus.PUBLISHED).order_by("pk"))
    if claims:
        claims[choice % len(claims)].retract("Said by someone else.")


def correct_one(episodes, speakers, choice):
    claims = list(
        Claim.objects.filter(status=ClaimStatus.PUBLISHED, attribution=Attribution.IDENTIFIED)
    )
    if claims:
        claim = claims[choice % len(claims)]
        claim.speaker = speakers[0] if claim.speaker_id == speakers[1].pk else speakers[1]
        claim.type = ClaimType.values[(choice + 1) % 9]
        claim.save(correction_note="It was the other speaker.")


def toggle_an_episode(episodes, speakers, choice):
    episode = Episode.objects.get(pk=episodes[choice % 3].pk)
    episode.status = Status.DRAFT if episode.status == Status.PUBLISHED else Status.PUBLISHED
    episode.save()


def delete_a_draft(episodes, speakers, choice):
    drafts = list(Claim.objects.filter(status=ClaimStatus.DRAFT))
    if drafts:
        drafts[choice % len(drafts)].delete()


EDITS = [add_claim, publish_a_draft, retract_one, correct_one, toggle_an_episode, delete_a_draft]


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.tuples(st.sampled_from(EDITS), st.integers(0, 50)), max_size=14))
def test_random_edits_leave_every_count_equal_to_a_recount(ledger, edits):
    episodes, speakers = ledger
    with transaction.atomic():
        for edit, choice in edits:
            edit(episodes, speakers, choice)
            assert [*kept_counts()] == [*true_counts()], edit.__name__
        transaction.set_rollback(True)


def test_an_import_counts_what_it_brings(tmp_path):
    document = {
        "format": "evidence-ledger",
        "version": 1,
        "podcasts": [{"name": "Example Show", "slug": "example-show"}],
        "speakers": [{"name": "Ada Example", "slug": "ada-example"}],
        "episodes": [
            {
                "podcast": "example-show",
                "slug": "one",
                "title": "One",
                "air_date": "2026-01-02",
                "original_url": "https://example.com/one/",
                "status": "published",
                "claims": [
                    {
                        "number": n,
                        "type": "belief",
                        "speaker": "ada-example",
                        "excerpt": f"Words {n}.",
                        "status": "published",
                    }
                    for n in (1, 2, 3)
                ],
            }
        ],
    }
    run_import(tmp_path, as_json(document), "ledger.json")

    ada = Speaker.objects.get(slug="ada-example")
    assert (ada.public_claim_count, ada.public_claim_mix) == (3, {"belief": 3})
    podcast = Podcast.objects.get(slug="example-show")
    assert (podcast.public_episode_count, podcast.public_claim_count) == (1, 3)


def test_the_admin_publish_action_counts_the_claims_it_publishes(admin_client):
    draft = make_claim(status=ClaimStatus.DRAFT)
    admin_client.post("/admin/claims/claim/", {"action": "publish", "_selected_action": [draft.pk]})
    draft.speaker.refresh_from_db()
    assert draft.speaker.public_claim_count == 1


def test_the_admin_unpublish_action_takes_an_episode_out_of_its_podcast_count(admin_client):
    claim = make_claim()
    admin_client.post(
        "/admin/episodes/episode/", {"action": "unpublish", "_selected_action": [claim.episode_id]}
    )
    podcast = Podcast.objects.get(pk=claim.episode.podcast_id)
    assert (podcast.public_episode_count, podcast.public_claim_count) == (0, 0)
    claim.speaker.refresh_from_db()
    assert claim.speaker.public_claim_count == 0


def test_recount_repairs_a_count_that_drifted_and_says_so(capsys):
    speaker = make_claim().speaker
    Speaker.objects.filter(pk=speaker.pk).update(public_claim_count=7)

    call_command("recount")

    speaker.refresh_from_db()
    assert speaker.public_claim_count == 1
    assert "Counts that were wrong: 1 speakers." in capsys.readouterr().out


def test_recount_of_a_true_ledger_finds_nothing_wrong(capsys):
    make_claim()
    call_command("recount")
    assert "Counts that were wrong: none." in capsys.readouterr().out


def test_recount_repairs_a_podcast_count_that_drifted_and_says_so(capsys):
    podcast = make_claim().episode.podcast
    Podcast.objects.filter(pk=podcast.pk).update(public_claim_count=9)

    call_command("recount")

    podcast.refresh_from_db()
    assert (podcast.public_episode_count, podcast.public_claim_count) == (1, 1)
    assert "Counts that were wrong: 1 podcasts." in capsys.readouterr().out


def test_recount_sums_each_podcast_once_however_many_chunks_of_episodes():
    podcast = make_podcast()
    for _ in range(3):
        make_claim(make_episode(podcast))

    with patch("claims.counters.recount_podcasts", wraps=counters.recount_podcasts) as summed:
        counters.recount_everything(batch=1)

    # Once, in the podcasts' own pass: not once per chunk of one episode.
    assert summed.call_count == 1
