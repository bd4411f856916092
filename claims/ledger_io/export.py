"""Export: what the public sees, in the format import reads."""

import csv
import json
from collections import defaultdict
from dataclasses import dataclass, field

from claims.batches import in_batches
from claims.ledger_io.appearances import stored_appearances
from claims.ledger_io.formats import (
    CSV_COLUMNS,
    FORMAT,
    IMPORT_ONLY,
    VERSION,
    csv_column,
    escape_cell,
    transcript_value,
)
from claims.ledger_io.links import csv_cell, exported_links
from claims.models import Claim, ClaimReference
from claims.references import ROLE_ORDER
from episodes.models import Episode, Speaker


def export_document(*, podcast: str | None = None, episode: tuple[str, str] | None = None) -> dict:
    """The published ledger as a JSON-ready dict: all of it, one podcast's or one episode's.

    `podcast` is a slug, `episode` a (podcast slug, episode slug) pair. A few queries
    (the claims read in chunks; their links, topics and references; the episodes'
    appearances and the people only on them), whatever the size of the ledger; behind
    a transaction-mode pooler, one per 2,000 claims (claims/batches.py).
    """
    episodes = Episode.objects.published()
    if podcast:
        episodes = episodes.filter(podcast__slug=podcast)
    if episode:
        episodes = episodes.filter(podcast__slug=episode[0], slug=episode[1])
    episode_ids = episodes.values("pk")
    claims = (
        Claim.objects.published()
        .filter(episode__in=episode_ids)
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
    linked = exported_links(claims)
    subjects = subjects_of(claims)
    for claim in in_batches(claims, 2000):
        if claim.speaker_id:
            speakers[claim.speaker.slug] = claim.speaker
        entry = claim_entry(claim, subjects)
        if claim.pk in linked:
            entry["linked_claims"] = linked[claim.pk]
        claims_by_episode[claim.episode_id].append(entry)
    appearances = stored_appearances(episodes, among=episode_ids)
    add_people_only_on_episodes(speakers, appearances)
    podcasts = {episode.podcast.slug: episode.podcast for episode in episodes}
    return {
        "format": FORMAT,
        "version": VERSION,
        "podcasts": [podcast_entry(p) for _, p in sorted(podcasts.items())],
        "speakers": [speaker_entry(s) for _, s in sorted(speakers.items())],
        "topics": [topic_entry(t) for _, t in sorted(subjects.topics.items())],
        "references": [reference_entry(r) for _, r in sorted(subjects.references.items())],
        "episodes": [
            episode_entry(e, appearances[e.pk], claims_by_episode[e.pk]) for e in episodes
        ],
    }


def add_people_only_on_episodes(speakers: dict, appearances: dict) -> None:
    """Everyone named: those who said something and those who were only on an episode."""
    missing = {e["speaker"] for a in appearances.values() for e in a} - set(speakers)
    speakers.update((s.slug, s) for s in Speaker.objects.filter(slug__in=missing))


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


def topic_entry(topic):
    return {"slug": topic.slug, "name": topic.name, "description": topic.description}


def reference_entry(reference):
    return {
        "slug": reference.slug,
        "kind": reference.kind,
        "title": reference.title,
        "creator": reference.creator,
        "url": reference.url,
    }


@dataclass
class Subjects:
    """The topics and references of the exported claims, and each claim's links to them."""

    topics: dict = field(default_factory=dict)
    references: dict = field(default_factory=dict)
    topics_of: dict = field(default_factory=lambda: defaultdict(list))
    references_of: dict = field(default_factory=lambda: defaultdict(list))


def subjects_of(claims) -> Subjects:
    """Two queries, whatever the number of claims."""
    found = Subjects()
    topic_links = Claim.topics.through.objects.filter(claim__in=claims.values("pk"))
    for link in topic_links.select_related("topic").order_by("topic__slug"):
        found.topics[link.topic.slug] = link.topic
        found.topics_of[link.claim_id].append(link.topic.slug)
    named = ClaimReference.objects.filter(claim__in=claims.values("pk")).select_related("reference")
    for link in named.order_by(ROLE_ORDER, "reference__slug"):
        found.references[link.reference.slug] = link.reference
        found.references_of[link.claim_id].append({"role": link.role, "slug": link.reference.slug})
    return found


def episode_entry(episode, appearances, claims):
    return {
        "podcast": episode.podcast.slug,
        "slug": episode.slug,
        "title": episode.title,
        "air_date": episode.air_date.isoformat(),
        "original_url": episode.original_url,
        "audio_url": episode.audio_url,
        "summary": episode.summary,
        "transcript": transcript_value(episode, "transcript"),
        # Only for a timed transcript: files of untimed ones stay as they were.
        **({"transcript_cues": episode.transcript_cues} if episode.transcript_cues else {}),
        "transcript_public": transcript_value(episode, "transcript_public"),
        "status": episode.status,
        "appearances": appearances,
        "claims": claims,
    }


def claim_entry(claim, links):
    entry = {
        "number": claim.number,
        "type": claim.type,
        "excerpt": claim.excerpt,
        "summary": claim.summary,
        "speaker": claim.speaker.slug if claim.speaker_id else None,
        "unresolved_label": claim.unresolved_label,
        "timestamp": claim.timestamp,
        **(
            {"timestamp_from_transcript": True}
            if claim.timestamp_from_transcript and claim.timestamp is not None
            else {}
        ),
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
    # Only claims that have some: the file stays as it was for the others.
    if claim.pk in links.topics_of:
        entry["topics"] = links.topics_of[claim.pk]
    if claim.pk in links.references_of:
        entry["references"] = links.references_of[claim.pk]
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
        return csv_row(kind, values, columns)

    for podcast in document["podcasts"]:
        writer.writerow(row("podcast", podcast))
    for speaker in document["speakers"]:
        writer.writerow(row("speaker", speaker))
    for topic in document.get("topics", []):
        writer.writerow(row("topic", topic))
    for reference in document.get("references", []):
        writer.writerow(row("reference", reference))
    for episode in document["episodes"]:
        writer.writerow(row("episode", {k: v for k, v in episode.items() if k != "claims"}))
        for claim in episode["claims"]:
            writer.writerow(
                row("claim", {"podcast": episode["podcast"], "episode": episode["slug"], **claim})
            )


# How a list in a record is written in one CSV cell, one item a line.
CELL_WRITERS = {
    "links": "\n".join,
    "linked_claims": csv_cell,
    "appearances": lambda items: "\n".join(f"{a['speaker']} {a['role']}" for a in items),
    "transcript_cues": lambda cues: "\n".join(f"{at} {offset}" for at, offset in cues),
    "sources": lambda items: "\n".join(f"{s['url']} {s['title']}" for s in items),
    "topics": "\n".join,
    "references": lambda items: "\n".join(f"{r['role']} {r['slug']}" for r in items),
}


def csv_row(kind: str, values: dict, columns: list[str]) -> list:
    """A record's CSV row: its values in `columns`, lists and flags written as cells."""
    cells = {"record": kind, **{csv_column(kind, name): value for name, value in values.items()}}
    for name, write in CELL_WRITERS.items():
        if isinstance(cells.get(name), list):
            cells[name] = write(cells[name])
    if cells.get("timestamp_from_transcript") is True:
        cells["timestamp_from_transcript"] = "true"
    if isinstance(cells.get("transcript_public"), bool):
        cells["transcript_public"] = "true" if cells["transcript_public"] else "false"
    return ["" if cells.get(name) is None else escape_cell(cells[name]) for name in columns]
