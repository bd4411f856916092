"""The speakers index: the people in the public record, found by name, each with the
number of published episodes they were on and their roles there."""

import re
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import F, QuerySet

from claims.listed_counts import ListedKind, listed, listed_count
from episodes.models import Role, Speaker
from episodes.trigrams import each_once

# Longer than any name worth finding; the rest of a longer search is left out, and said so.
MAX_NAME_QUERY_LENGTH = 100
# Words as the search splits them: letters and digits.
_WORD = re.compile(r"[^\W_]+")


@dataclass(frozen=True)
class NameQuery:
    """What a reader typed in the speakers index's search box, read once."""

    text: str = ""
    truncated: bool = False

    @classmethod
    def parse(cls, raw: str) -> "NameQuery":
        """Never raises: NULs and runs of spaces are read as single spaces."""
        text = " ".join(raw.replace("\x00", " ").split())
        return cls(text[:MAX_NAME_QUERY_LENGTH], truncated=len(text) > MAX_NAME_QUERY_LENGTH)

    @property
    def words(self) -> list[str]:
        # Each once: a name is asked for each word in turn, and "ai" typed to the box's
        # limit took SQLite 366 ms at a million claims (PostgreSQL 72).
        return each_once(_WORD.findall(self.text))

    @property
    def problems(self) -> list[str]:
        problems = []
        if self.truncated:
            problems.append(
                f"Your search was long, so only its first {MAX_NAME_QUERY_LENGTH} characters "
                "were used."
            )
        if self.text and not self.words:
            problems.append(f"“{self.text}” has no letters or digits to look for in a name.")
        return problems


class PublicRecordSpeakers:
    """Speakers with a public claim or an appearance on a published episode, most public
    claims first, each with `claim_count`, as a Paginator pages them: counted by one
    query, sliced by another.

    Both read only the counts each speaker keeps (claims.counters): grouping every public
    claim by speaker cost 326 ms at a million claims (docs/performance.md). Someone in
    the public record has a published episode to their name, by a claim or an appearance.
    """

    def __init__(self, name_words: Iterable[str] = ()):
        self.name_words = list(name_words)
        fields = ("pk", "name", "slug", "description", "public_episode_count", "public_role_counts")
        self.counted = self.named(listed(ListedKind.SPEAKERS))
        self.listed = (
            self.counted.annotate(claim_count=F("public_claim_count"))
            .only(*fields)
            .order_by("-public_claim_count", "name")
        )

    def named(self, speakers: QuerySet[Speaker]) -> QuerySet[Speaker]:
        """Those whose name holds every word searched for."""
        return speakers.named_like(self.name_words, every=True) if self.name_words else speakers

    def count(self) -> int:
        if not self.name_words:
            return listed_count(ListedKind.SPEAKERS)
        return self.counted.count()

    def __getitem__(self, key):
        return self.listed[key]


def label_episodes_and_roles(speakers: list[Speaker]) -> None:
    """Set each speaker's `episode_count` (published episodes they appeared in or have a
    public claim in, each counted once) and `roles` (their roles on published episodes,
    in role order) from what they keep: no query."""
    for speaker in speakers:
        speaker.episode_count = speaker.public_episode_count
        speaker.roles = [Role(role).label.lower() for role in speaker.public_roles]
