"""A claim in context: the passage of the transcript around its excerpt.

The verbatim check stores where a found excerpt sits in its transcript
(Claim.transcript_start and transcript_end, character offsets). The permalink asks
the database for a window of the transcript around those offsets, never the whole
text, so a two-hour transcript costs the page no more than a short one; the
passage is then cut from the window at sentence boundaries.
"""

import re
from dataclasses import dataclass, replace

from django.db.models import F, QuerySet, Value
from django.db.models.functions import Greatest, Substr

from claims import moments
from claims.choices import Verification

# Sentences shown either side of the excerpt's own.
SENTENCES = 2
# At most this many characters either side: a transcript without punctuation stops here.
REACH = 400
# The end of a sentence and the space after it: ".", "?" or "!" (and any closing quotes
# or brackets) followed by whitespace, or a line break.
_BOUNDARY = re.compile(r"[.?!]+[\"'”’»)\]]*\s+|\s*\n\s*")
# What may close the excerpt's own sentence: its last characters can be the boundary.
_CLOSING = frozenset(".?!\"'”’»)]")
_WHITESPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class Passage:
    """The words around an excerpt: before, the excerpt as the transcript has it, after."""

    before: str
    excerpt: str
    after: str
    # Whether the passage was cut short of a sentence boundary (shown as "…").
    cut_before: bool
    cut_after: bool
    # Seconds into the episode where the excerpt is spoken, where the transcript has times.
    seconds: int | None = None
    # The excerpt in the whole transcript, where that is public.
    transcript_url: str | None = None

    @property
    def moment(self) -> str | None:
        return None if self.seconds is None else moments.clock(self.seconds)


def with_transcript_window(claims: QuerySet) -> QuerySet:
    """These claims, each with the stretch of its transcript that its passage comes from.

    Read in the same query as the claims: `transcript_window` holds the
    transcript's text from `transcript_window_start` (REACH characters before the
    excerpt, or the transcript's start) to one character more than REACH after the
    excerpt, which tells whether the transcript ends there. None for a claim whose
    excerpt was not found.
    """
    window_start = Greatest(F("transcript_start") - REACH, Value(0))
    # The transcript's row for whether it is public and for its times, never its text.
    claims = claims.select_related("episode__transcript").defer("episode__transcript__text")
    return claims.annotate(
        transcript_window_start=window_start,
        transcript_window=Substr(
            "episode__transcript__text",
            window_start + 1,  # SQL counts characters from 1
            F("transcript_end") - window_start + REACH + 1,
        ),
    )


def claim_passage(claim) -> Passage | None:
    """The passage around a claim's excerpt, from its transcript window; None when the
    excerpt was not found (or the claim was not read with_transcript_window)."""
    window = getattr(claim, "transcript_window", None)
    if claim.verification != Verification.FOUND or window is None:
        return None
    offset = claim.transcript_window_start
    if claim.transcript_end - offset > len(window):
        return None  # offsets older than the text (saved without the check): nothing to show
    reach_end = claim.transcript_end - offset + REACH
    found = passage(
        window[:reach_end],
        claim.transcript_start - offset,
        claim.transcript_end - offset,
        from_start=offset == 0,
        to_end=len(window) <= reach_end,
    )
    transcript = claim.episode.transcript
    return replace(
        found,
        seconds=seconds_at(transcript, claim.transcript_start),
        transcript_url=f"{claim.episode.get_transcript_url()}#{claim.anchor}"
        if transcript.is_public
        else None,
    )


def seconds_at(transcript, offset: int) -> int | None:
    """Seconds into the episode where character `offset` of the transcript is spoken.

    None until transcripts carry their timings: the timed transcripts of issue 17
    (cue times with the offset where each cue starts) answer this from the cue in
    which `offset` falls. It is the only place the context and the transcript page
    read times from.
    """
    return None


def passage(text: str, start: int, end: int, *, from_start=True, to_end=True) -> Passage:
    """The passage of `text` around text[start:end]: SENTENCES sentences either side, at
    most REACH characters either side.

    `from_start` and `to_end` say whether `text` begins and ends where the transcript
    does (it may be a window of it). Reads no more than REACH characters either side.
    """
    begin, cut_before = passage_start(text, start, from_start)
    finish, cut_after = passage_end(text, start, end, to_end)
    return Passage(
        before=tidy(text[begin:start]).lstrip(),
        excerpt=tidy(text[start:end]),
        after=tidy(text[end:finish]).rstrip(),
        cut_before=cut_before,
        cut_after=cut_after,
    )


def passage_start(text: str, start: int, from_start: bool) -> tuple[int, bool]:
    """Where the passage begins, and whether that is short of a sentence's start."""
    reach = max(0, start - REACH)
    # Where sentences begin, up to the excerpt: the last is the excerpt's own.
    starts = [match.end() for match in _BOUNDARY.finditer(text, reach, start)]
    if len(starts) > SENTENCES:
        return starts[-SENTENCES - 1], False
    if reach == 0 and from_start:
        return 0, False
    # Cut at a word: after the first space, unless the reach surely starts a word
    # (at a window's edge, what came before is unknown).
    if reach == 0 or not text[reach - 1].isspace():
        space = _WHITESPACE.search(text, reach, start)
        if space:
            return space.end(), True
    return reach, True


def passage_end(text: str, start: int, end: int, to_end: bool) -> tuple[int, bool]:
    """Where the passage ends, and whether that is short of a sentence's end."""
    reach = min(len(text), end + REACH)
    # From the excerpt's closing punctuation, if any: it may end its sentence.
    closing = end
    while closing > start and text[closing - 1] in _CLOSING:
        closing -= 1
    # Where sentences end, from the excerpt on: the first is the excerpt's own.
    ends = [
        match.start() + len(match.group().rstrip())
        for match in _BOUNDARY.finditer(text, closing, reach)
    ]
    if len(ends) > SENTENCES:
        return max(ends[SENTENCES], end), False
    if reach == len(text) and to_end:
        return len(text), False
    # Cut at a word: before the last space, unless the reach surely ends one.
    if reach == len(text) or not text[reach].isspace():
        space = max(text.rfind(character, end, reach) for character in " \n\t")
        if space > end:
            return space, True
    return reach, True


def tidy(text: str) -> str:
    """Each run of whitespace as one space, or as one line break if it holds any."""
    return _WHITESPACE.sub(lambda run: "\n" if "\n" in run.group() else " ", text)
