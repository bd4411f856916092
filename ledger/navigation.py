"""The site's main navigation: its sections, and which one the reader is in."""

from django.urls import reverse

# (label, the URL name of the section's page)
SECTIONS = (
    ("Episodes", "episodes:episode_list"),
    ("Speakers", "episodes:speaker_list"),
    ("Podcasts", "episodes:podcast_list"),
    ("Predictions", "claims:prediction_list"),
    ("Search evidence", "claims:claim_list"),
    ("Method", "method"),
    ("How the evidence works", "how_it_works"),
)


def navigation(request):
    """Template context: `nav_sections`, each with its label, url and whether it is current."""
    match = request.resolver_match
    here = match.view_name if match else None
    return {
        "nav_sections": [
            {"label": label, "url": reverse(name), "current": name == here}
            for label, name in SECTIONS
        ]
    }
