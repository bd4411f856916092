"""When an excerpt is not in its transcript: the nearest passage, and how the words differ.

Finding it must stay fast on a two-hour transcript (120 KB, 20,000 words), so it
never slides a window over every word: it anchors on the excerpt's rarest words
(where each occurs in the transcript, from a word index kept per transcript),
lines a window up with each occurrence, and scores only those windows with
difflib's SequenceMatcher over normalised words (claims.verbatim's folding).
"""

import re
from collections import defaultdict
from dataclasses import dataclass, replace
from difflib import SequenceMatcher
from functools import lru_cache

from django.template.loader import render_to_string
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from claims import moments, timing, verbatim

# Words, and each mark of punctuation on its own: "spring." is "spring" and ".".
_WORD = re.compile(r"[\w']+|[^\w\s]")
# The excerpt's rarest words that anchor the search, and at most this many windows scored.
ANCHORS = 4
MAX_WINDOWS = 200
# Below this share of matching words, nothing in the transcript is "near".
LEAST_LIKE = 0.5
# Differences spelled out in words; the passage shows them all.
SPELLED_OUT = 3


@dataclass(frozen=True)
class Words:
    """A text's folded words, with where each starts and ends in the original text."""

    text: str
    words: tuple[str, ...]
    spans: tuple[tuple[int, int], ...]

    def original(self, first: int, last: int) -> str:
        """The original text of words first..last-1 (as written, not folded)."""
        if first >= last:
            return ""
        return self.text[self.spans[first][0] : self.spans[last - 1][1]]


def words_of(text: str, *, transcript: bool = False) -> Words:
    # A transcript's folding is remembered (and shared with the check); an excerpt's is not.
    folded, origins = (verbatim.folded_transcript if transcript else verbatim._fold)(text)
    words, spans = [], []
    for match in _WORD.finditer(folded):
        words.append(match.group())
        spans.append((origins[match.start()], origins[match.end() - 1] + 1))
    return Words(text, tuple(words), tuple(spans))


@lru_cache(maxsize=8)
def transcript_index(transcript: str) -> tuple[Words, dict[str, list[int]]]:
    """The transcript's words and, for each word, where it occurs: built once per transcript."""
    words = words_of(transcript, transcript=True)
    where = defaultdict(list)
    for index, word in enumerate(words.words):
        where[word].append(index)
    return words, dict(where)


@dataclass(frozen=True)
class Nearest:
    """The passage of the transcript nearest an excerpt, and the word-level difference."""

    excerpt: Words
    transcript: Words
    first: int  # the passage's first and past-last word in the transcript
    last: int
    opcodes: tuple
    similarity: float
    time: int | None = None  # seconds into the episode, from a timed transcript

    @property
    def clock(self) -> str | None:
        return None if self.time is None else moments.clock(self.time)

    @property
    def passage(self) -> str:
        return self.transcript.original(self.first, self.last)

    @property
    def start(self) -> int:
        """Where the passage starts in the transcript's text."""
        return self.transcript.spans[self.first][0]

    def differences(self) -> list[SafeString]:
        """The first few differences in words: "The transcript says <ins>GRPO</ins>, …"."""
        sentences = []
        for tag, e1, e2, t1, t2 in self.opcodes:
            said = self.transcript.original(self.first + t1, self.first + t2)
            written = self.excerpt.original(e1, e2)
            if tag == "replace":
                sentences.append(
                    format_html(
                        "The transcript says <ins>{}</ins>, the excerpt says <del>{}</del>.",
                        said,
                        written,
                    )
                )
            elif tag == "insert":
                sentences.append(
                    format_html(
                        "The transcript says <ins>{}</ins> here, the excerpt leaves it out.", said
                    )
                )
            elif tag == "delete":
                sentences.append(
                    format_html("The excerpt says <del>{}</del>, the transcript does not.", written)
                )
        return sentences[:SPELLED_OUT]

    def marked_passage(self) -> SafeString:
        """The passage with the excerpt's words struck (<del>) and the transcript's marked (<ins>)."""
        pieces = []
        for tag, e1, e2, t1, t2 in self.opcodes:
            said = self.transcript.original(self.first + t1, self.first + t2)
            if tag == "equal":
                pieces.append(format_html("{}", said))
                continue
            if e2 > e1:
                pieces.append(format_html("<del>{}</del>", self.excerpt.original(e1, e2)))
            if t2 > t1:
                pieces.append(format_html("<ins>{}</ins>", said))
        return format_html_join(mark_safe(" "), "{}", ((piece,) for piece in pieces))


def nearest_passage(excerpt: str, transcript: str) -> Nearest | None:
    """The passage of `transcript` most like `excerpt`, word by word; None if none is near."""
    wanted = words_of(excerpt)
    if not wanted.words or not transcript.strip():
        return None
    said, where = transcript_index(transcript)
    starts = window_starts(wanted.words, where)
    size = len(wanted.words) + 2 * slack(len(wanted.words))
    best = None
    for start in starts:
        window = said.words[start : start + size]
        matcher = SequenceMatcher(None, wanted.words, window, autojunk=False)
        if best is not None and matcher.quick_ratio() <= best[0]:
            continue  # an upper bound, cheap: this window cannot do better
        ratio = matcher.ratio()
        if best is None or ratio > best[0]:
            best = (ratio, start, matcher)
    if best is None:
        return None
    _, start, matcher = best
    opcodes = trimmed(matcher.get_opcodes())
    first, last = start + opcodes[0][3], start + opcodes[-1][4]
    matched = sum(e2 - e1 for tag, e1, e2, _, _ in opcodes if tag == "equal")
    similarity = matched / max(len(wanted.words), last - first)
    if similarity < LEAST_LIKE:
        return None
    shifted = tuple(
        (tag, e1, e2, t1 - opcodes[0][3], t2 - opcodes[0][3]) for tag, e1, e2, t1, t2 in opcodes
    )
    return Nearest(wanted, said, first, last, shifted, similarity)


def window_starts(words: tuple[str, ...], where: dict[str, list[int]]) -> list[int]:
    """Where a window lined up on one of the excerpt's rarest words would start."""
    present = sorted(
        {(len(where[word]), position, word) for position, word in enumerate(words) if word in where}
    )
    starts = set()
    for _, position, word in present[:ANCHORS]:
        for index in where[word]:
            starts.add(max(0, index - position - slack(len(words))))
            if len(starts) >= MAX_WINDOWS:
                return sorted(starts)
    return sorted(starts)


def slack(size: int) -> int:
    """Words a window has on each side beyond the excerpt's, for words the excerpt left out."""
    return max(2, size // 4)


def trimmed(opcodes: list) -> list:
    """Opcodes without transcript words added before the first or after the last match."""
    opcodes = list(opcodes)
    while opcodes and opcodes[0][0] == "insert":
        opcodes.pop(0)
    while opcodes and opcodes[-1][0] == "insert":
        opcodes.pop()
    # A different word at either end: as many of the transcript's words as the excerpt has.
    if opcodes and opcodes[-1][0] == "replace":
        tag, e1, e2, t1, t2 = opcodes[-1]
        opcodes[-1] = (tag, e1, e2, t1, min(t2, t1 + e2 - e1))
    if opcodes and opcodes[0][0] == "replace":
        tag, e1, e2, t1, t2 = opcodes[0]
        opcodes[0] = (tag, e1, e2, max(t1, t2 - (e2 - e1)), t2)
    return opcodes


def explain_not_found(claim) -> SafeString:
    """For a claim whose excerpt was not found: the nearest passage and the difference, as HTML."""
    return explain(claim.excerpt, claim.episode)


def explain(excerpt: str, episode) -> SafeString:
    """The passage of the episode's transcript nearest `excerpt`, and the difference, as HTML."""
    nearest = nearest_passage(excerpt, episode.transcript_text)
    if nearest is not None:
        nearest = replace(nearest, time=timing.transcript_time(episode, nearest.start))
    return render_to_string("admin/claims/claim/_nearest.html", {"nearest": nearest})
