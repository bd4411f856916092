"""An episode's whole transcript, where its editor made it public, with the published
claims' excerpts marked and each linked to its permalink."""

import re
from dataclasses import dataclass
from html import escape

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils.safestring import SafeString

from claims import context
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
            "transcript": marked_transcript(text, spans, episode.transcript),
            "marked_count": len(spans),
        },
    )


def marked_transcript(text: str, spans: list[Span], transcript=None) -> SafeString:
    """The transcript as paragraphs of escaped HTML, each excerpt in <mark> and led by a
    link to its claim (id "claim-07", so the permalink can point at it), each paragraph
    led by its time where the transcript has times.

    One pass over the text whatever the number of claims. Overlapping excerpts share
    the marked stretch, so no <mark> is ever nested, and a mark that runs over a line
    break closes with its paragraph and opens again in the next.
    """
    # Ends before starts at the same place: two excerpts side by side do not overlap.
    events = sorted(
        [(span.start, 1, span) for span in spans] + [(span.end, 0, span) for span in spans],
        key=lambda event: event[:2],
    )
    html, upcoming, open_marks = [], 0, 0
    for line in _LINE.finditer(text):
        cursor, line_end = line.start(), line.end()
        # An excerpt that ended between paragraphs closed with the last one.
        while upcoming < len(events) and events[upcoming][1] == 0 and events[upcoming][0] <= cursor:
            upcoming += 1
            open_marks -= 1
        html.append(paragraph_start(transcript, cursor))
        html.append("<mark>" if open_marks else "")
        while upcoming < len(events) and events[upcoming][:2] <= (line_end, 0):
            position, is_start, span = events[upcoming]
            upcoming += 1
            # An excerpt that starts between paragraphs starts with the next one.
            position = max(position, cursor)
            html.append(escape(text[cursor:position]))
            cursor = position
            if is_start:
                html.append(("" if open_marks else "<mark>") + claim_link(span))
                open_marks += 1
            else:
                open_marks -= 1
                html.append("" if open_marks else "</mark>")
        html.append(escape(text[cursor:line_end]))
        html.append("</mark></p>\n" if open_marks else "</p>\n")
    return SafeString("".join(html))


def paragraph_start(transcript, offset: int) -> str:
    seconds = context.seconds_at(transcript, offset)
    if seconds is None:
        return "<p>"
    return f'<p><span class="transcript-time">{clock(seconds)}</span> '


def claim_link(span: Span) -> str:
    return (
        f'<a class="transcript-claim" id="claim-{span.label}" href="{escape(span.url)}" '
        f'aria-label="Claim {span.label}">{span.label}</a> '
    )
