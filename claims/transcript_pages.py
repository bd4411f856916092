"""An episode's whole transcript, where its editor made it public, with the published
claims' excerpts marked and each linked to its permalink."""

import re
from dataclasses import dataclass

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from claims.context import seconds_at
from claims.moments import clock
from episodes.models import Episode

# A paragraph is a line with words on it: line breaks start paragraphs, blank lines vanish.
_LINE = re.compile(r"[^\r\n]*\S[^\r\n]*")


@dataclass(frozen=True)
class Span:
    """Where a claim's excerpt sits in the transcript, and where its link points."""

    start: int
    end: int
    label: str
    url: str


@dataclass(frozen=True)
class Paragraph:
    html: SafeString
    moment: str | None = None


def episode_transcript(request, podcast_slug, slug):
    episode = get_object_or_404(
        Episode.objects.published().select_related("podcast", "transcript"),
        podcast__slug=podcast_slug,
        slug=slug,
        transcript__is_public=True,
    )
    text = episode.transcript_text
    if not text.strip():
        raise Http404("This episode has no transcript.")
    # Through the relation, so each claim's permalink reuses `episode` instead of refetching it.
    claims = (
        episode.claims.published()
        .filter(transcript_start__isnull=False)
        .only("episode", "number", "transcript_start", "transcript_end")
        .order_by("transcript_start", "number")
    )
    spans = [
        Span(claim.transcript_start, claim.transcript_end, claim.label, claim.get_absolute_url())
        for claim in claims
    ]
    return render(
        request,
        "episodes/episode_transcript.html",
        {
            "episode": episode,
            "paragraphs": marked_paragraphs(text, spans, episode.transcript),
            "marked_count": len(spans),
        },
    )


def marked_paragraphs(text: str, spans: list[Span], transcript=None) -> list[Paragraph]:
    """The transcript as paragraphs of escaped HTML, each excerpt in <mark> and led by a
    link to its claim (id "claim-07", so the permalink can point at it).

    One pass over the text whatever the number of claims. Overlapping excerpts share
    the marked stretch, so no <mark> is ever nested, and a mark that runs over a line
    break closes with its paragraph and opens again in the next.
    """
    # Ends before starts at the same place: two excerpts side by side do not overlap.
    events = sorted(
        [(span.start, 1, span) for span in spans] + [(span.end, 0, span) for span in spans],
        key=lambda event: (event[0], event[1]),
    )
    paragraphs, upcoming, open_marks = [], 0, 0
    for line in _LINE.finditer(text):
        cursor, line_end = line.start(), line.end()
        # An excerpt that ended between paragraphs closed with the last one.
        while upcoming < len(events) and events[upcoming][1] == 0 and events[upcoming][0] <= cursor:
            upcoming += 1
            open_marks -= 1
        html = ["<mark>"] if open_marks else []
        while upcoming < len(events) and events[upcoming][:2] <= (line_end, 0):
            position, is_start, span = events[upcoming]
            upcoming += 1
            # An excerpt that starts between paragraphs starts with the next one.
            position = max(position, cursor)
            html.append(escape(text[cursor:position]))
            cursor = position
            if is_start:
                html.append("" if open_marks else "<mark>")
                html.append(claim_link(span))
                open_marks += 1
            else:
                open_marks -= 1
                html.append("" if open_marks else "</mark>")
        html.append(escape(text[cursor:line_end]))
        html.append("</mark>" if open_marks else "")
        seconds = seconds_at(transcript, line.start()) if transcript is not None else None
        paragraphs.append(
            Paragraph(mark_safe("".join(html)), None if seconds is None else clock(seconds))
        )
    return paragraphs


def claim_link(span: Span) -> str:
    return (
        f'<a class="transcript-claim" id="claim-{span.label}" href="{escape(span.url)}">'
        f'<span class="visually-hidden">Claim </span>{span.label}</a> '
    )
