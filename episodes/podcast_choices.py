"""The podcasts a filter offers: the largest few by name, and the chosen one wherever it is.

/episodes/ and /predictions/ filter by podcast with a <select>. Offered every podcast,
at ten million claims they listed 2,500, a list no reader scrolls, and /episodes/ took
37 ms where the million's 250 podcasts took 10. Each now offers the OFFERED podcasts
with the most of what it lists, and says where every podcast is (/podcasts/).
"""

from dataclasses import dataclass

from django.core.validators import slug_re
from django.db.models import BooleanField, Count, ExpressionWrapper, F, Q, Sum, Window

from episodes.models import Podcast

OFFERED = 50


@dataclass
class Offer:
    podcasts: list[dict]  # {"pk", "slug", "name", "size"}, by name
    chosen: dict | None  # the chosen podcast's row, if it is one of those counted
    total: int  # the sizes of all the podcasts counted, added up
    every: int  # how many podcasts were counted

    @property
    def choices(self) -> list[tuple[str, str]]:
        return [(row["slug"], row["name"]) for row in self.podcasts]

    @property
    def leaves_some_out(self) -> bool:
        return self.every > len(self.podcasts)


def offered(size_field: str, chosen_slug: str = "", size: int | None = None) -> Offer:
    """The podcasts with any `size_field` (a count each podcast keeps), in one query: the
    `size` largest (OFFERED unless given), and the one whose slug is `chosen_slug`, if
    any, among them."""
    size = OFFERED if size is None else size
    if not slug_re.match(chosen_slug):
        # No podcast's slug (a reader's "a\x00b", which PostgreSQL would refuse to compare).
        chosen_slug = ""
    rows = list(
        Podcast.objects.filter(**{f"{size_field}__gt": 0})
        .annotate(
            is_chosen=ExpressionWrapper(Q(slug=chosen_slug), output_field=BooleanField()),
            # Over every podcast counted, before the limit.
            total=Window(Sum(size_field)),
            every=Window(Count("pk")),
        )
        .order_by("-is_chosen", f"-{size_field}", "slug")
        .values("pk", "slug", "name", "is_chosen", "total", "every", size=F(size_field))[: size + 1]
    )
    chosen = rows[0] if rows and rows[0]["is_chosen"] else None
    shown = rows if chosen else rows[:size]
    return Offer(
        podcasts=sorted(shown, key=lambda row: (row["name"], row["slug"])),
        chosen=chosen,
        total=rows[0]["total"] if rows else 0,
        every=rows[0]["every"] if rows else 0,
    )
