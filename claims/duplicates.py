"""Claims captured twice: the same excerpt, or nearly the same, in one episode.

Two excerpts are near-identical when difflib finds their words (as the verbatim
check normalises them, punctuation aside) at least 90% alike: "GRPO works" and "GRPO, it works" are
not, a re-pasted paragraph with a comma more is. Retracted claims are left out:
a corrected claim added after a retraction repeats its words on purpose.
"""

import re
from collections.abc import Iterable
from difflib import SequenceMatcher

from claims.choices import ClaimStatus
from claims.verbatim import normalise

NEAR_IDENTICAL = 0.9
_WORD = re.compile(r"[\w']+")


def excerpt_words(excerpt: str) -> list[str]:
    """The excerpt's words, typography and punctuation aside: what a second capture repeats."""
    return _WORD.findall(normalise(excerpt))


def near_identical(words: list[str], other_words: list[str]) -> bool:
    matcher = SequenceMatcher(None, words, other_words, autojunk=False)
    # The quick upper bounds first: most pairs of an episode's claims fail them.
    return (
        matcher.real_quick_ratio() >= NEAR_IDENTICAL
        and matcher.quick_ratio() >= NEAR_IDENTICAL
        and matcher.ratio() >= NEAR_IDENTICAL
    )


def duplicates_of(saved: Iterable, episode_claims: Iterable) -> list[tuple]:
    """[(claim, other, identical)]: each of `saved` with another claim of its episode it repeats.

    `episode_claims` are the claims to compare with (their episode, number, excerpt
    and status); a pair of two saved claims is reported once. `identical` says
    whether the words are the same or only nearly.
    """
    candidates = [
        (claim, excerpt_words(claim.excerpt))
        for claim in episode_claims
        if claim.status != ClaimStatus.RETRACTED
    ]
    pairs, seen = [], set()
    for claim in saved:
        words = excerpt_words(claim.excerpt)
        for other, other_words in candidates:
            pair = frozenset((claim.pk, other.pk))
            if other.episode_id != claim.episode_id or other.pk == claim.pk or pair in seen:
                continue
            if near_identical(words, other_words):
                seen.add(pair)
                pairs.append((claim, other, words == other_words))
    return pairs
