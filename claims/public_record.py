"""Podcasts, episodes and speakers counted by their public claims.

The pages that list podcasts, episodes and speakers show how many public claims
each has. Those counts need claims, so they live here rather than on the
episodes app's querysets: episodes never imports claims. Episodes, speakers and podcasts
keep theirs (claims.counters), so listing them reads no claim at all.
"""

from django.db import models
from django.db.models import Count, F, QuerySet, Sum
from django.db.models.functions import Coalesce

from claims.listed_counts import ListedKind, listed, listed_count
from claims.models import Claim, ClaimLink
from episodes.models import Appearance, Episode, Podcast, Speaker, Status, Transcript


def speakers_with_claim_counts() -> QuerySet[Speaker]:
    """Speakers with at least one public claim, by the count each keeps, with their
    `claim_count`."""
    return listed(ListedKind.PEOPLE).annotate(claim_count=F("public_claim_count"))


def podcasts_with_counts() -> QuerySet[Podcast]:
    """Podcasts with a published episode, by name, each with its public `episode_count`
    and `claim_count`."""
    return (
        Podcast.objects.filter(public_episode_count__gt=0)
        .annotate(episode_count=F("public_episode_count"), claim_count=F("public_claim_count"))
        .order_by("name")
    )


def episodes_with_counts(episodes: QuerySet[Episode]) -> QuerySet[Episode]:
    """These published episodes (one page: a sliced queryset) with their podcast, their
    public `claim_count` and `people_count` (identified speakers), and
    `has_public_transcript`: one query that reads no claim.

    The counts are the ones each episode keeps (claims.counters); counted here, a page
    of episodes joined all their claims. The page is picked in a subquery, so the
    slice's order and bounds are the caller's.
    """
    return (
        Episode.objects.filter(pk__in=episodes.values("pk"))
        .annotate(claim_count=F("published_claim_count"), people_count=F("published_people_count"))
        .with_transcript_flag()
        .select_related("podcast")
        .defer("summary")
        .newest_first()
    )


def public_claim_total() -> int:
    """How many public claims the ledger has, summed from the podcasts' kept counts."""
    return Podcast.objects.aggregate(n=Sum("public_claim_count"))["n"] or 0


def narrowing(chosen: dict) -> set[str]:
    """The names of a ClaimSearch's cleaned filters (`chosen`) that narrow the claims:
    every one given a value but the order."""
    return {name for name, value in chosen.items() if value and name != "order"}


def kept_claim_count(chosen: dict) -> int | None:
    """How many public claims a ClaimSearch's cleaned filters show, from the counts the
    ledger keeps (claims.counters): when nothing narrows them, or only a topic or a
    speaker and types, whose public claims of each type are kept; None otherwise.
    Counted, a topic's beliefs at a million claims read 53,000 of its claims."""
    narrowed = narrowing(chosen)
    if not narrowed:
        return public_claim_total()
    by_record = narrowed - {"type"}
    if by_record not in ({"topic"}, {"speaker"}):
        return None
    (name,) = by_record
    record, types = chosen[name], chosen.get("type")
    if not types:
        return record.public_claim_count
    # A type asked twice (?type=belief&type=belief) is shown once.
    return sum(record.public_claim_mix.get(kind, 0) for kind in set(types))


def totals() -> dict[str, int]:
    """The home page's figures: public claims, episodes, people and podcasts (two queries
    over the podcasts' kept counts and the people's (claims.listed_counts), whatever the
    size of the ledger)."""
    podcasts = Podcast.objects.filter(public_episode_count__gt=0).aggregate(
        podcast_count=Count("*"),
        episode_count=Coalesce(Sum("public_episode_count"), 0),
        claim_count=Coalesce(Sum("public_claim_count"), 0),
    )
    return {**podcasts, "people_count": listed_count(ListedKind.PEOPLE)}


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
        return (
            Claim.objects.published().filter(speaker=record).exists()
            or Appearance.objects.published().filter(speaker=record).exists()
        )
    if isinstance(record, Appearance):
        return record.episode.status == Status.PUBLISHED
    if isinstance(record, ClaimLink):
        # Public only while both claims are (asked after a delete too: the claims stay),
        # now or before an editor pointed it at other claims (claims.signals.link_saving).
        return any(
            Claim.objects.published().filter(pk__in=ends).count() == 2
            for ends in (
                (record.from_claim_id, record.to_claim_id),
                getattr(record, "_ends_before", ()),
            )
            if ends
        )
    if isinstance(record, Podcast):
        return Episode.objects.published().filter(podcast=record).exists()
    return True
