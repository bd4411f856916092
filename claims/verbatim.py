"""Is an excerpt verbatim in its episode's transcript?

Transcripts and excerpts come from different hands and tools, so the check
compares words, not typography: case, runs of whitespace and line breaks,
curly and straight quotes, the various dashes (and the spaces around them),
the ellipsis character and invisible characters are all normalised away on both
sides. Everything else — every word, every comma — must match, in order.

The check also says where: the span of the transcript the excerpt was found in,
so a claim's receipt can show the words around it without searching again.
"""

import re
import unicodedata
from functools import lru_cache

from claims.choices import Verification

# Typographic variants, mapped to the plain character a keyboard types.
_TYPOGRAPHY = str.maketrans(
    {
        **dict.fromkeys("‘’‚‛′ʼ`´", "'"),
        **dict.fromkeys("“”„‟«»", '"'),
        **dict.fromkeys("‐‑‒–—―−⁃", "-"),
        "…": "...",
        # Invisible characters a copy from a web page or a subtitle file brings along.
        **dict.fromkeys("\u00ad\u200b\u200c\u200d\u2060\ufeff", ""),
    }
)
_WHITESPACE = re.compile(r"\s+")
# "word — word", "word--word" and "word-word" are the same words.
_DASH = re.compile(r"\s*-+\s*")


def normalise(text):
    """The words of `text`, with typography folded away (see the module docstring)."""
    text = unicodedata.normalize("NFKC", text).translate(_TYPOGRAPHY).casefold()
    text = _WHITESPACE.sub(" ", text)
    return _DASH.sub("-", text).strip()


_NON_ASCII = re.compile(r"[^\x00-\x7f]+")
# The whitespace that folding changes: a lone space is already what it becomes.
_SPACING = re.compile(r"[^\S ]\s*| \s+")


@lru_cache(maxsize=4096)
def _fold_character(character):
    return unicodedata.normalize("NFKC", character).translate(_TYPOGRAPHY).casefold()


def _fold(text):
    """normalise()'s folding of typography, case and spacing, which also keeps, for
    each character it gives, the index in `text` of the character it came from.

    ASCII, most of any transcript, folds in bulk and keeps its length; other
    characters fold one by one (an ellipsis becomes three dots, all from one index).
    """
    parts, origins, done = [], [], 0
    for run in _NON_ASCII.finditer(text):
        parts.append(text[done : run.start()].translate(_TYPOGRAPHY).lower())
        origins.extend(range(done, run.start()))
        for index in range(run.start(), run.end()):
            folded = _fold_character(text[index])
            parts.append(folded)
            origins.extend([index] * len(folded))
        done = run.end()
    parts.append(text[done:].translate(_TYPOGRAPHY).lower())
    origins.extend(range(done, len(text)))
    folded = "".join(parts)
    for pattern, replacement in ((_SPACING, " "), (_DASH, "-")):
        folded, origins = _replace_keeping_origins(pattern, replacement, folded, origins)
    return folded, origins


def _replace_keeping_origins(pattern, replacement, text, origins):
    """pattern.sub(replacement, text), each replacement taking its match's first origin."""
    parts, kept, done = [], [], 0
    for match in pattern.finditer(text):
        parts += (text[done : match.start()], replacement)
        kept += origins[done : match.start()]
        kept.append(origins[match.start()])
        done = match.end()
    parts.append(text[done:])
    kept += origins[done:]
    return "".join(parts), kept


@lru_cache(maxsize=8)
def folded_transcript(transcript):
    """_fold(transcript), remembered: every claim of an episode is looked for in the same text."""
    return _fold(transcript)


def locate(excerpt, transcript):
    """Where `excerpt` is in `transcript`, word for word: (start, end) indexes into
    `transcript`, or None when it is not there."""
    words = _fold(excerpt)[0].strip()
    folded, origins = folded_transcript(transcript)
    at = folded.find(words) if words else -1
    if at < 0:
        return None
    return origins[at], origins[at + len(words) - 1] + 1


def check(excerpt, transcript):
    """The Verification for `excerpt` against `transcript` (either may be empty)."""
    return check_and_locate(excerpt, transcript)[0]


def check_and_locate(excerpt, transcript):
    """The Verification for `excerpt` against `transcript`, and where it was found (or None)."""
    if not transcript.strip():
        return Verification.NO_TRANSCRIPT, None
    span = locate(excerpt, transcript)
    return (Verification.FOUND if span else Verification.NOT_FOUND), span
