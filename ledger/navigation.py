"""The site's main navigation: its sections, and which one the reader is in."""

from django.urls import reverse
from django.utils.functional import SimpleLazyObject

# (label, the URL name of the section's page, the URL names of the pages under it).
# A reader on an episode, its transcript or one of its claims (reporting a problem
# with it too), is still in Episodes.
SECTIONS = (
    (
        "Episodes",
        "episodes:episode_list",
        (
            "episodes:episode_detail",
            "episodes:episode_transcript",
            "claims:claim_detail",
            "claims:claim_report",
            "claims:claim_report_sent",
        ),
    ),
    ("Speakers", "episodes:speaker_list", ("episodes:speaker_detail",)),
    ("Podcasts", "episodes:podcast_list", ("episodes:podcast_detail",)),
    ("Predictions", "claims:prediction_list", ()),
    ("Topics", "claims:topic_list", ("claims:topic_detail",)),
    ("References", "claims:reference_list", ("claims:reference_detail",)),
    ("Search evidence", "claims:claim_list", ()),
    ("Method", "method", ()),
    ("How the evidence works", "how_it_works", ()),
)


def current(here: str | None, name: str, pages: tuple[str, ...]) -> str:
    """The link's aria-current: "page" on the section's own page, "true" on a page
    under it (the link is the reader's place, not the page itself), else ""."""
    if here == name:
        return "page"
    return "true" if here in pages else ""


def navigation(request):
    """Template context: `nav_sections`, each with its label, url and aria-current value.

    Worked out only when a template shows it. Context processors run for every template
    rendered with the request, shown or not: a claim's embed and the admin's pages show
    no navigation, and when a feed still rendered a template for each of its fifty
    entries, their sections' links were a fifth of the claims' feed (34.0 ms rather than
    26.6 at a million claims, SQLite)."""
    return {"nav_sections": SimpleLazyObject(lambda: sections(request))}


def sections(request) -> list[dict]:
    match = request.resolver_match
    here = match.view_name if match else None
    return [
        {"label": label, "url": reverse(name), "current": current(here, name, pages)}
        for label, name, pages in SECTIONS
    ]
