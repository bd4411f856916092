"""Every view of the claims as a file: CSV or JSON, all matching published claims.

The claims browser's search object selects the claims (claims.browse), so a
download holds exactly what the page lists, in the same order, page after page.
Files are streamed: a constant number of queries (one per batch behind a
transaction-mode pooler, claims/batches.py), and memory bounded by one batch of
rows whatever the number of claims.

The columns are stable and documented on /developers/: new ones are added at the
end, none is renamed or removed within version 1.
"""

import csv
import io
import json
import math
from collections.abc import Iterable, Iterator
from functools import lru_cache

from django.db.models import QuerySet
from django.http import JsonResponse, QueryDict, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse

from claims.api.errors import InvalidParameters
from claims.api.params import claim_search
from claims.api.throttles import DownloadThrottle
from claims.batches import in_lists
from claims.citations import citation
from claims.models import Claim
from claims.subjects import subject_slugs
from episodes.models import Episode, Podcast

# Each column and what it holds, in file order: shown on /developers/.
COLUMNS = {
    "id": "The claim's id, as in the API's claims/{id}/.",
    "url": "The claim's permalink.",
    "podcast": "The podcast's slug.",
    "podcast_name": "The podcast's name.",
    "episode": "The episode's slug (unique within its podcast).",
    "episode_title": "The episode's title.",
    "air_date": "When the episode aired, YYYY-MM-DD.",
    "number": "The claim's number in its episode's ledger: never reused or shifted.",
    "type": "evaluation, belief, prediction, recommendation, uncertainty, observation, "
    "preference, commitment or disagreement.",
    "attribution": "identified (a speaker) or unresolved (a voice not identified).",
    "speaker": "The speaker's slug; empty for an unresolved voice.",
    "speaker_name": "The speaker's name; empty for an unresolved voice.",
    "voice": "Who said it as readers see it: the speaker's name or the voice's label.",
    "excerpt": "The exact words, verbatim.",
    "summary": "The editor's one-line summary, if any.",
    "timestamp": "Seconds into the episode where the excerpt starts, if known.",
    "moment_url": "The original episode or its audio opened at that moment, if its host can.",
    "verification": "found, not_found or no_transcript: the excerpt checked word for word "
    "against the episode's transcript.",
    "corrections": "The public notes of corrections to the claim, one per line.",
    "original_url": "The episode on its publisher's site.",
    "citation": "A ready citation of the claim.",
    "topics": "The slugs of the claim's topics (in a CSV cell, one per line).",
    "references": "The references the claim names and how: role and the reference's slug "
    '(in a CSV cell, one "role slug" per line).',
}
# What rows() reads of a claim, its episode, podcast and speaker: a batch of claims holds
# no other column (their speakers' kept counts, their predictions' outcomes, ...).
ROW_FIELDS = """
    number type excerpt summary attribution unresolved_label timestamp verification corrections
    speaker__slug speaker__name episode__slug episode__title episode__air_date
    episode__original_url episode__audio_url episode__podcast__slug episode__podcast__name
""".split()
# Rows fetched from the database at a time, and written to the response at a time.
BATCH = 2000
# A spreadsheet runs a cell that starts with one of these as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
FORMATS = {"csv": "text/csv; charset=utf-8", "json": "application/json"}


def rows(claims: QuerySet, site: str) -> Iterator[dict]:
    """One dict per claim, keyed by COLUMNS. `site` is the scheme and host of permalinks."""

    # Claims of one episode come together, so its address is worked out once.
    @lru_cache(maxsize=256)
    def episode_url(podcast_slug, episode_slug):
        return site + reverse(
            "episodes:episode_detail", kwargs={"podcast_slug": podcast_slug, "slug": episode_slug}
        )

    for batch in in_lists(claims.only(*ROW_FIELDS), BATCH):
        topics, references = subject_slugs(claim.pk for claim in batch)
        for claim in batch:
            episode, speaker = claim.episode, claim.speaker
            url = f"{episode_url(episode.podcast.slug, episode.slug)}claims/{claim.number}/"
            yield {
                "id": claim.pk,
                "url": url,
                "podcast": episode.podcast.slug,
                "podcast_name": episode.podcast.name,
                "episode": episode.slug,
                "episode_title": episode.title,
                "air_date": episode.air_date.isoformat(),
                "number": claim.number,
                "type": claim.type,
                "attribution": claim.attribution,
                "speaker": speaker.slug if speaker else None,
                "speaker_name": speaker.name if speaker else None,
                "voice": claim.voice,
                "excerpt": claim.excerpt,
                "summary": claim.summary,
                "timestamp": claim.timestamp,
                "moment_url": claim.moment_url,
                "verification": claim.verification,
                "corrections": "\n".join(c["note"] for c in claim.corrections),
                "original_url": episode.original_url,
                "citation": citation(claim, url),
                "topics": topics.get(claim.pk, []),
                "references": references.get(claim.pk, []),
            }


def neutralised(value) -> str:
    """A cell as text that no spreadsheet runs as a formula: a leading ' makes it literal.

    A list (topics, references) is one item per line.
    """
    if value is None:
        return ""
    if isinstance(value, list):
        value = "\n".join(
            f"{item['role']} {item['slug']}" if isinstance(item, dict) else item for item in value
        )
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def as_csv(records: Iterable[dict], bom: bool) -> Iterator[str]:
    buffer = io.StringIO()
    writer = csv.writer(buffer)

    def written() -> str:
        text = buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
        return text

    buffer.write("\ufeff" if bom else "")
    writer.writerow(COLUMNS)
    # The header row goes out before any claim is read, and the response's headers with
    # it: the first rows of the whole ledger came 30 s after the request at ten million
    # claims, and a proxy waiting that long for a response may give up.
    yield written()
    for n, record in enumerate(records, start=1):
        writer.writerow([neutralised(record[column]) for column in COLUMNS])
        if n % BATCH == 0:
            yield written()
    yield written()


def as_json(records: Iterable[dict]) -> Iterator[str]:
    yield '{"format": "evidence-ledger-claims", "version": 1, "claims": ['
    batch = []
    for n, record in enumerate(records):
        batch.append(("," if n else "") + json.dumps(record, ensure_ascii=False))
        if len(batch) == BATCH:
            yield "".join(batch)
            batch = []
    yield "".join(batch) + "]}"


def download(request, data: QueryDict, extension: str, name: str):
    """The response for a download of the claims `data` selects, as `name`.`extension`."""
    throttle = DownloadThrottle()
    if not throttle.allow_request(request, None):
        response = JsonResponse(
            {"status": 429, "detail": "Too many downloads from your address: try again later."},
            status=429,
        )
        response["Retry-After"] = str(math.ceil(throttle.wait()))
        return response
    try:
        found = claim_search(data)
    except InvalidParameters as refused:
        return JsonResponse(
            {"status": 400, "detail": str(refused.detail), "errors": refused.errors}, status=400
        )
    claims = found.ordered()
    records = rows(claims, request.build_absolute_uri("/")[:-1])
    body = as_json(records) if extension == "json" else as_csv(records, data.get("bom") == "1")
    response = StreamingHttpResponse(body, content_type=FORMATS[extension])
    response["Content-Disposition"] = f'attachment; filename="{name}.{extension}"'
    return response


def within(data: QueryDict, **scope) -> QueryDict:
    """The reader's parameters, narrowed to one record's claims."""
    data = data.copy()
    for name, value in scope.items():
        data.setlist(name, [str(value)])
    return data


def claims_file(request, extension):
    return download(request, request.GET, extension, "evidence-ledger-claims")


def episode_file(request, podcast_slug, slug, extension):
    episode = get_object_or_404(Episode.objects.published(), podcast__slug=podcast_slug, slug=slug)
    data = within(request.GET, episode=episode.pk)
    return download(request, data, extension, f"{podcast_slug}-{slug}-claims")


def speaker_file(request, slug, extension):
    # Only people in the public record have a page, and so a download.
    get_object_or_404(Claim.objects.published().speakers(), slug=slug)
    return download(request, within(request.GET, speaker=slug), extension, f"{slug}-claims")


def podcast_file(request, slug, extension):
    get_object_or_404(Podcast.objects.public(), slug=slug)
    return download(request, within(request.GET, podcast=slug), extension, f"{slug}-claims")
