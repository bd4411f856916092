"""Capturing claims from an episode's transcript: the admin's transcript panel, and finding
an excerpt to start a new claim from (claims/admin/episodes.py serves both).

The panel is one line of HTML per transcript line (a cue, or a line of one), each
run of text carrying where it starts in the transcript (`data-at`), so a selection
can be turned back into offsets (static/ledger/transcript_panel.js). Passages
already captured are marked with their claim numbers. Built as one string, not
a template loop: a two-hour transcript has 2,000 lines.
"""

from bisect import bisect_left
from dataclasses import dataclass
from urllib.parse import urlencode

from django.db.models import Max
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from claims import moments, timing, verbatim
from claims.models import Claim
from episodes.models import Episode


@dataclass(frozen=True)
class Captured:
    start: int
    end: int
    label: str


def captured_passages(episode: Episode) -> list[Captured]:
    """Where the episode's claims were found in its transcript, in order (one query)."""
    rows = (
        Claim.objects.filter(episode=episode, transcript_start__isnull=False)
        .order_by("transcript_start", "number")
        .values_list("transcript_start", "transcript_end", "number")
    )
    return [Captured(start, end, f"{number:02d}") for start, end, number in rows]


def panel_html(text: str, cues: list, captured: list[Captured]) -> SafeString:
    """The transcript as the panel shows it: a line each, its time if a cue starts there."""
    cue_times = {offset: seconds for seconds, offset in cues}
    starts = [passage.start for passage in captured]
    lines, offset = [], 0
    for line in text.split("\n"):
        end = offset + len(line)
        # The captured passages that overlap this line: those starting before its end.
        nearby = captured[: bisect_left(starts, end)]
        overlapping = [p for p in nearby if p.end > offset]
        seconds = cue_times.get(offset)
        stamp = (
            f'<time datetime="PT{seconds}S">{moments.clock(seconds)}</time> '
            if seconds is not None
            else ""
        )
        lines.append(f"<p>{stamp}{line_runs(line, offset, overlapping)}</p>")
        offset = end + 1
    return mark_safe("\n".join(lines))


def line_runs(line: str, offset: int, passages: list[Captured]) -> str:
    """The line's text as runs: plain, or marked as captured with the claims' numbers."""
    end = offset + len(line)
    cuts = sorted(
        {offset, end}
        | {p.start for p in passages if offset < p.start < end}
        | {p.end for p in passages if offset < p.end < end}
    )
    runs = []
    for first, last in zip(cuts, cuts[1:], strict=False):
        words = escape(line[first - offset : last - offset])
        inside = [p for p in passages if p.start <= first and p.end >= last]
        if not inside:
            runs.append(f'<span data-at="{first}">{words}</span>')
            continue
        labels = ", ".join(p.label for p in inside)
        numbered = " ".join(p.label for p in inside if p.start == first)
        tag = f'<sup class="claim-tag">{numbered}</sup>' if numbered else ""
        runs.append(f'{tag}<mark data-at="{first}" title="Claim {labels}">{words}</mark>')
    return "".join(runs)


@dataclass(frozen=True)
class Found:
    """An excerpt found in a transcript: its exact words there, its time, where it starts."""

    excerpt: str
    start: int
    time: int | None


def find_excerpt(episode: Episode, excerpt: str = "", start=None, end=None) -> Found | None:
    """The passage to capture: offsets from a selection (start, end), else the excerpt looked
    for in the transcript. Its words as the transcript has them, one line."""
    text = episode.transcript_text
    span = selection_span(text, start, end)
    if span is None:
        span = verbatim.locate(excerpt, text) if excerpt.strip() else None
    if span is None:
        return None
    words = " ".join(text[span[0] : span[1]].split())
    return Found(words, span[0], timing.transcript_time(episode, span[0]))


def selection_span(text: str, start, end) -> tuple[int, int] | None:
    """(start, end) from a selection's offsets, without the white space at either end."""
    try:
        start, end = int(start), int(end)
    except (TypeError, ValueError):
        return None
    if not 0 <= start < end <= len(text):
        return None
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return (start, end) if start < end else None


def next_number(episode: Episode) -> int:
    """The number after the episode's highest: numbers are never reused (one query)."""
    return (episode.claims.aggregate(highest=Max("number"))["highest"] or 0) + 1


def new_claim_url(episode: Episode, found: Found) -> str:
    """The claim add form, filled with the episode, next number, excerpt and time."""
    initial = {"episode": episode.pk, "number": next_number(episode), "excerpt": found.excerpt}
    if found.time is not None:
        initial["timestamp"] = found.time
    return f"{reverse('admin:claims_claim_add')}?{urlencode(initial)}"
