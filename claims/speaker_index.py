"""The speakers index: the people in the public record, found by name, each with the
number of published episodes they were on and their roles there."""

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Count, Exists, IntegerField, OuterRef, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce

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


def speakers_in_public_record(name_words: Iterable[str] = ()) -> QuerySet[Speaker]:
    """Speakers with a public claim or an appearance on a published episode, most public
    claims first, annotated with `claim_count`; only those whose name holds every one of
    `name_words`, if given.

    Those with claims are counted as an inner join grouped by speaker, which reads the
    claims' (speaker, status, episode) index only (docs/performance.md, 17); those who
    only appeared are added with a count of 0. Two sets joined by a UNION, each
    narrowed by name first: a union cannot be filtered afterwards.
    """

    def named(speakers):
        for word in name_words:
            speakers = speakers.named_like([word])
        return speakers

    fields = ("pk", "name", "slug", "description")
    with_claims = (
        named(Speaker.objects.filter(Claim.public_q(prefix="claims__")))
        .annotate(claim_count=Count("*"))
        .only(*fields)
        .order_by()  # the union is ordered, not its parts
    )
    appeared_only = (
        named(Speaker.objects.all())
        .filter(Exists(Appearance.objects.published().filter(speaker=OuterRef("pk"))))
        .exclude(Exists(Claim.objects.published().filter(speaker=OuterRef("pk"))))
        .annotate(claim_count=Value(0, output_field=IntegerField()))
        .only(*fields)
        .order_by()
    )
    return with_claims.union(appeared_only, all=True).order_by("-claim_count", "name")


def count_episodes_and_roles(speakers: list[Speaker]) -> None:
    """Set each speaker's `episode_count` (published episodes they appeared in or have a
    public claim in, each counted once) and `roles` (their roles on published episodes,
    in role order). Two queries for the page of speakers, never one per speaker."""
    ids = [speaker.pk for speaker in speakers]
    episodes_with_claims = (
        Claim.objects.published()
        .filter(speaker=OuterRef("pk"))
        .order_by()
        .values("speaker")
        .annotate(n=Count("episode", distinct=True))
        .values("n")
    )
    # Episodes they appeared in without saying anything on the record there.
    said_something = Claim.objects.published().filter(
        speaker=OuterRef("speaker"), episode=OuterRef("episode")
    )
    appeared_silently = (
        Appearance.objects.published()
        .filter(speaker=OuterRef("pk"))
        .exclude(Exists(said_something))
        .order_by()
        .values("speaker")
        .annotate(n=Count("pk"))
        .values("n")
    )
    counts = dict(
        Speaker.objects.filter(pk__in=ids)
        .annotate(
            episode_count=Coalesce(Subquery(episodes_with_claims), 0)
            + Coalesce(Subquery(appeared_silently), 0)
        )
        .values_list("pk", "episode_count")
    )
    roles = defaultdict(set)
    for speaker_id, role in (
        Appearance.objects.published()
        .filter(speaker__in=ids)
        .values_list("speaker", "role")
        .distinct()
        .order_by()
    ):
        roles[speaker_id].add(role)
    for speaker in speakers:
        speaker.episode_count = counts.get(speaker.pk, 0)
        in_order = sorted(roles[speaker.pk], key=ROLE_ORDER.__getitem__)
        speaker.roles = [Role(role).label.lower() for role in in_order]
