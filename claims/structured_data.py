"""schema.org JSON-LD for the public pages, built from the records a page already holds.

Each function takes what its view put in the template's context and reads
nothing more from the database, so describing a page never costs a query.
Only public records reach these functions; a retracted claim is described
without its words.
"""

import json
from collections.abc import Callable, Iterable

from django.utils.html import format_html
from django.utils.safestring import SafeString

from claims.models import Claim
from episodes.models import Episode, Podcast, Speaker

SITE_NAME = "Evidence Ledger"
SCHEMA = "https://schema.org"

# Turns a site-relative path into an absolute URL (request.build_absolute_uri).
Absolute = Callable[[str], str]

# What json.dumps leaves that could end a <script> element or start markup inside
# it: the same escapes as Django's json_script filter.
JSON_SCRIPT_ESCAPES = {ord(">"): "\\u003E", ord("<"): "\\u003C", ord("&"): "\\u0026"}


def json_ld_script(data: dict) -> SafeString:
    """`data` in a <script type="application/ld+json"> element, safe whatever its text.

    A data block, not a script: browsers never run it, so the site's CSP (no
    inline script) lets it be, and reports no violation.
    """
    text = json.dumps(data, ensure_ascii=False, sort_keys=False).translate(JSON_SCRIPT_ESCAPES)
    return format_html('<script type="application/ld+json">{}</script>', SafeString(text))


def organisation(absolute: Absolute) -> dict:
    return {"@type": "Organization", "name": SITE_NAME, "url": absolute("/")}


def person(speaker: Speaker, absolute: Absolute) -> dict:
    data = {"@type": "Person", "name": speaker.name, "url": absolute(speaker.get_absolute_url())}
    if speaker.description:
        data["description"] = speaker.description
    if speaker.link_list:
        data["sameAs"] = speaker.link_list
    return data


def podcast_series(podcast: Podcast, absolute: Absolute) -> dict:
    data = {
        "@type": "PodcastSeries",
        "name": podcast.name,
        "url": absolute(podcast.get_absolute_url()),
    }
    if podcast.description:
        data["description"] = podcast.description
    if podcast.website_url:
        data["sameAs"] = podcast.website_url
    if podcast.feed_url:
        data["webFeed"] = podcast.feed_url
    return data


def podcast_episode(episode: Episode, absolute: Absolute, people: Iterable[Speaker] = ()) -> dict:
    """The episode as its publisher put it out: `url` is the original, and the
    ledger's page about it is `mainEntityOfPage`."""
    data = {
        "@type": "PodcastEpisode",
        "name": episode.title,
        "url": episode.original_url,
        "mainEntityOfPage": absolute(episode.get_absolute_url()),
        "datePublished": episode.air_date.isoformat(),
        "partOfSeries": podcast_series(episode.podcast, absolute),
    }
    if "summary" in episode.__dict__ and episode.summary:  # deferred on listings
        data["description"] = episode.summary
    if episode.audio_url:
        data["associatedMedia"] = {"@type": "AudioObject", "contentUrl": episode.audio_url}
    actors = [person(speaker, absolute) for speaker in people]
    if actors:
        data["actor"] = actors
    return data


def quotation(claim: Claim, absolute: Absolute, citation: str = "") -> dict:
    """A claim as a schema.org Quotation. An unresolved voice is no Person, so the
    quotation then has no creator; a retracted claim has no text."""
    episode = claim.episode
    data = {
        "@context": SCHEMA,
        "@type": "Quotation",
        "url": absolute(claim.get_absolute_url()),
        "name": f"Claim {claim.label} of “{episode.title}”",
        "isBasedOn": podcast_episode(episode, absolute),
        "datePublished": episode.air_date.isoformat(),
        "publisher": organisation(absolute),
    }
    if claim.is_retracted:
        data["creativeWorkStatus"] = "Retracted"
        return data
    data["text"] = claim.excerpt
    data["genre"] = claim.type
    if claim.is_identified:
        data["creator"] = person(claim.speaker, absolute)
    if citation:
        data["citation"] = citation
    return data


def breadcrumbs(trail: list[tuple[str, str]], absolute: Absolute) -> dict:
    """A BreadcrumbList of (name, path) from the home page down to this page."""
    return {
        "@context": SCHEMA,
        "@type": "BreadcrumbList",
        "itemListElement": [
            {"@type": "ListItem", "position": n, "name": name, "item": absolute(path)}
            for n, (name, path) in enumerate(trail, start=1)
        ],
    }


def claim_trail(claim: Claim) -> list[tuple[str, str]]:
    episode = claim.episode
    return [
        (SITE_NAME, "/"),
        (episode.podcast.name, episode.podcast.get_absolute_url()),
        (episode.title, episode.get_absolute_url()),
        (f"Claim {claim.label}", claim.get_absolute_url()),
    ]


def episode_page(episode: Episode, speakers: Iterable[Speaker], absolute: Absolute) -> dict:
    return {"@context": SCHEMA, **podcast_episode(episode, absolute, speakers)}


def speaker_page(speaker: Speaker, absolute: Absolute) -> dict:
    return {
        "@context": SCHEMA,
        "@type": "ProfilePage",
        "url": absolute(speaker.get_absolute_url()),
        "name": f"{speaker.name}: public record",
        "mainEntity": person(speaker, absolute),
        "publisher": organisation(absolute),
    }


def podcast_page(podcast: Podcast, absolute: Absolute) -> dict:
    return {"@context": SCHEMA, **podcast_series(podcast, absolute)}


def website(search_path: str, absolute: Absolute) -> dict:
    """The site, with a SearchAction on the claims browser (`search_path`, e.g. /claims/)."""
    return {
        "@context": SCHEMA,
        "@type": "WebSite",
        "name": SITE_NAME,
        "url": absolute("/"),
        "potentialAction": {
            "@type": "SearchAction",
            "target": {
                "@type": "EntryPoint",
                "urlTemplate": absolute(search_path) + "?q={search_term_string}",
            },
            "query-input": "required name=search_term_string",
        },
    }


def dataset(description: str, absolute: Absolute, distribution: list[dict]) -> dict:
    """The ledger as a Dataset. No licence is claimed: the project has not chosen one."""
    return {
        "@context": SCHEMA,
        "@type": "Dataset",
        "name": SITE_NAME,
        "description": description,
        "url": absolute("/"),
        "creator": organisation(absolute),
        "isAccessibleForFree": True,
        "keywords": ["podcasts", "quotations", "claims", "predictions", "citations"],
        "distribution": distribution,
    }
