"""Public counts kept beside the records they count.

The lists of speakers and podcasts and the home page show how many public claims
each has. Counted as pages are asked for, they read every claim in the ledger
(1.6 s for the speakers at a million claims on SQLite). Instead each episode,
speaker and podcast keeps its counts, and the ledger its public predictions by
outcome and horizon (PredictionCount) and how many speakers and references the
pages list (ListedCount), brought up to date in the same transaction
as the change that moves them, and `manage.py recount` rebuilds them all.

An update counts again; it never adds or subtracts. An episode's claims, one
speaker's claims and a podcast's episodes are small, index-served reads, and a
count that drifted heals the next time its record is touched.
"""

from collections import Counter, defaultdict

from django.db.models import Count, Q, Sum

from claims.choices import ClaimStatus, ClaimType
from claims.history import LOGGED_KINDS
from claims.listed_counts import ListedKind, count_listed
from claims.models import Claim, ClaimLink, ClaimReference, ClaimRevision, Reference, Role, Topic
from claims.prediction_recounts import (
    prediction_keys,
    prediction_keys_of,
    recount_predictions,
)
from claims.querysets import ON_RECORD, public_q
from claims.references import KEPT_NAMERS
from claims.topics import KEPT_SPEAKERS
from episodes.models import Appearance, Episode, Podcast, Speaker, Status

TopicLink = Claim.topics.through

# Counts are not a change readers see by themselves (the change that moved them
# moved the ledger's version already): written through the plain manager.


def recount_episodes(episode_ids) -> None:
    """Count again the published claims, people and corrections of these episodes, and
    their podcasts'."""
    recount_podcasts(count_episodes(episode_ids))


def count_episodes(episode_ids) -> set[int]:
    """Count again the published claims and people of these episodes, and the corrections
    and retractions of their claims on record; returns the ids of their podcasts, whose
    sums those counts move."""
    episode_ids = set(episode_ids)
    if not episode_ids:
        return set()
    counts = {
        row["episode"]: row
        for row in Claim.objects.filter(episode__in=episode_ids, status=ClaimStatus.PUBLISHED)
        .values("episode")
        .annotate(
            claims=Count("*"),
            people=Count("speaker", distinct=True),
            predictions=Count("pk", filter=Q(type=ClaimType.PREDICTION)),
        )
        .order_by()
    }
    corrections = dict(
        ClaimRevision.objects.filter(
            claim__episode__in=episode_ids,
            claim__status__in=ON_RECORD,
            kind__in=LOGGED_KINDS,
        )
        .values_list("claim__episode")
        .annotate(n=Count("*"))
        .order_by()
    )
    episodes = list(Episode._base_manager.filter(pk__in=episode_ids).only("pk", "podcast_id"))
    for episode in episodes:
        row = counts.get(episode.pk, {})
        episode.published_claim_count = row.get("claims", 0)
        episode.published_people_count = row.get("people", 0)
        episode.published_prediction_count = row.get("predictions", 0)
        episode.correction_count = corrections.get(episode.pk, 0)
    Episode._base_manager.bulk_update(episodes, EPISODE_COUNTS, batch_size=500)
    return {episode.podcast_id for episode in episodes}


def recount_podcasts(podcast_ids) -> None:
    """Count again the published episodes of these podcasts and sum their claims and
    corrections."""
    podcast_ids = set(podcast_ids)
    if not podcast_ids:
        return
    sums = {
        row["podcast"]: row
        for row in Episode._base_manager.filter(podcast__in=podcast_ids, status=Status.PUBLISHED)
        .values("podcast")
        .annotate(
            episodes=Count("*"),
            claims=Sum("published_claim_count"),
            predictions=Sum("published_prediction_count"),
            corrections=Sum("correction_count"),
        )
        .order_by()
    }
    podcasts = list(Podcast._base_manager.filter(pk__in=podcast_ids).only("pk"))
    for podcast in podcasts:
        row = sums.get(podcast.pk, {})
        podcast.public_episode_count = row.get("episodes", 0)
        podcast.public_claim_count = row.get("claims") or 0
        podcast.public_prediction_count = row.get("predictions") or 0
        podcast.public_correction_count = row.get("corrections") or 0
    Podcast._base_manager.bulk_update(podcasts, PODCAST_COUNTS, batch_size=500)


def recount_speakers(speaker_ids) -> None:
    """Count again these speakers' public claims, by type, and their predictions by
    outcome; their published episodes (with a public claim or an appearance, each once);
    their appearances on published episodes in each role; and the moves of their
    positions (links.moves_of); and how many speakers the pages list (ListedCount)."""
    speaker_ids = {pk for pk in speaker_ids if pk is not None}
    if not speaker_ids:
        return
    public = Claim.objects.published().filter(speaker__in=speaker_ids)
    mixes, outcomes = defaultdict(Counter), defaultdict(dict)
    by_type = public.values_list("speaker", "type", "resolution").annotate(n=Count("*"))
    for speaker, claim_type, resolution, n in by_type.order_by():
        mixes[speaker][claim_type] += n
        if claim_type == ClaimType.PREDICTION:
            outcomes[speaker][resolution] = n
    appeared = Appearance.objects.published().filter(speaker__in=speaker_ids)
    # A UNION, not UNION ALL: an episode they appeared in and have claims in counts once.
    pairs = (
        public.values_list("speaker", "episode")
        .order_by()
        .union(appeared.values_list("speaker", "episode").order_by())
    )
    episodes = Counter(speaker for speaker, _ in pairs)
    moves = ClaimLink.objects.public().filter(
        shared_speaker__in=speaker_ids, moved_on__isnull=False
    )
    move_counts = dict(moves.values_list("shared_speaker").annotate(n=Count("*")).order_by())
    roles = defaultdict(dict)
    for speaker, role, n in (
        appeared.values_list("speaker", "role").annotate(n=Count("*")).order_by()
    ):
        roles[speaker][role] = n
    speakers = list(Speaker._base_manager.filter(pk__in=speaker_ids).only("pk"))
    for speaker in speakers:
        speaker.public_claim_mix = dict(mixes.get(speaker.pk, {}))
        speaker.public_claim_count = sum(speaker.public_claim_mix.values())
        speaker.public_prediction_outcomes = outcomes.get(speaker.pk, {})
        speaker.public_episode_count = episodes[speaker.pk]
        speaker.public_role_counts = roles.get(speaker.pk, {})
        speaker.public_move_count = move_counts.get(speaker.pk, 0)
    Speaker._base_manager.bulk_update(speakers, SPEAKER_COUNTS, batch_size=500)
    count_listed(ListedKind.SPEAKERS, ListedKind.PEOPLE)


def recount_topics(topic_ids) -> None:
    """Count again these topics' public claims, by type, and by speaker (the number of
    identified people, and the KEPT_SPEAKERS with the most claims). Two queries over the
    topics' links, and one write."""
    topic_ids = set(topic_ids)
    if not topic_ids:
        return
    links = TopicLink.objects.filter(public_q(prefix="claim__"), topic__in=topic_ids).order_by()
    mixes = defaultdict(dict)
    for topic, kind, n in links.values_list("topic", "claim__type").annotate(n=Count("*")):
        mixes[topic][kind] = n
    by_speaker = defaultdict(list)
    for topic, speaker, n in (
        links.exclude(claim__speaker=None)
        .values_list("topic", "claim__speaker")
        .annotate(n=Count("*"))
    ):
        by_speaker[topic].append((-n, speaker))
    topics = list(Topic._base_manager.filter(pk__in=topic_ids).only("pk"))
    for topic in topics:
        topic.public_claim_mix = mixes.get(topic.pk, {})
        topic.public_claim_count = sum(topic.public_claim_mix.values())
        speakers = sorted(by_speaker[topic.pk])
        topic.public_speaker_count = len(speakers)
        topic.public_top_speakers = [speaker for _, speaker in speakers[:KEPT_SPEAKERS]]
    fields = ["public_claim_count", "public_claim_mix", "public_speaker_count"]
    Topic._base_manager.bulk_update(topics, [*fields, "public_top_speakers"], batch_size=500)


def busiest(namings: Counter) -> list[int]:
    """The KEPT_NAMERS speakers with the most namings (ties by id), as kept."""
    ranked = sorted(namings.items(), key=lambda item: (-item[1], item[0]))
    return [speaker for speaker, _ in ranked[:KEPT_NAMERS]]


def recount_references(reference_ids) -> None:
    """Count again the public claims naming these references, and the people who named
    them, per role and overall, keeping the busiest few of them. Two queries over the
    references' namings, and one write; then how many references are listed."""
    reference_ids = set(reference_ids)
    if not reference_ids:
        return
    namings = ClaimReference.objects.filter(
        public_q(prefix="claim__"), reference__in=reference_ids
    ).order_by()
    claims = dict(namings.values_list("reference").annotate(n=Count("claim", distinct=True)))
    # {reference: {role: Counter({speaker or None: claims naming it so})}}
    named = defaultdict(lambda: defaultdict(Counter))
    for reference, role, speaker, n in namings.values_list(
        "reference", "role", "claim__speaker"
    ).annotate(n=Count("*")):
        named[reference][role][speaker] = n
    references = list(Reference._base_manager.filter(pk__in=reference_ids).only("pk"))
    for reference in references:
        overall, reference.public_namings = Counter(), {}
        for role in Role.values:
            if by_speaker := named[reference.pk].get(role):
                # Unresolved voices have no speaker: shown, never counted as people.
                namings = sum(by_speaker.values())
                unresolved = by_speaker.pop(None, 0) > 0
                overall.update(by_speaker)
                reference.public_namings[role] = {
                    "namings": namings,
                    "people": len(by_speaker),
                    "unresolved": unresolved,
                    "speakers": busiest(by_speaker),
                }
        reference.public_claim_count = claims.get(reference.pk, 0)
        reference.public_people_count = len(overall)
        reference.public_top_speakers = busiest(overall)
    Reference._base_manager.bulk_update(references, REFERENCE_COUNTS, batch_size=500)
    count_listed(ListedKind.REFERENCES)


def references_of(claim_ids) -> set[int]:
    """The references these claims name now."""
    namings = ClaimReference.objects.filter(claim__in=claim_ids)
    return set(namings.values_list("reference", flat=True).distinct().order_by())


def references_of_episodes(episode_ids) -> set[int]:
    """The references the claims of these episodes name now."""
    namings = ClaimReference.objects.filter(claim__episode__in=episode_ids)
    return set(namings.values_list("reference", flat=True).distinct().order_by())


def topics_of(claim_ids) -> set[int]:
    """The topics these claims are tagged with now."""
    links = TopicLink.objects.filter(claim__in=claim_ids)
    return set(links.values_list("topic", flat=True).distinct().order_by())


def topics_of_episodes(episode_ids) -> set[int]:
    """The topics the claims of these episodes are tagged with now."""
    links = TopicLink.objects.filter(claim__episode__in=episode_ids)
    return set(links.values_list("topic", flat=True).distinct().order_by())


def recount_claims(claims) -> None:
    """Count again wherever these claims (id, episode and speaker known) are counted."""
    claims = list(claims)
    ids = [claim.pk for claim in claims]
    recount_episodes({claim.episode_id for claim in claims})
    recount_speakers({claim.speaker_id for claim in claims})
    recount_topics(topics_of(ids))
    recount_references(references_of(ids))
    recount_predictions(prediction_keys_of(Claim.objects.filter(pk__in=ids)))
    # Published in bulk (ClaimQuerySet.publish): the claims linked to them by a contradiction.
    for batch in link_batches(ids):
        ClaimLink.objects.touching(batch).refresh_contradictions()


def link_batches(ids) -> list[list[int]]:
    """Claim or episode `ids` in lists small enough to refresh their links in one
    statement: each id is bound four times (ClaimLinkQuerySet.claim_ids), and SQLite
    binds at most 32 766 values."""
    ids = sorted(ids)
    return [ids[start : start + 1000] for start in range(0, len(ids), 1000)]


def claim_saved(
    claim_id: int, before: dict | None, after: dict, speakers_with_redrawn_moves=()
) -> None:
    """After a claim's save (states from claims.history): recount what its change moved.
    `speakers_with_redrawn_moves`: those whose moves the change redrew through the
    claim's links (ClaimLinkQuerySet.refresh_kept), counted with the others, once."""
    speakers = set(speakers_with_redrawn_moves)
    if any(state and state["status"] == ClaimStatus.PUBLISHED for state in (before, after)):

        def moved(*names):
            return before is None or any(before[name] != after[name] for name in names)

        states = [state for state in (before, after) if state]
        if moved("status", "episode", "speaker", "type"):
            recount_episodes({state["episode"] for state in states})
            speakers |= {state["speaker"] for state in states}
            # Its topics and references are the same before and after: links change apart
            # (topics_changed, references_changed).
            recount_topics(topics_of([claim_id]))
            recount_references(references_of([claim_id]))
        if moved("status", "episode", "type", "resolution", "horizon"):
            recount_predictions(prediction_keys(states))
        if moved("resolution"):
            # Their track record counts predictions by outcome.
            speakers |= {state["speaker"] for state in states}
    recount_speakers(speakers)


def revision_saved(episode_id: int, kind: str) -> None:
    """After a claim's change was kept in its history: a correction or retraction moves
    its episode's count of them, and its podcast's."""
    if kind in LOGGED_KINDS:
        recount_episodes({episode_id})


def topics_changed(claim_ids, topic_ids) -> None:
    """After claims' topic links changed (`topic_ids`: those linked or unlinked)."""
    if Claim.objects.filter(pk__in=claim_ids, status=ClaimStatus.PUBLISHED).exists():
        recount_topics(topic_ids)


def references_changed(claim_ids, reference_ids) -> None:
    """After claims named references, or stopped naming them (`reference_ids`)."""
    if Claim.objects.filter(pk__in=claim_ids, status=ClaimStatus.PUBLISHED).exists():
        recount_references(reference_ids)


def appearances_changed(speaker_ids) -> None:
    """After appearances were added, changed or removed: their speakers' episodes and roles."""
    recount_speakers(speaker_ids)


def episodes_changed_status(episode_ids) -> None:
    """After episodes were published or unpublished: their claims' copies of the status,
    first, since the public gate reads them; then the counts."""
    episode_ids = set(episode_ids)
    Claim.objects.filter(episode__in=episode_ids).follow_episodes()
    ClaimLink.objects.touching_episodes(episode_ids).refresh_contradictions()
    recount_podcasts(
        Episode._base_manager.filter(pk__in=episode_ids).values_list("podcast_id", flat=True)
    )
    published = Claim.objects.filter(episode__in=episode_ids, status=ClaimStatus.PUBLISHED)
    recount_speakers(
        {*published.values_list("speaker_id", flat=True).distinct()}
        | {*Appearance.objects.filter(episode__in=episode_ids).values_list("speaker", flat=True)}
    )
    recount_topics(topics_of(published.values("pk")))
    recount_references(references_of(published.values("pk")))
    recount_predictions(prediction_keys_of(published))


EPISODE_COUNTS = (
    "published_claim_count",
    "published_people_count",
    "published_prediction_count",
    "correction_count",
)
PODCAST_COUNTS = (
    "public_episode_count",
    "public_claim_count",
    "public_prediction_count",
    "public_correction_count",
)
SPEAKER_COUNTS = (
    "public_claim_count",
    "public_claim_mix",
    "public_prediction_outcomes",
    "public_episode_count",
    "public_role_counts",
    "public_move_count",
)
TOPIC_COUNTS = (
    "public_claim_count",
    "public_claim_mix",
    "public_speaker_count",
    "public_top_speakers",
)
REFERENCE_COUNTS = (
    "public_claim_count",
    "public_people_count",
    "public_namings",
    "public_top_speakers",
)
