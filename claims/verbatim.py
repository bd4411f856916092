"""Is an excerpt verbatim in its episode's transcript?

Transcripts and excerpts come from different hands and tools, so the check
compares words, not typography: case, runs of whitespace and line breaks,
curly and straight quotes, the various dashes (and the spaces around them),
the ellipsis character and invisible characters are all normalised away on both
sides. Everything else — every word, every comma — must match, in order.
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


@lru_cache(maxsize=8)
def normalised_transcript(transcript):
    """normalise(transcript), remembered: every claim of an episode checks the same text."""
    return normalise(transcript)


def check(excerpt, transcript):
    """The Verification for `excerpt` against `transcript` (either may be empty)."""
    if not transcript.strip():
        return Verification.NO_TRANSCRIPT
    words = normalise(excerpt)
    if words and words in normalised_transcript(transcript):
        return Verification.FOUND
    return Verification.NOT_FOUND
