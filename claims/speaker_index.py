"""The speakers index: the people in the public record, found by name, each with the
number of published episodes they were on and their roles there."""

import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Exists, F, IntegerField, OuterRef, Q, QuerySet, Value

from claims.models import Claim
from episodes.models import ROLE_ORDER, Appearance, Role, Speaker

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
        return _WORD.findall(self.text)

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

    The list joins two sets by a UNION: those with claims, by the count each speaker
    keeps (claims.counters), and those who only appeared, with a count of 0. Neither
    the list nor its count reads a claim: grouping every public claim by speaker cost
    326 ms at a million claims (docs/performance.md).
    """

    def __init__(self, name_words: Iterable[str] = ()):
        # Each part is narrowed by name: a union cannot be filtered afterwards.
        self.name_words = list(name_words)
        fields = ("pk", "name", "slug", "description")
        with_claims = (
            self.named(Speaker.objects.filter(public_claim_count__gt=0))
            .annotate(claim_count=F("public_claim_count"))
            .only(*fields)
            .order_by()  # the union is ordered, not its parts
        )
        appeared_only = (
            self.named(
                Speaker.objects.filter(Exists(published_appearances()), public_claim_count=0)
            )
            .annotate(claim_count=Value(0, output_field=IntegerField()))
            .only(*fields)
            .order_by()
        )
        self.listed = with_claims.union(appeared_only, all=True).order_by("-claim_count", "name")
        self.counted = self.named(
            Speaker.objects.filter(Q(public_claim_count__gt=0) | Exists(published_appearances()))
        )

    def named(self, speakers: QuerySet[Speaker]) -> QuerySet[Speaker]:
        """Those whose name holds every word searched for."""
        for word in self.name_words:
            speakers = speakers.named_like([word])
        return speakers

    def count(self) -> int:
        return self.counted.count()

    def __getitem__(self, key):
        return self.listed[key]


def published_appearances():
    return Appearance.objects.published().filter(speaker=OuterRef("pk"))


def count_episodes_and_roles(speakers: list[Speaker]) -> None:
    """Set each speaker's `episode_count` (published episodes they appeared in or have a
    public claim in, each counted once) and `roles` (their roles on published episodes,
    in role order). Two queries for the page of speakers, never one per speaker.

    The UNION of (speaker, episode) pairs from claims and appearances counts each
    episode once; it reads the page's speakers' claims from the claims'
    (speaker, status, episode) index and joins the episodes once, by hash.
    """
    ids = [speaker.pk for speaker in speakers]
    with_claims = (
        Claim.objects.published().filter(speaker__in=ids).values_list("speaker", "episode")
    )
    appeared = Appearance.objects.published().filter(speaker__in=ids)
    pairs = with_claims.order_by().union(appeared.values_list("speaker", "episode").order_by())
    episode_counts = Counter(speaker_id for speaker_id, _ in pairs)
    roles = defaultdict(set)
    for speaker_id, role in appeared.values_list("speaker", "role").distinct().order_by():
        roles[speaker_id].add(role)
    for speaker in speakers:
        speaker.episode_count = episode_counts[speaker.pk]
        in_order = sorted(roles[speaker.pk], key=ROLE_ORDER.__getitem__)
        speaker.roles = [Role(role).label.lower() for role in in_order]
