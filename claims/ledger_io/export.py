"""Export: what the public sees, in the format import reads."""

import csv
import json

from claims.batches import in_batches
from claims.ledger_io.formats import (
    CSV_COLUMNS,
    FORMAT,
    IMPORT_ONLY,
    VERSION,
    csv_column,
    escape_cell,
)
from claims.models import Claim
from episodes.models import Episode


def export_document(*, podcast: str | None = None, episode: tuple[str, str] | None = None) -> dict:
    """The published ledger as a JSON-ready dict: all of it, one podcast's or one episode's.

    `podcast` is a slug, `episode` a (podcast slug, episode slug) pair. Two
    queries (the claims read in chunks), whatever the size of the ledger; behind
    a transaction-mode pooler, one per 2,000 claims (claims/batches.py).
    """
    episodes = Episode.objects.published()
    if podcast:
        episodes = episodes.filter(podcast__slug=podcast)
    if episode:
        episodes = episodes.filter(podcast__slug=episode[0], slug=episode[1])
    claims = (
        Claim.objects.published()
        .filter(episode__in=episodes.values("pk"))
        .select_related("speaker")
        .order_by("episode_id", "number")
    )
    episodes = list(
        episodes.select_related("podcast", "transcript").order_by(
            "podcast__slug", "air_date", "slug"
        )
    )
    claims_by_episode = {episode.pk: [] for episode in episodes}
    speakers = {}
    for claim in in_batches(claims, 2000):
        if claim.speaker_id:
            speakers[claim.speaker.slug] = claim.speaker
        claims_by_episode[claim.episode_id].append(claim_entry(claim))
    podcasts = {episode.podcast.slug: episode.podcast for episode in episodes}
    return {
        "format": FORMAT,
        "version": VERSION,
        "podcasts": [podcast_entry(p) for _, p in sorted(podcasts.items())],
        "speakers": [speaker_entry(s) for _, s in sorted(speakers.items())],
        "episodes": [episode_entry(e, claims_by_episode[e.pk]) for e in episodes],
    }


def podcast_entry(podcast):
    return {
        "slug": podcast.slug,
        "name": podcast.name,
        "description": podcast.description,
        "website_url": podcast.website_url,
        "feed_url": podcast.feed_url,
    }


def speaker_entry(speaker):
    return {
        "slug": speaker.slug,
        "name": speaker.name,
        "description": speaker.description,
        "links": speaker.link_list,
    }


def episode_entry(episode, claims):
    return {
        "podcast": episode.podcast.slug,
        "slug": episode.slug,
        "title": episode.title,
        "air_date": episode.air_date.isoformat(),
        "original_url": episode.original_url,
        "audio_url": episode.audio_url,
        "summary": episode.summary,
        "transcript": episode.transcript_text,
        "status": episode.status,
        "claims": claims,
    }


def claim_entry(claim):
    entry = {
        "number": claim.number,
        "type": claim.type,
        "excerpt": claim.excerpt,
        "summary": claim.summary,
        "speaker": claim.speaker.slug if claim.speaker_id else None,
        "unresolved_label": claim.unresolved_label,
        "timestamp": claim.timestamp,
        "status": claim.status,
    }
    if claim.is_prediction:
        # Other claims have none of these: the file stays as it was for them.
        entry.update(
            horizon=claim.horizon_text or None,
            resolution=claim.resolution,
            resolved_on=claim.resolved_on.isoformat() if claim.resolved_on else None,
            resolution_note=claim.resolution_note,
            sources=claim.resolution_sources,
        )
    return entry


def write_json(document: dict, stream) -> None:
    json.dump(document, stream, ensure_ascii=False, indent=2)
    stream.write("\n")


def write_csv(document: dict, stream) -> None:
    """The document as CSV rows: podcasts, speakers, then each episode followed by its claims."""
    columns = [name for name in CSV_COLUMNS if name not in IMPORT_ONLY]
    writer = csv.writer(stream)
    writer.writerow(columns)

    def row(kind, values):
        cells = {
            "record": kind,
            **{csv_column(kind, name): value for name, value in values.items()},
        }
        if isinstance(cells.get("links"), list):
            cells["links"] = "\n".join(cells["links"])
        if isinstance(cells.get("sources"), list):
            cells["sources"] = "\n".join(f"{s['url']} {s['title']}" for s in cells["sources"])
        return ["" if cells.get(name) is None else escape_cell(cells[name]) for name in columns]

    for podcast in document["podcasts"]:
        writer.writerow(row("podcast", podcast))
    for speaker in document["speakers"]:
        writer.writerow(row("speaker", speaker))
    for episode in document["episodes"]:
        writer.writerow(row("episode", {k: v for k, v in episode.items() if k != "claims"}))
        for claim in episode["claims"]:
            writer.writerow(
                row("claim", {"podcast": episode["podcast"], "episode": episode["slug"], **claim})
            )
