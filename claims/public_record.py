"""Podcasts, episodes and speakers counted by their public claims.

The pages that list podcasts, episodes and speakers show how many public claims
each has. Those counts need claims, so they live here rather than on the
episodes app's querysets: episodes never imports claims.
"""

from django.db import models
from django.db.models import Count, QuerySet

from claims.models import Claim
from episodes.models import Episode, Podcast, Speaker, Status, Transcript


def speakers_with_claim_counts() -> QuerySet[Speaker]:
    """Speakers with at least one public claim, annotated with `claim_count`.

    Joined to their public claims and grouped: COUNT(*) over the join needs no
    column outside the claims' (speaker, status, episode) index, so PostgreSQL
    reads that index instead of the claims table, where counting claim ids with a
    FILTER reads every claim.
    """
    return Speaker.objects.filter(Claim.public_q(prefix="claims__")).annotate(
        claim_count=Count("*")
    )


def podcasts_with_counts() -> list[Podcast]:
    """Podcasts with a published episode, by name, each with its public `episode_count`
    and `claim_count`.

    Two queries: counted beside the episodes in one query, every claim row would
    be read and both counts would have to be DISTINCT.
    """
    podcasts = list(Podcast.objects.with_published_episodes())
    claim_counts = Claim.objects.published().count_by_podcast()
    for podcast in podcasts:
        podcast.claim_count = claim_counts.get(podcast.pk, 0)
    return podcasts


def episodes_with_counts(episodes: QuerySet[Episode]) -> QuerySet[Episode]:
    """These episodes (one page: a sliced queryset) with their podcast, their public
    `claim_count` and `people_count` (identified speakers), and `has_public_transcript`.

    Counting joins episodes to all their claims; annotated before the slice, the
    database counts every episode in the ledger to show a page of them. Here the
    page is picked first, in a subquery, and only its episodes are counted: still
    one query.
    """
    public = Claim.public_q(prefix="claims__")
    return (
        Episode.objects.filter(pk__in=episodes.values("pk"))
        .annotate(
            claim_count=Count("claims", filter=public, distinct=True),
            # Unresolved voices have no speaker, and COUNT skips the NULLs.
            people_count=Count("claims__speaker", filter=public, distinct=True),
        )
        .with_transcript_flag()
        .select_related("podcast")
        .defer("summary")
        .newest_first()
    )


def totals() -> dict[str, int]:
    """The home page's figures: public claims, episodes, people and podcasts (four queries)."""
    return {
        "claim_count": Claim.objects.published().count(),
        "episode_count": Episode.objects.published().count(),
        # An EXISTS per speaker and podcast, not a count of every claim.
        "people_count": Claim.objects.published().speakers().count(),
        "podcast_count": Podcast.objects.public().count(),
    }


def readers_see_change_to(record: models.Model) -> bool:
    """Whether saving or deleting `record` may change a public page.

    Asked just after the write, for the ledger's version: a draft's changes stay
    unseen. Anything this does not know is taken to be seen.
    """
    if isinstance(record, Claim):
        return record.was_or_is_on_record and record.episode.status == Status.PUBLISHED
    if isinstance(record, Transcript):
        return record.episode.status == Status.PUBLISHED
    if isinstance(record, Episode):
        return record.status == Status.PUBLISHED or record.has_changed("status")
    if isinstance(record, Speaker):
        return Claim.objects.published().filter(speaker=record).exists()
    if isinstance(record, Podcast):
        return Episode.objects.published().filter(podcast=record).exists()
    return True
