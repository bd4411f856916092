"""/sitemap.xml: an index over one sitemap per kind of public page.

Each section lists only pages that answer 200 to anyone, through the same gates
as the pages themselves, and costs a fixed number of queries per page of up to
50,000 addresses whatever the size of the ledger: a count for the paginator and
one query for the page of records. Counts come from the counts kept beside the
records (claims/counters.py) where there are some, so that none reads every
claim; the index gives every section the ledger's version as its lastmod.

An address's lastmod is the day, in UTC, of its last change: the database writes
it as text, so that a page of 50,000 claims never builds a datetime per address.
"""

from xml.sax.saxutils import escape

from django.contrib.sitemaps import Sitemap
from django.contrib.sitemaps import views as sitemap_views
from django.contrib.sites.shortcuts import get_current_site
from django.core.paginator import EmptyPage, PageNotAnInteger, Paginator
from django.db.models import CharField, Func, Max, QuerySet, Sum
from django.db.models.functions import Coalesce, Greatest
from django.http import Http404, HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import cached_property

from claims.listed_counts import ListedKind, listed_count
from claims.models import Claim, Reference, Topic
from claims.public_record import public_claim_total
from episodes.models import Episode, Podcast, Speaker

# sitemaps.org allows 50,000 addresses per sitemap file.
URLS_PER_SITEMAP = 50_000


class DayInUTC(Func):
    """A moment's day in UTC, as text ("2026-12-03").

    On SQLite Django keeps a moment as UTC text ("2026-12-03 07:35:08.98"), whose day
    is its first ten characters; Django's own day of a moment there calls Python once
    per row, which cost more than reading the moment itself.
    """

    output_field = CharField()
    template = "to_char(%(expressions)s AT TIME ZONE 'UTC', 'YYYY-MM-DD')"

    def as_sqlite(self, compiler, connection, **extra_context):
        return self.as_sql(compiler, connection, template="substr(%(expressions)s, 1, 10)")


class LedgerSitemap(Sitemap):
    limit = URLS_PER_SITEMAP

    def __init__(self, changed_at=None):
        self.changed_at = changed_at

    def lastmod(self, item) -> str:
        return item.lastmod

    def get_latest_lastmod(self):
        # When the ledger last changed, read once by the index for every section: the
        # latest of a section's records was an aggregate over every public claim (a
        # second for each section at a million claims). The version moves with every
        # public change, so a crawler is never told a changed section is unchanged.
        return self.changed_at

    def count(self) -> int:
        """How many addresses the section holds: the paginator's count."""
        raise NotImplementedError

    @cached_property
    def paginator(self):
        # Django builds a paginator per use and counts the items; ours counts once, cheaply.
        paginator = Paginator(self._items(), self.limit)
        paginator.count = self.count()
        return paginator


class PageSitemap(Sitemap):
    """The site-wide pages and lists; they change with the ledger, so no lastmod."""

    limit = URLS_PER_SITEMAP
    names = (
        "home",
        "episodes:episode_list",
        "episodes:speaker_list",
        "episodes:podcast_list",
        "claims:claim_list",
        "claims:topic_list",
        "claims:reference_list",
        "method",
        "how_it_works",
    )

    def items(self):
        return list(self.names)

    def location(self, item):
        return reverse(item)


class EpisodeSitemap(LedgerSitemap):
    def items(self) -> QuerySet[Episode]:
        """Published episodes, each last modified when it or one of its public claims was.

        Ordered by key, so that a page of the sitemap holds the same episodes each time.
        """
        latest_claim = Max("claims__updated_at", filter=Claim.public_q(prefix="claims__"))
        return (
            Episode.objects.published()
            .select_related("podcast")
            .only("slug", "podcast__slug")
            .annotate(
                lastmod=DayInUTC(Greatest("updated_at", Coalesce(latest_claim, "updated_at")))
            )
            .order_by("pk")
        )

    def count(self):
        return Podcast.objects.aggregate(n=Sum("public_episode_count"))["n"] or 0


class SpeakerSitemap(LedgerSitemap):
    def items(self) -> QuerySet[Speaker]:
        """Speakers with a public claim (the others have no page), each last modified when
        one of their public claims was."""
        return (
            Speaker.objects.filter(Claim.public_q(prefix="claims__"))
            .only("slug")
            .annotate(lastmod=DayInUTC(Max("claims__updated_at")))
            .order_by("pk")
        )

    def count(self):
        return listed_count(ListedKind.PEOPLE)


class PodcastSitemap(LedgerSitemap):
    def items(self) -> QuerySet[Podcast]:
        return (
            Podcast.objects.filter(Episode.public_q(prefix="episodes__"))
            .only("slug")
            .annotate(lastmod=DayInUTC(Max("episodes__updated_at")))
            .order_by("pk")
        )

    def count(self):
        return Podcast.objects.filter(public_episode_count__gt=0).count()


class SubjectSitemap(LedgerSitemap):
    """Topics or references: listed in the index only once one has a public claim, as a
    sitemap must hold at least one address.

    Counted by the number of public claims each keeps (claims.counters). Looking for
    each one's first public claim took 18 ms for the references at a million claims,
    and grew with them.
    """

    def count(self):
        return self.model.objects.filter(public_claim_count__gt=0).count()


class TopicSitemap(SubjectSitemap):
    model = Topic

    def items(self) -> QuerySet[Topic]:
        """Topics with a public claim (the others have no page), each last modified when
        one of their public claims was."""
        return (
            Topic.objects.filter(Claim.public_q(prefix="claims__"))
            .only("slug")
            .annotate(lastmod=DayInUTC(Max("claims__updated_at")))
            .order_by("pk")
        )


class ReferenceSitemap(SubjectSitemap):
    model = Reference

    def items(self) -> QuerySet[Reference]:
        """References named by a public claim, each last modified when one of those was."""
        return (
            Reference.objects.filter(Claim.public_q(prefix="named_in__claim__"))
            .only("slug")
            .annotate(lastmod=DayInUTC(Max("named_in__claim__updated_at")))
            .order_by("pk")
        )

    def count(self):
        return listed_count(ListedKind.REFERENCES)


class ClaimSitemap(LedgerSitemap):
    """Published claims' permalinks. Retracted claims keep theirs, but have nothing left
    to index."""

    def items(self):
        """Rows of (number, day of last change, podcast's slug, episode's slug): at 50,000
        a page, a model or a dict per claim costs more than the database's answer."""
        return (
            Claim.objects.published()
            .annotate(lastmod=DayInUTC("updated_at"))
            .values_list("number", "lastmod", "episode__podcast__slug", "episode__slug")
            .order_by("pk")
        )

    def location(self, item):
        # A claim's permalink is its episode's page plus claims/N/ (Claim.get_absolute_url);
        # reversed once per episode, not once per claim.
        number, _, podcast_slug, episode_slug = item
        episodes = self.__dict__.setdefault("_episode_urls", {})
        if (podcast_slug, episode_slug) not in episodes:
            episodes[podcast_slug, episode_slug] = reverse(
                "episodes:episode_detail",
                kwargs={"podcast_slug": podcast_slug, "slug": episode_slug},
            )
        return f"{episodes[podcast_slug, episode_slug]}claims/{number}/"

    def lastmod(self, item) -> str:
        return item[1]

    def count(self):
        return public_claim_total()


SITEMAPS = {
    "pages": PageSitemap,
    "episodes": EpisodeSitemap,
    "speakers": SpeakerSitemap,
    "podcasts": PodcastSitemap,
    "claims": ClaimSitemap,
    "topics": TopicSitemap,
    "references": ReferenceSitemap,
}


@sitemap_views.x_robots_tag
def index(request, sitemaps, sitemap_url_name):
    """The sitemaps.org index of every page of every section, but topics' and
    references' while they have nothing to list: a count per section, each section's
    lastmod the ledger's version the page cache read for this page's ETag. Written
    directly, as section() writes its pages: Django's template took 5 ms to list 220
    pages of sections, about as many as ten million claims fill."""
    changed_at = request.public_page.changed_at
    origin = f"{request.scheme}://{get_current_site(request).domain}"
    parts = [INDEX_OPEN]
    for name, section in sitemaps.items():
        section = section(changed_at) if issubclass(section, LedgerSitemap) else section()
        if isinstance(section, SubjectSitemap) and not section.paginator.count:
            continue
        location = escape(origin + reverse(sitemap_url_name, kwargs={"section": name}))
        stamp = ""
        if lastmod := section.get_latest_lastmod():
            # As Django's index writes it: ISO 8601, in the site's time zone.
            stamp = f"<lastmod>{timezone.localtime(lastmod).isoformat()}</lastmod>"
        for page in range(1, section.paginator.num_pages + 1):
            address = location if page == 1 else f"{location}?p={page}"
            parts.append(f"<sitemap><loc>{address}</loc>{stamp}</sitemap>\n")
    parts.append("</sitemapindex>\n")
    return HttpResponse("".join(parts), content_type="application/xml")


INDEX_OPEN = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
)

URLSET_OPEN = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
)


@sitemap_views.x_robots_tag
def section(request, section):
    """One page of a section: the same document as Django's sitemap view, written
    directly. Django renders each address through its template engine, which takes
    seconds for a full page of 50,000; this takes a small fraction of that. The page
    cache (ledger/caching.py) gives it Last-Modified, from the ledger's version."""
    if section not in SITEMAPS:
        raise Http404(f"No sitemap available for section: {section!r}")
    sitemap = SITEMAPS[section]()
    page = request.GET.get("p", 1)
    try:
        items = sitemap.paginator.page(page).object_list
    except EmptyPage:
        raise Http404(f"Page {page} empty") from None
    except PageNotAnInteger:
        raise Http404(f"No page {page!r}") from None
    origin = f"{request.scheme}://{get_current_site(request).domain}"
    lastmod_of = getattr(sitemap, "lastmod", None)
    parts = [URLSET_OPEN]
    for item in items:
        parts.append(f"<url><loc>{escape(origin + sitemap.location(item))}</loc>")
        if lastmod_of and (day := lastmod_of(item)):
            parts.append(f"<lastmod>{day}</lastmod>")
        parts.append("</url>\n")
    parts.append("</urlset>\n")
    return HttpResponse("".join(parts), content_type="application/xml")
