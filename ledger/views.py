from django.conf import settings
from django.shortcuts import render
from django.urls import reverse

from claims.downloads import COLUMNS
from claims.public_record import episodes_with_counts, totals
from episodes.models import Episode
from ledger.licence import DATA_LICENCE

RECENT_EPISODES = 6


def home(request):
    return render(
        request,
        "home.html",
        {
            "recent_episodes": episodes_with_counts(
                Episode.objects.published().newest_first()[:RECENT_EPISODES]
            ),
            **totals(),
        },
    )


def per(rate: str) -> str:
    """ "120/minute" as a reader says it: "120 per minute"."""
    number, _, period = rate.partition("/")
    return f"{number} per {period}"


def developers(request):
    return render(
        request,
        "developers.html",
        {
            "site": request.build_absolute_uri("/").rstrip("/"),
            "api_rate": per(settings.API_RATE),
            "download_rate": per(settings.DOWNLOAD_RATE),
            "columns": COLUMNS.items(),
            "licence": DATA_LICENCE,
        },
    )


def about(request):
    return render(
        request,
        "about.html",
        {"licence": DATA_LICENCE, "editors_email": settings.LEDGER_EDITORS_EMAIL},
    )


def csrf_failure(request, reason=""):
    """A form sent without its CSRF cookie or token (CSRF_FAILURE_VIEW): say what to do."""
    return render(
        request, "403_csrf.html", {"editors_email": settings.LEDGER_EDITORS_EMAIL}, status=403
    )


def robots_txt(request):
    return render(
        request,
        "robots.txt",
        {
            "sitemap_url": request.build_absolute_uri(reverse("sitemap")),
            # robots.txt is public: an admin moved to a secret address is not named in it.
            "admin_path": "/admin/" if settings.ADMIN_URL == "admin/" else "",
        },
        content_type="text/plain; charset=utf-8",
    )
