"""/sitemap.xml: an index over one sitemap per kind of public page.

Each section lists only pages that answer 200 to anyone, through the same gates
as the pages themselves, and costs a fixed number of queries per page of up to
50,000 addresses whatever the size of the ledger: a count for the paginator and
one query for the page of records. Counts come from the counts kept beside the
records (claims/counters.py) where there are some, so that none reads every
claim; the index gives every section the ledger's version as its lastmod.
"""

from xml.sax.saxutils import escape

from django.contrib.sitemaps import Sitemap
from django.contrib.sitemaps import views as sitemap_views
from django.contrib.sites.shortcuts import get_current_site
from django.core.paginator import EmptyPage, PageNotAnInteger, Paginator
from django.db.models import F, Max, QuerySet, Sum
from django.db.models.functions import Coalesce, Greatest
from django.http import Http404, HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import cached_property

from claims.models import Claim, Reference, Topic
from claims.public_record import public_claim_total
from episodes.models import Episode, Podcast, Speaker
from ledger.models import current_version

# sitemaps.org allows 50,000 addresses per sitemap file.
URLS_PER_SITEMAP = 50_000


class LedgerSitemap(Sitemap):
    limit = URLS_PER_SITEMAP

    def __init__(self, changed_at=None):
        self.changed_at = changed_at

    def lastmod(self, item):
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
            .annotate(lastmod=Greatest("updated_at", Coalesce(latest_claim, "updated_at")))
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
            .annotate(lastmod=Max("claims__updated_at"))
            .order_by("pk")
        )

    def count(self):
        return Speaker.objects.filter(public_claim_count__gt=0).count()


class PodcastSitemap(LedgerSitemap):
    def items(self) -> QuerySet[Podcast]:
        return (
            Podcast.objects.filter(Episode.public_q(prefix="episodes__"))
            .only("slug")
            .annotate(lastmod=Max("episodes__updated_at"))
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
            .annotate(lastmod=Max("claims__updated_at"))
            .order_by("pk")
        )


class ReferenceSitemap(SubjectSitemap):
    model = Reference

    def items(self) -> QuerySet[Reference]:
        """References named by a public claim, each last modified when one of those was."""
        return (
            Reference.objects.filter(Claim.public_q(prefix="named_in__claim__"))
            .only("slug")
            .annotate(lastmod=Max("named_in__claim__updated_at"))
            .order_by("pk")
        )


class ClaimSitemap(LedgerSitemap):
    """Published claims' permalinks. Retracted claims keep theirs, but have nothing left
    to index."""

    def items(self):
        return (
            Claim.objects.published()
            .annotate(lastmod=F("updated_at"))
            .values("number", "lastmod", "episode__slug", "episode__podcast__slug")
            .order_by("pk")
        )

    def location(self, item):
        # A claim's permalink is its episode's page plus claims/N/ (Claim.get_absolute_url);
        # reversed once per episode, not once per claim.
        episodes = self.__dict__.setdefault("_episode_urls", {})
        key = (item["episode__podcast__slug"], item["episode__slug"])
        if key not in episodes:
            episodes[key] = reverse(
                "episodes:episode_detail", kwargs={"podcast_slug": key[0], "slug": key[1]}
            )
        return f"{episodes[key]}claims/{item['number']}/"

    def lastmod(self, item):
        return item["lastmod"]

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


def index(request, sitemaps, **kwargs):
    """Django's sitemap index, without the sections of topics or references while they
    have nothing to list: the ledger's version, then a count per section."""
    changed_at = current_version()[1]
    sections = {}
    for name, section in sitemaps.items():
        section = section(changed_at) if issubclass(section, LedgerSitemap) else section()
        if isinstance(section, SubjectSitemap) and not section.paginator.count:
            continue
        sections[name] = section
    return sitemap_views.index(request, sections, **kwargs)


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
    # Days in the site's time zone, looked up once: per address it was a third of the time.
    zone = timezone.get_current_timezone()
    parts = [URLSET_OPEN]
    for item in items:
        parts.append(f"<url><loc>{escape(origin + sitemap.location(item))}</loc>")
        if lastmod_of and (lastmod := lastmod_of(item)):
            parts.append(f"<lastmod>{lastmod.astimezone(zone).date().isoformat()}</lastmod>")
        parts.append("</url>\n")
    parts.append("</urlset>\n")
    return HttpResponse("".join(parts), content_type="application/xml")
