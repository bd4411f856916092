"""Public counts kept beside the records (claims.counters) always equal a recount."""

import datetime
from collections import Counter
from unittest.mock import patch

import pytest
from django.core.management import call_command
from django.db import transaction
from django.db.models import Q
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from claims import counters, recount
from claims.choices import Relation, Resolution
from claims.counters import recount_claims
from claims.listed_counts import ListedCount, ListedKind, kept_listed_counts
from claims.models import (
    Attribution,
    Claim,
    ClaimLink,
    ClaimReference,
    ClaimRevision,
    ClaimStatus,
    ClaimType,
    Reference,
    RevisionKind,
    Topic,
)
from claims.models import Role as NamedAs
from claims.prediction_counts import PredictionCount, count_key
from claims.prediction_recounts import prediction_counts
from episodes.models import Appearance, Episode, Podcast, Role, Speaker, Status
from tests.claims.ledger_files import as_json, document, run_import
from tests.episodes.test_transcript_upload import post as post_episode_change
from tests.factories import (
    make_appearance,
    make_claim,
    make_episode,
    make_link,
    make_podcast,
    make_prediction,
    make_speaker,
    resolve,
)

pytestmark = pytest.mark.django_db


def counted(model, fields):
    return {pk: rest for pk, *rest in model.objects.order_by("pk").values_list("pk", *fields)}


def kept_counts():
    return (
        counted(Episode, counters.EPISODE_COUNTS),
        counted(Speaker, counters.SPEAKER_COUNTS),
        counted(Podcast, counters.PODCAST_COUNTS),
        counted(Topic, counters.TOPIC_COUNTS),
        counted(Reference, counters.REFERENCE_COUNTS),
        counted(ClaimReference, recount.NAMING_PLACES),
        prediction_counts(),
        counted(Claim, ["air_date", "episode_published", "podcast_id"]),
        counted(ClaimLink, ["shared_speaker", "moved_on"]),
        counted(Appearance, ["air_date"]),
        set(Claim.objects.filter(in_contradiction=True).values_list("pk", flat=True)),
        kept_listed_counts(),
    )


def truly_in_contradiction():
    """The claims at one end of a contradiction whose other end is public."""
    public = set(
        Claim.objects.filter(
            status=ClaimStatus.PUBLISHED, episode__status=Status.PUBLISHED
        ).values_list("pk", flat=True)
    )
    ends = set()
    contradictions = ClaimLink.objects.filter(relation=Relation.CONTRADICTS)
    for from_id, to_id in contradictions.values_list("from_claim", "to_claim"):
        ends |= {from_id} if to_id in public else set()
        ends |= {to_id} if from_id in public else set()
    return ends


def busiest(namings: Counter) -> list[int]:
    return sorted(namings, key=lambda pk: (-namings[pk], pk))[: counters.KEPT_NAMERS]


def true_reference_counts():
    references = {}
    for reference in Reference.objects.order_by("pk"):
        public = ClaimReference.objects.filter(
            reference=reference,
            claim__status=ClaimStatus.PUBLISHED,
            claim__episode__status=Status.PUBLISHED,
        )
        overall, namings = Counter(), {}
        for role in NamedAs.values:
            speakers = list(public.filter(role=role).values_list("claim__speaker", flat=True))
            if not speakers:
                continue
            by_speaker = Counter(pk for pk in speakers if pk is not None)
            overall.update(by_speaker)
            namings[role] = {
                "namings": len(speakers),
                "people": len(by_speaker),
                "unresolved": None in speakers,
                "speakers": busiest(by_speaker),
            }
        claims = public.values("claim").distinct().count()
        references[reference.pk] = [claims, len(overall), namings, busiest(overall)]
    return references


def true_counts():
    """Every count as the claims have it now, counted from scratch."""
    published = Claim.objects.filter(status=ClaimStatus.PUBLISHED)
    # From the episodes themselves, not the claims' copies of their status that it checks.
    truly_public = published.filter(episode__status=Status.PUBLISHED)
    logged = ClaimRevision.objects.filter(
        kind__in=(RevisionKind.CORRECTED, RevisionKind.RETRACTED),
        claim__status__in=(ClaimStatus.PUBLISHED, ClaimStatus.RETRACTED),
    )
    episodes = {
        e.pk: [
            published.filter(episode=e).count(),
            published.filter(episode=e).exclude(speaker=None).values("speaker").distinct().count(),
            published.filter(episode=e, type=ClaimType.PREDICTION).count(),
            logged.filter(claim__episode=e).count(),
        ]
        for e in Episode.objects.order_by("pk")
    }
    public_links = set(ClaimLink.objects.public().values_list("pk", flat=True))
    moves = Counter(
        shared
        for pk, (shared, moved_on) in kept_by_links().items()
        if moved_on and pk in public_links
    )
    speakers = {}
    for speaker in Speaker.objects.order_by("pk"):
        mix = Counter(truly_public.filter(speaker=speaker).values_list("type", flat=True))
        appeared = Appearance.objects.filter(speaker=speaker, episode__status=Status.PUBLISHED)
        claimed = truly_public.filter(speaker=speaker)
        episodes_on_record = {*appeared.values_list("episode", flat=True)} | {
            *claimed.values_list("episode", flat=True)
        }
        predicted = claimed.filter(type=ClaimType.PREDICTION)
        outcomes = Counter(predicted.values_list("resolution", flat=True))
        roles = Counter(appeared.values_list("role", flat=True))
        speakers[speaker.pk] = [
            sum(mix.values()),
            dict(mix),
            dict(outcomes),
            len(episodes_on_record),
            dict(roles),
            moves[speaker.pk],
        ]
    podcasts = {
        p.pk: [
            p.episodes.published().count(),
            published.filter(episode__podcast=p, episode__status=Status.PUBLISHED).count(),
            truly_public.filter(episode__podcast=p, type=ClaimType.PREDICTION).count(),
            logged.filter(
                claim__episode__podcast=p, claim__episode__status=Status.PUBLISHED
            ).count(),
        ]
        for p in Podcast.objects.order_by("pk")
    }
    topics = {}
    for topic in Topic.objects.order_by("pk"):
        public = truly_public.filter(topics=topic)
        by_speaker = Counter(public.exclude(speaker=None).values_list("speaker", flat=True))
        top = sorted(by_speaker, key=lambda pk: (-by_speaker[pk], pk))
        topics[topic.pk] = [
            public.count(),
            dict(Counter(public.values_list("type", flat=True))),
            len(by_speaker),
            top[: counters.KEPT_SPEAKERS],
        ]
    places = {
        naming.pk: [naming.claim.episode.air_date, naming.claim.episode_id, naming.claim.number]
        for naming in ClaimReference.objects.select_related("claim__episode").order_by("pk")
    }
    predictions = truly_public.filter(type=ClaimType.PREDICTION)
    by_key = Counter(count_key(*pair) for pair in predictions.values_list("resolution", "horizon"))
    kept_of_episodes = {
        c.pk: [c.episode.air_date, c.episode.status == Status.PUBLISHED, c.episode.podcast_id]
        for c in Claim.objects.select_related("episode").order_by("pk")
    }
    return (
        episodes,
        speakers,
        podcasts,
        topics,
        true_reference_counts(),
        places,
        dict(by_key),
        kept_of_episodes,
        kept_by_links(),
        {a.pk: [a.episode.air_date] for a in Appearance.objects.select_related("episode")},
        truly_in_contradiction(),
        true_listed_counts(),
    )


def true_listed_counts():
    """How many speakers and references the pages list, counted from the claims and
    appearances themselves."""
    truly_public = Claim.objects.filter(
        status=ClaimStatus.PUBLISHED, episode__status=Status.PUBLISHED
    )
    with_claims = set(truly_public.exclude(speaker=None).values_list("speaker", flat=True))
    appeared = set(
        Appearance.objects.filter(episode__status=Status.PUBLISHED).values_list(
            "speaker", flat=True
        )
    )
    named = ClaimReference.objects.filter(
        claim__status=ClaimStatus.PUBLISHED, claim__episode__status=Status.PUBLISHED
    )
    return {
        ListedKind.SPEAKERS: len(with_claims | appeared),
        ListedKind.PEOPLE: len(with_claims),
        ListedKind.REFERENCES: named.values("reference").distinct().count(),
    }


def kept_by_links():
    """Each link's shared speaker and, if it tells how that speaker's position moved, the
    later claim's air date, worked out from its claims' episodes."""
    kept = {}
    for link in ClaimLink.objects.select_related("from_claim__episode", "to_claim__episode"):
        later, earlier = link.from_claim, link.to_claim
        if later.episode.air_date < earlier.episode.air_date:
            later, earlier = earlier, later
        shared = later.speaker_id if later.speaker_id == earlier.speaker_id else None
        moved = (
            shared is not None
            and link.relation in ("contradicts", "repeats", "refines")
            and later.episode.air_date != earlier.episode.air_date
            and (link.relation != "refines" or later == link.from_claim)
        )
        kept[link.pk] = [shared, later.episode.air_date if moved else None]
    return dict(sorted(kept.items()))


@pytest.fixture
def ledger(db):
    podcast = make_podcast()
    episodes = [make_episode(podcast), make_episode(podcast, status=Status.DRAFT), make_episode()]
    for name in ("Testing", "Pricing"):
        Topic.objects.create(name=name, slug=name.lower())
    deploys, _ = (
        Reference.objects.create(kind="book", title=title, slug=title.lower())
        for title in ("Deploys", "Pytest")
    )
    speakers = [make_speaker(), make_speaker(), make_speaker()]
    # A public claim and a draft that name a reference, for the edits that move them,
    # and each in a contradiction with a public claim of another episode.
    for status in (ClaimStatus.PUBLISHED, ClaimStatus.DRAFT):
        claim = make_claim(episodes[0], speakers[0], status=status)
        ClaimReference.objects.create(claim=claim, reference=deploys, role=NamedAs.USES)
        make_link(claim, make_claim(episodes[2], speakers[1]), Relation.CONTRADICTS)
    return episodes, speakers


def add_claim(episodes, speakers, choice):
    # As the admin and the importer do, with the episode as it is now (redated, maybe).
    episode, speaker = Episode.objects.get(pk=episodes[choice % 3].pk), speakers[choice % 2]
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
        # A horizon or an outcome keeps a prediction one (claims.predictions).
        if claim.horizon is None and not claim.is_resolved:
            claim.type = ClaimType.values[(choice + 1) % 9]
        claim.save(correction_note="It was the other speaker.")


def correct_the_words(episodes, speakers, choice):
    """A correction that moves no other count: only the episode's corrections."""
    claims = list(Claim.objects.filter(status=ClaimStatus.PUBLISHED).order_by("pk"))
    if claims:
        claim = claims[choice % len(claims)]
        claim.excerpt = f"{claim.excerpt} (as said)"
        claim.save(correction_note="Misheard a word.")


def move_a_draft(episodes, speakers, choice):
    """Another episode or number for a draft, as editors may before publishing it."""
    drafts = list(Claim.objects.filter(status=ClaimStatus.DRAFT).order_by("pk"))
    if drafts:
        draft = drafts[choice % len(drafts)]
        draft.episode = Episode.objects.get(pk=episodes[choice % 3].pk)
        draft.number = draft.episode.claims.next_number()
        draft.save()


def link_two(episodes, speakers, choice):
    claims = list(Claim.objects.order_by("pk"))
    if len(claims) > 1:
        first = claims[choice % len(claims)]
        second = claims[(choice // 2 + 1) % len(claims)]
        if first != second and not ClaimLink.objects.filter(
            Q(from_claim=first, to_claim=second) | Q(from_claim=second, to_claim=first)
        ):
            # Each relation, so that a refinement's direction is checked too.
            make_link(first, second, Relation.values[choice % len(Relation.values)])


def redate_an_episode(episodes, speakers, choice):
    episode = Episode.objects.get(pk=episodes[choice % 3].pk)
    episode.air_date -= datetime.timedelta(days=choice + 1)
    episode.save()


def move_an_episode(episodes, speakers, choice):
    """To another show, as an editor may on the episode's change page."""
    episode = Episode.objects.get(pk=episodes[choice % 3].pk)
    episode.podcast = Podcast.objects.exclude(pk=episode.podcast_id).order_by("pk").first()
    episode.save()


# Few horizons, so that predictions share the counts kept by horizon.
HORIZONS = [None, datetime.date(2025, 6, 30), datetime.date(2026, 6, 30), datetime.date(2031, 1, 1)]


def add_prediction(episodes, speakers, choice):
    status = ClaimStatus.PUBLISHED if choice % 4 else ClaimStatus.DRAFT
    episode = Episode.objects.get(pk=episodes[choice % 3].pk)
    make_prediction(episode, speakers[choice % 2], HORIZONS[choice % 4], status=status)


def changeable_predictions():
    """A retracted claim is kept as it was: no edit may touch it (claims.history)."""
    predictions = Claim.objects.filter(type=ClaimType.PREDICTION)
    return list(predictions.exclude(status=ClaimStatus.RETRACTED).order_by("pk"))


def resolve_or_reopen_one(episodes, speakers, choice):
    predictions = changeable_predictions()
    if not predictions:
        return
    claim = predictions[choice % len(predictions)]
    if claim.is_resolved:
        claim.resolve(Resolution.OPEN, why="Resolved too early.")
    else:
        resolve(claim, [r for r in Resolution if r != Resolution.OPEN][choice % 4])


def move_a_horizon(episodes, speakers, choice):
    predictions = changeable_predictions()
    if predictions:
        claim = predictions[choice % len(predictions)]
        claim.horizon = HORIZONS[(choice + 1) % 4]
        claim.horizon_precision = "day" if claim.horizon else ""
        claim.save()


def toggle_an_episode(episodes, speakers, choice):
    episode = Episode.objects.get(pk=episodes[choice % 3].pk)
    episode.status = Status.DRAFT if episode.status == Status.PUBLISHED else Status.PUBLISHED
    episode.save()


def delete_a_draft(episodes, speakers, choice):
    drafts = list(Claim.objects.filter(status=ClaimStatus.DRAFT))
    if drafts:
        drafts[choice % len(drafts)].delete()


def tag_one(episodes, speakers, choice):
    claims = list(Claim.objects.order_by("pk"))
    if claims:
        topics = Topic.objects.order_by("pk")
        claims[choice % len(claims)].topics.add(topics[choice % 2])


def untag_one(episodes, speakers, choice):
    """Through either side of the link, or every link of the claim at once."""
    claims = list(Claim.objects.exclude(topics=None).order_by("pk"))
    if not claims:
        return
    claim = claims[choice % len(claims)]
    if choice % 3 == 0:
        claim.topics.clear()
    elif choice % 3 == 1:
        claim.topics.first().claims.remove(claim)
    else:
        claim.topics.set([])


def tag_from_the_topic(episodes, speakers, choice):
    claims = Claim.objects.order_by("pk")[: choice % 4 + 1]
    Topic.objects.order_by("pk")[choice % 2].claims.add(*claims)


def add_appearance(episodes, speakers, choice):
    # As the admin's inline and the importer do, with the episode as it is now.
    episode, speaker = Episode.objects.get(pk=episodes[choice % 3].pk), speakers[choice % 3]
    if not Appearance.objects.filter(episode=episode, speaker=speaker).exists():
        make_appearance(episode, speaker, Role.values[choice % 3])


def change_appearance(episodes, speakers, choice):
    """Another role, or another speaker, as an editor may in the episode's inline."""
    appearances = list(Appearance.objects.order_by("pk"))
    if not appearances:
        return
    appearance = appearances[choice % len(appearances)]
    if choice % 2:
        appearance.role = Role.values[choice % 3]
    else:
        taken = Appearance.objects.filter(episode=appearance.episode).values("speaker")
        free = Speaker.objects.exclude(pk__in=taken).first()
        if free is None:
            return
        appearance.speaker = free
    appearance.save()


def remove_appearance(episodes, speakers, choice):
    appearances = list(Appearance.objects.order_by("pk"))
    if appearances:
        appearances[choice % len(appearances)].delete()


def name_one(episodes, speakers, choice):
    """As the claim's admin inline adds a naming."""
    claims = list(Claim.objects.order_by("pk"))
    if claims:
        naming = {
            "claim": claims[choice % len(claims)],
            "reference": Reference.objects.order_by("pk")[choice % 2],
            "role": NamedAs.values[choice % 4],
        }
        if not ClaimReference.objects.filter(**naming).exists():
            ClaimReference.objects.create(**naming)


def unname_one(episodes, speakers, choice):
    """As the inline removes a naming, or points it at the other reference."""
    namings = list(ClaimReference.objects.order_by("pk"))
    if not namings:
        return
    naming = namings[choice % len(namings)]
    if choice % 2:
        naming.delete()
        return
    other = Reference.objects.exclude(pk=naming.reference_id).get()
    taken = ClaimReference.objects.filter(claim=naming.claim, reference=other, role=naming.role)
    if not taken.exists():
        naming.reference = other
        naming.save()


EDITS = [
    add_claim,
    publish_a_draft,
    retract_one,
    correct_one,
    correct_the_words,
    toggle_an_episode,
    move_a_draft,
    link_two,
    redate_an_episode,
    move_an_episode,
    delete_a_draft,
    tag_one,
    untag_one,
    tag_from_the_topic,
    add_appearance,
    change_appearance,
    remove_appearance,
    name_one,
    unname_one,
    add_prediction,
    resolve_or_reopen_one,
    move_a_horizon,
]


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.tuples(st.sampled_from(EDITS), st.integers(0, 50)), max_size=16))
def test_random_edits_leave_every_count_equal_to_a_recount(ledger, edits):
    episodes, speakers = ledger
    # One kept speaker per topic and per reference's role, so which one it keeps is
    # checked too.
    with (
        patch("claims.counters.KEPT_SPEAKERS", 1),
        patch("claims.counters.KEPT_NAMERS", 1),
        transaction.atomic(),
    ):
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


def test_an_episode_moved_to_another_show_on_its_change_page_is_counted_by_that_show(
    admin_client,
):
    claim = make_claim()
    left, joined = claim.episode.podcast, make_podcast()

    response = post_episode_change(admin_client, claim.episode, podcast=joined.pk)

    assert response.status_code == 302
    shows = Podcast.objects.filter(pk__in=[left.pk, joined.pk])
    assert {
        pk: (episodes, claims)
        for pk, episodes, claims in shows.values_list(
            "pk", "public_episode_count", "public_claim_count"
        )
    } == {left.pk: (0, 0), joined.pk: (1, 1)}


def test_recount_repairs_a_count_that_drifted_and_says_so(capsys):
    speaker = make_claim().speaker
    Speaker.objects.filter(pk=speaker.pk).update(public_claim_count=7)

    call_command("recount")

    speaker.refresh_from_db()
    assert speaker.public_claim_count == 1
    assert "Counts that were wrong: 1 speakers." in capsys.readouterr().out


def test_recount_repairs_a_listed_count_that_drifted_and_says_so(capsys):
    make_claim()
    ListedCount.objects.filter(kind=ListedKind.PEOPLE).update(count=40)

    call_command("recount")

    assert kept_listed_counts()[ListedKind.PEOPLE] == 1
    assert "Counts that were wrong: 1 listed counts." in capsys.readouterr().out


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

    with patch("claims.recount.recount_podcasts", wraps=counters.recount_podcasts) as summed:
        recount.recount_everything(batch=1)

    # Once, in the podcasts' own pass: not once per chunk of one episode.
    assert summed.call_count == 1


def test_an_import_counts_the_topics_it_links_and_unlinks(tmp_path):
    doc = document()
    doc["topics"] = [{"slug": "sourcing", "name": "Sourcing"}]
    for claim in doc["episodes"][0]["claims"]:
        claim["topics"] = ["sourcing"]
    run_import(tmp_path, as_json(doc))
    sourcing = Topic.objects.get(slug="sourcing")
    # Two published claims, one by an unresolved voice; the third is a draft.
    assert (sourcing.public_claim_count, sourcing.public_speaker_count) == (2, 1)
    assert sourcing.public_claim_mix == {"belief": 1, "prediction": 1}

    doc["episodes"][0]["claims"][0]["topics"] = []
    run_import(tmp_path, as_json(doc))

    sourcing.refresh_from_db()
    assert (sourcing.public_claim_count, sourcing.public_speaker_count) == (1, 0)
    assert sourcing.public_top_speakers == []


def test_a_speakers_moves_are_counted_as_links_come_and_go():
    ada = make_speaker()
    earlier = make_claim(make_episode(air_date=datetime.date(2026, 1, 1)), ada)
    later = make_claim(make_episode(air_date=datetime.date(2026, 2, 1)), ada)

    link = make_link(later, earlier, "contradicts")
    ada.refresh_from_db()
    counted = ada.public_move_count
    link.delete()
    ada.refresh_from_db()

    assert (counted, ada.public_move_count) == (1, 0)


def test_an_import_counts_the_episodes_and_roles_of_the_people_it_lists(tmp_path):
    doc = document()
    doc["episodes"][0]["appearances"] = [
        {"speaker": "ada-example", "role": "host"},
        {"speaker": "ben-sample", "role": "guest"},
    ]
    run_import(tmp_path, as_json(doc))
    ada = Speaker.objects.get(slug="ada-example")
    # Ada's only claim is a draft: she is on the record by her appearance alone.
    assert (ada.public_episode_count, ada.public_role_counts) == (1, {"host": 1})

    doc["episodes"][0]["appearances"] = [{"speaker": "ben-sample", "role": "host"}]
    run_import(tmp_path, as_json(doc))

    ada.refresh_from_db()
    ben = Speaker.objects.get(slug="ben-sample")
    assert (ada.public_episode_count, ada.public_role_counts) == (0, {})
    assert (ben.public_episode_count, ben.public_role_counts) == (1, {"host": 1})


def test_an_import_counts_the_references_it_names_and_unnames(tmp_path):
    doc = document()
    doc["references"] = [{"slug": "pytest", "kind": "tool", "title": "pytest"}]
    for claim in doc["episodes"][0]["claims"]:
        claim["references"] = [{"role": "uses", "slug": "pytest"}]
    run_import(tmp_path, as_json(doc))
    pytest_ = Reference.objects.get(slug="pytest")
    ben = Speaker.objects.get(slug="ben-sample")
    # Two published claims, one by an unresolved voice; the third is a draft.
    assert (pytest_.public_claim_count, pytest_.public_people_count) == (2, 1)
    assert pytest_.public_namings == {
        "uses": {"namings": 2, "people": 1, "unresolved": True, "speakers": [ben.pk]}
    }

    doc["episodes"][0]["claims"][0]["references"] = []
    run_import(tmp_path, as_json(doc))

    pytest_.refresh_from_db()
    assert (pytest_.public_claim_count, pytest_.public_people_count) == (1, 0)
    assert pytest_.public_namings == {
        "uses": {"namings": 1, "people": 0, "unresolved": True, "speakers": []}
    }
    assert pytest_.public_top_speakers == []


def test_recount_repairs_a_reference_count_that_drifted_and_says_so(capsys):
    claim = make_claim()
    book = Reference.objects.create(kind="book", title="Deploys", slug="deploys")
    ClaimReference.objects.create(claim=claim, reference=book, role=NamedAs.USES)
    Reference.objects.filter(pk=book.pk).update(public_people_count=5, public_top_speakers=[])

    call_command("recount")

    book.refresh_from_db()
    assert (book.public_people_count, book.public_top_speakers) == (1, [claim.speaker_id])
    assert "Counts that were wrong: 1 references." in capsys.readouterr().out


def test_recount_repairs_a_correction_count_that_drifted_and_says_so(capsys):
    claim = make_claim()
    claim.retract("Said by someone else.")
    Episode.objects.filter(pk=claim.episode_id).update(correction_count=0)
    Podcast.objects.filter(pk=claim.episode.podcast_id).update(public_correction_count=0)

    call_command("recount")

    assert Episode.objects.get(pk=claim.episode_id).correction_count == 1
    assert Podcast.objects.get(pk=claim.episode.podcast_id).public_correction_count == 1
    assert "Counts that were wrong: 1 episodes, 1 podcasts." in capsys.readouterr().out


def test_recount_puts_a_naming_back_where_its_claim_is_listed(capsys):
    claim = make_claim()
    book = Reference.objects.create(kind="book", title="Deploys", slug="deploys")
    naming = ClaimReference.objects.create(claim=claim, reference=book, role=NamedAs.USES)
    ClaimReference.objects.filter(pk=naming.pk).update(number=99, air_date="2000-01-01")

    call_command("recount")

    naming.refresh_from_db()
    assert (naming.air_date, naming.number) == (claim.episode.air_date, claim.number)
    assert "Counts that were wrong: 1 named references." in capsys.readouterr().out


def test_recount_puts_back_a_claims_air_date_that_drifted(capsys):
    claim = make_claim()
    make_claim()  # true already: not counted as repaired
    Claim.objects.filter(pk=claim.pk).update(air_date="2000-01-01")

    call_command("recount")

    claim.refresh_from_db()
    assert claim.air_date == claim.episode.air_date
    assert "Counts that were wrong: 1 claims' episode dates, podcasts and statuses." in (
        capsys.readouterr().out
    )


@pytest.mark.parametrize("episode_status", [Status.PUBLISHED, Status.DRAFT])
def test_recount_puts_back_whether_a_claims_episode_is_published(capsys, episode_status):
    claim = make_claim(episode=make_episode(status=episode_status))
    make_claim()  # true already: not counted as repaired
    Claim.objects.filter(pk=claim.pk).update(episode_published=episode_status != Status.PUBLISHED)

    call_command("recount")

    claim.refresh_from_db()
    assert claim.episode_published is (episode_status == Status.PUBLISHED)
    assert "Counts that were wrong: 1 claims' episode dates, podcasts and statuses." in (
        capsys.readouterr().out
    )


def test_recount_puts_back_a_claims_podcast(capsys):
    claim = make_claim()
    make_claim()  # true already: not counted as repaired
    Claim.objects.filter(pk=claim.pk).update(podcast_id=make_podcast().pk)

    call_command("recount")

    claim.refresh_from_db()
    assert claim.podcast_id == claim.episode.podcast_id
    assert "Counts that were wrong: 1 claims' episode dates, podcasts and statuses." in (
        capsys.readouterr().out
    )


def test_recount_puts_back_the_speaker_a_links_claims_share(capsys):
    ada = make_speaker()
    link = make_link(make_claim(speaker=ada), make_claim(speaker=ada), "repeats")
    ClaimLink.objects.filter(pk=link.pk).update(shared_speaker=None)

    call_command("recount")

    link.refresh_from_db()
    assert link.shared_speaker == ada
    assert "Counts that were wrong: 1 linked claims." in capsys.readouterr().out


def test_recount_puts_back_whether_claims_are_in_a_contradiction(capsys):
    kept, lost = make_claim(), make_claim()
    make_link(kept, make_claim(), "contradicts")
    Claim.objects.filter(pk=kept.pk).update(in_contradiction=False)
    Claim.objects.filter(pk=lost.pk).update(in_contradiction=True)

    call_command("recount")

    assert {*Claim.objects.filter(in_contradiction=True)} == {kept, kept.links_from.get().to_claim}
    assert "Counts that were wrong: 2 claims in a contradiction." in capsys.readouterr().out


def test_recount_repairs_a_prediction_count_that_drifted_and_says_so(capsys):
    make_prediction(horizon=datetime.date(2027, 12, 31))
    PredictionCount.objects.update(count=5)
    PredictionCount.objects.create(resolution=Resolution.CAME_TRUE, count=2)

    call_command("recount")

    assert prediction_counts() == {(Resolution.OPEN, datetime.date(2027, 12, 31)): 1}
    assert "Counts that were wrong: 2 prediction counts." in capsys.readouterr().out


def test_an_import_counts_the_predictions_it_brings_and_moves(tmp_path):
    doc = document()
    doc["episodes"][0]["claims"][1]["horizon"] = "2027"
    run_import(tmp_path, as_json(doc))
    assert prediction_counts() == {(Resolution.OPEN, datetime.date(2027, 12, 31)): 1}

    doc["episodes"][0]["claims"][1]["horizon"] = "2028-03"
    run_import(tmp_path, as_json(doc))

    assert prediction_counts() == {(Resolution.OPEN, datetime.date(2028, 3, 31)): 1}


def test_the_admin_actions_count_the_predictions_they_publish_and_unpublish(admin_client):
    draft = make_prediction(status=ClaimStatus.DRAFT)
    admin_client.post("/admin/claims/claim/", {"action": "publish", "_selected_action": [draft.pk]})
    assert prediction_counts() == {(Resolution.OPEN, None): 1}

    admin_client.post(
        "/admin/episodes/episode/", {"action": "unpublish", "_selected_action": [draft.episode_id]}
    )

    assert prediction_counts() == {}
