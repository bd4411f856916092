"""Public counts kept beside the records they count.

The lists of speakers and podcasts and the home page show how many public claims
each has. Counted as pages are asked for, they read every claim in the ledger
(1.6 s for the speakers at a million claims on SQLite). Instead each episode,
speaker and podcast keeps its counts, brought up to date in the same transaction
as the change that moves them, and `manage.py recount` rebuilds them all.

An update counts again; it never adds or subtracts. An episode's claims, one
speaker's claims and a podcast's episodes are small, index-served reads, and a
count that drifted heals the next time its record is touched.
"""

from collections import Counter, defaultdict

from django.db.models import Count, Sum

from claims.choices import ClaimStatus
from claims.models import Claim
from episodes.models import Episode, Podcast, Speaker, Status

# Counts are not a change readers see by themselves (the change that moved them
# moved the ledger's version already): written through the plain manager.


def recount_episodes(episode_ids) -> None:
    """Count again the published claims and people of these episodes, and their podcasts'."""
    recount_podcasts(count_episodes(episode_ids))


def count_episodes(episode_ids) -> set[int]:
    """Count again the published claims and people of these episodes; returns the ids of
    their podcasts, whose sums those counts move."""
    episode_ids = set(episode_ids)
    if not episode_ids:
        return set()
    counts = {
        row["episode"]: row
        for row in Claim.objects.filter(episode__in=episode_ids, status=ClaimStatus.PUBLISHED)
        .values("episode")
        .annotate(claims=Count("*"), people=Count("speaker", distinct=True))
        .order_by()
    }
    episodes = list(Episode._base_manager.filter(pk__in=episode_ids).only("pk", "podcast_id"))
    for episode in episodes:
        row = counts.get(episode.pk, {})
        episode.published_claim_count = row.get("claims", 0)
        episode.published_people_count = row.get("people", 0)
    Episode._base_manager.bulk_update(
        episodes, ["published_claim_count", "published_people_count"], batch_size=500
    )
    return {episode.podcast_id for episode in episodes}


def recount_podcasts(podcast_ids) -> None:
    """Count again the published episodes of these podcasts and sum their claims."""
    podcast_ids = set(podcast_ids)
    if not podcast_ids:
        return
    sums = {
        row["podcast"]: row
        for row in Episode._base_manager.filter(podcast__in=podcast_ids, status=Status.PUBLISHED)
        .values("podcast")
        .annotate(episodes=Count("*"), claims=Sum("published_claim_count"))
        .order_by()
    }
    podcasts = list(Podcast._base_manager.filter(pk__in=podcast_ids).only("pk"))
    for podcast in podcasts:
        row = sums.get(podcast.pk, {})
        podcast.public_episode_count = row.get("episodes", 0)
        podcast.public_claim_count = row.get("claims") or 0
    Podcast._base_manager.bulk_update(
        podcasts, ["public_episode_count", "public_claim_count"], batch_size=500
    )


def recount_speakers(speaker_ids) -> None:
    """Count again these speakers' public claims, by type."""
    speaker_ids = {pk for pk in speaker_ids if pk is not None}
    if not speaker_ids:
        return
    mixes = defaultdict(dict)
    for row in (
        Claim.objects.published()
        .filter(speaker__in=speaker_ids)
        .values("speaker", "type")
        .annotate(n=Count("*"))
        .order_by()
    ):
        mixes[row["speaker"]][row["type"]] = row["n"]
    speakers = list(Speaker._base_manager.filter(pk__in=speaker_ids).only("pk"))
    for speaker in speakers:
        speaker.public_claim_mix = mixes.get(speaker.pk, {})
        speaker.public_claim_count = sum(speaker.public_claim_mix.values())
    Speaker._base_manager.bulk_update(
        speakers, ["public_claim_count", "public_claim_mix"], batch_size=500
    )


def recount_claims(claims) -> None:
    """Count again wherever these claims (id, episode and speaker known) are counted."""
    claims = list(claims)
    recount_episodes({claim.episode_id for claim in claims})
    recount_speakers({claim.speaker_id for claim in claims})


def claim_saved(before: dict | None, after: dict) -> None:
    """After a claim's save (states from claims.history): recount what its change moved."""
    counted = ("status", "episode", "speaker", "type")
    if before is not None and all(before[name] == after[name] for name in counted):
        return
    if not any(state and state["status"] == ClaimStatus.PUBLISHED for state in (before, after)):
        return
    states = [state for state in (before, after) if state]
    recount_episodes({state["episode"] for state in states})
    recount_speakers({state["speaker"] for state in states})


def episodes_changed_status(episode_ids) -> None:
    """After episodes were published or unpublished: their podcasts and speakers."""
    episode_ids = set(episode_ids)
    recount_podcasts(
        Episode._base_manager.filter(pk__in=episode_ids).values_list("podcast_id", flat=True)
    )
    recount_speakers(
        Claim.objects.filter(episode__in=episode_ids, status=ClaimStatus.PUBLISHED)
        .values_list("speaker_id", flat=True)
        .distinct()
    )


def counts_of(model, ids, fields) -> dict:
    return {
        pk: counts
        for pk, *counts in model._base_manager.filter(pk__in=ids).values_list("pk", *fields)
    }


def recount_everything(batch=2000) -> Counter:
    """Rebuild every count from the claims (manage.py recount); returns what was fixed.

    Podcasts are summed from their episodes' counts once, after every episode is
    counted: not again for each chunk of episodes (a bulk load of a million claims
    recounts them all), and their own pass then sees, and reports, what was wrong.
    """
    fixed = Counter()
    for model, recount, fields in (
        (Episode, count_episodes, ("published_claim_count", "published_people_count")),
        (Speaker, recount_speakers, ("public_claim_count", "public_claim_mix")),
        (Podcast, recount_podcasts, ("public_episode_count", "public_claim_count")),
    ):
        ids = list(model._base_manager.order_by("pk").values_list("pk", flat=True))
        for start in range(0, len(ids), batch):
            chunk = ids[start : start + batch]
            before = counts_of(model, chunk, fields)
            recount(chunk)
            after = counts_of(model, chunk, fields)
            fixed[str(model._meta.verbose_name_plural)] += sum(
                before[pk] != after[pk] for pk in chunk
            )
    return fixed
