from django.conf import settings
from django.contrib import admin
from django.http import HttpResponse
from django.urls import include, path
from django.views.generic import RedirectView, TemplateView

from claims.choices import TYPE_MEANINGS
from claims.sitemaps import SITEMAPS
from claims.sitemaps import index as sitemap_index
from claims.sitemaps import section as sitemap_section
from claims.urls import record_pages
from ledger import views

admin.site.site_header = "Evidence Ledger curation"
admin.site.site_title = "Evidence Ledger admin"
admin.site.index_title = "Curate the ledger"

urlpatterns = [
    path("", views.home, name="home"),
    # The site-wide "Search evidence" address: the claims browser, state kept.
    path(
        "search/",
        RedirectView.as_view(pattern_name="claims:claim_list", query_string=True),
        name="search",
    ),
    path(
        "method/",
        TemplateView.as_view(
            template_name="method.html", extra_context={"type_meanings": TYPE_MEANINGS}
        ),
        name="method",
    ),
    path(
        "how-the-evidence-works/",
        TemplateView.as_view(template_name="how_the_evidence_works.html"),
        name="how_it_works",
    ),
    path("about/", views.about, name="about"),
    path("robots.txt", views.robots_txt, name="robots_txt"),
    path(
        "sitemap.xml",
        sitemap_index,
        {"sitemaps": SITEMAPS, "sitemap_url_name": "sitemap_section"},
        name="sitemap",
    ),
    path(
        "sitemap-<section>.xml",
        sitemap_section,
        name="sitemap_section",
    ),
    path("api/", include("claims.api.urls")),
    path("developers/", views.developers, name="developers"),
    path(
        "developers/reference/",
        TemplateView.as_view(template_name="api/reference.html"),
        name="developers_reference",
    ),
    path("", include(record_pages)),
    path("", include("claims.urls")),
    path(settings.ADMIN_URL, admin.site.urls),
]

# Under /api/ a server error is JSON, like every other API answer.
handler500 = "claims.api.errors.server_error"

if settings.BENCHMARK_VIEWS:
    # The cheapest page the stack can serve, through the same middleware: the
    # benchmark reports every page's throughput as a share of this one's.
    urlpatterns.append(path("bench/minimal/", lambda request: HttpResponse("ok"), name="minimal"))
