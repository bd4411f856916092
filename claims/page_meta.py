"""What each public page says about itself in its <head>.

The meta description, canonical URL, Open Graph and Twitter card, Atom feeds to
discover, citation tags and JSON-LD, worked out from the page's template context
(the records its view already loaded: no query of its own). Pages are told apart
by their URL name, the same names their views are reversed by.
"""

from collections.abc import Callable
from dataclasses import dataclass, field

from django.http import HttpRequest, QueryDict
from django.urls import reverse
from django.utils.text import Truncator

from claims import citations
from claims import structured_data as ld
from claims.models import Claim

DEFAULT_DESCRIPTION = (
    "A public, citable ledger of what people actually said on podcasts: "
    "exact excerpts, typed and attributed, with receipts."
)
DESCRIPTION_WORDS = 30

# The query parameters that change what a page shows, per URL name. Anything else
# (utm_*, fbclid, typos) is dropped from its canonical URL.
CANONICAL_PARAMETERS = {
    "claims:claim_list": (
        "q",
        "type",
        "speaker",
        "attribution",
        "podcast",
        "episode",
        "topic",
        "aired_from",
        "aired_to",
        "order",
        "page",
    ),
    "claims:topic_detail": ("page",),
    "claims:reference_list": ("kind", "role", "page"),
    "claims:reference_detail": ("page",),
    "episodes:episode_list": ("podcast", "page"),
    "episodes:speaker_list": ("page",),
    "episodes:speaker_detail": ("page",),
    "episodes:podcast_detail": ("page",),
    "claims:corrections": ("page",),
}

# Pages whose head needs no record: (title, description).
PLAIN_PAGES = {
    "episodes:episode_list": (
        "All source episodes",
        "Every published podcast episode in the ledger, newest first, with its claims.",
    ),
    "episodes:speaker_list": (
        "Speakers",
        "The identified people in the public record, each with the claims they made.",
    ),
    "episodes:podcast_list": ("Podcasts", "The podcasts whose episodes the ledger holds."),
    "claims:topic_list": ("Topics", "What the claims in the ledger are about, topic by topic."),
    "claims:reference_list": (
        "Named references",
        "The books, papers, tools and sites people named on podcasts, with who named each and how.",
    ),
    "claims:claim_list": (
        "Search evidence",
        "Search and filter every published claim: exact excerpts with their speakers and sources.",
    ),
    "method": ("Method", "How the ledger's editors choose, type and attribute claims."),
    "how_it_works": (
        "How the evidence works",
        "How every claim in the ledger keeps its receipt: exact words, speaker and source.",
    ),
    "about": (
        "About the Evidence Ledger",
        "Who keeps the ledger, the licence of its data, and how to reach its editors.",
    ),
    "claims:corrections": (
        "Corrections and retractions",
        "Every correction and retraction of a published claim, newest first, with the "
        "editors' note.",
    ),
}


@dataclass
class Feed:
    title: str
    url: str


@dataclass
class PageMeta:
    title: str = ld.SITE_NAME
    description: str = DEFAULT_DESCRIPTION
    canonical: str = ""
    og_type: str = "website"
    json_ld: list[dict] = field(default_factory=list)
    feeds: list[Feed] = field(default_factory=list)
    # Highwire Press tags, as (name, content): what Zotero and Google Scholar read.
    citation: list[tuple[str, str]] = field(default_factory=list)
    oembed: str = ""


def canonical_query(query: QueryDict, keep: tuple[str, ...]) -> str:
    """The parameters that matter, in a stable order: names sorted, repeated values sorted,
    empty values and the first page dropped."""
    pairs = []
    for name in sorted(keep):
        values = sorted({value for value in query.getlist(name) if value.strip()})
        if name == "page" and values in (["1"], []):
            continue
        pairs.extend((name, value) for value in values)
    canonical = QueryDict(mutable=True)
    for name, value in pairs:
        canonical.appendlist(name, value)
    return canonical.urlencode()


def canonical_url(request: HttpRequest, query: QueryDict | None = None) -> str:
    """This page's address without unknown parameters; `query` defaults to the request's."""
    match = request.resolver_match
    keep = CANONICAL_PARAMETERS.get(match.view_name, ()) if match else ()
    query = canonical_query(request.GET if query is None else query, keep)
    return request.build_absolute_uri(request.path + (f"?{query}" if query else ""))


def describe(context) -> PageMeta:
    """The head of the page being rendered with `context` (which holds the request)."""
    request = context.get("request")
    if request is None:  # the 500 page is rendered without one
        return PageMeta()
    match = request.resolver_match
    name = match.view_name if match else ""
    # The claims browser has dropped the values it could not use (ClaimSearch.params).
    found = context.get("search") if name == "claims:claim_list" else None
    meta = PageMeta(canonical=canonical_url(request, found.params if found else None))
    meta.feeds = [Feed(f"{ld.SITE_NAME}: newest claims", reverse("claims:claims_feed"))]
    fill = DESCRIBERS.get(name)
    # A page that failed (a 404 from a record's URL) lacks its record: it gets the defaults.
    if fill is not None and fill.needs in context:
        fill(meta, context, request.build_absolute_uri)
    elif name in PLAIN_PAGES:
        meta.title, meta.description = PLAIN_PAGES[name]
    return meta


def describer(needs: str) -> Callable:
    """Registers a function that fills in a page's PageMeta from its context's `needs`."""

    def register(function):
        function.needs = needs
        return function

    return register


@describer(needs="recent_episodes")
def home(meta: PageMeta, context, absolute: ld.Absolute) -> None:
    feed = {"@type": "DataDownload", "encodingFormat": "application/atom+xml"}
    meta.json_ld = [
        ld.website(reverse("claims:claim_list"), absolute),
        ld.dataset(
            DEFAULT_DESCRIPTION,
            absolute,
            distribution=[{**feed, "contentUrl": absolute(reverse("claims:claims_feed"))}],
        ),
    ]
    meta.feeds.append(corrections_feed())


@describer(needs="page")
def correction_log(meta: PageMeta, context, absolute: ld.Absolute) -> None:
    meta.title, meta.description = PLAIN_PAGES["claims:corrections"]
    meta.feeds.insert(0, corrections_feed())


def corrections_feed() -> Feed:
    return Feed(f"{ld.SITE_NAME}: corrections and retractions", reverse("claims:corrections_feed"))


@describer(needs="search")
def claim_browser(meta: PageMeta, context, absolute: ld.Absolute) -> None:
    meta.title, meta.description = PLAIN_PAGES["claims:claim_list"]
    query = canonical_query(context["search"].params, CANONICAL_PARAMETERS["claims:claim_list"])
    query = QueryDict(query, mutable=True)
    query.pop("page", None)
    if query:
        url = f"{reverse('claims:claims_feed')}?{query.urlencode()}"
        meta.feeds.insert(0, Feed(f"{ld.SITE_NAME}: claims in this view", url))


@describer(needs="claim")
def claim_page(meta: PageMeta, context, absolute: ld.Absolute) -> None:
    claim: Claim = context["claim"]
    episode = claim.episode
    meta.og_type = "article"
    meta.title = f"Claim {claim.label} of “{episode.title}”"
    if claim.is_retracted:
        reason = Truncator(claim.retraction_reason).words(DESCRIPTION_WORDS)
        meta.description = f"Claim {claim.label} of “{episode.title}” was retracted: {reason}"
    else:
        excerpt = Truncator(claim.excerpt).words(DESCRIPTION_WORDS)
        meta.description = f"{claim.attribution_words} on {episode.podcast.name}: “{excerpt}”"
        meta.citation = highwire_tags(claim, absolute)
    meta.json_ld = [
        ld.quotation(claim, absolute, citation=apa_text(context.get("citations"))),
        ld.breadcrumbs(ld.claim_trail(claim), absolute),
    ]
    meta.feeds.insert(0, episode_feed(episode))
    permalink = QueryDict(mutable=True)
    permalink.update({"url": absolute(claim.get_absolute_url()), "format": "json"})
    meta.oembed = absolute(f"{reverse('claims:oembed')}?{permalink.urlencode()}")


def episode_feed(episode) -> Feed:
    url = reverse(
        "claims:episode_feed", kwargs={"podcast_slug": episode.podcast.slug, "slug": episode.slug}
    )
    return Feed(f"{ld.SITE_NAME}: claims from “{episode.title}”", url)


def podcast_feed(podcast) -> Feed:
    url = reverse("claims:podcast_feed", kwargs={"slug": podcast.slug})
    return Feed(f"{ld.SITE_NAME}: claims from {podcast.name}", url)


def apa_text(formatted) -> str:
    """The APA citation of the cite box, as plain text; "" when there is none."""
    return citations.plain(dict(formatted)["APA"]) if formatted else ""


def highwire_tags(claim: Claim, absolute: ld.Absolute) -> list[tuple[str, str]]:
    episode = claim.episode
    tags = [("citation_title", f"Claim {claim.label} of “{episode.title}”")]
    if claim.is_identified:
        tags.append(("citation_author", claim.speaker.name))
    return [
        *tags,
        ("citation_publication_date", episode.air_date.strftime("%Y/%m/%d")),
        ("citation_publisher", episode.podcast.name),
        ("citation_public_url", absolute(claim.get_absolute_url())),
        ("citation_abstract", claim.excerpt),
    ]


@describer(needs="episode")
def episode_page(meta: PageMeta, context, absolute: ld.Absolute) -> None:
    episode = context["episode"]
    count = len(context["claims"])
    meta.title = f"{episode.title} ({episode.podcast.name})"
    meta.description = (
        f"{count} published claim{'s' if count != 1 else ''} from “{episode.title}” "
        f"({episode.podcast.name}), each an exact excerpt with its speaker."
    )
    meta.json_ld = [ld.episode_page(episode, context["speakers"], absolute)]
    meta.feeds[:0] = [episode_feed(episode), podcast_feed(episode.podcast)]


@describer(needs="marked_count")
def transcript_page(meta: PageMeta, context, absolute: ld.Absolute) -> None:
    episode = context["episode"]
    meta.title = f"Transcript of {episode.title} ({episode.podcast.name})"
    meta.description = (
        f"The whole transcript of “{episode.title}” ({episode.podcast.name}), "
        "with the excerpts of its published claims marked."
    )
    meta.feeds.insert(0, episode_feed(episode))


@describer(needs="speaker")
def speaker_page(meta: PageMeta, context, absolute: ld.Absolute) -> None:
    speaker = context["speaker"]
    count = context["page"].paginator.count
    meta.og_type = "profile"
    meta.title = speaker.name
    meta.description = (
        f"What {speaker.name} said on podcasts: {count} published claim"
        f"{'s' if count != 1 else ''}, each an exact excerpt with its source."
    )
    meta.json_ld = [ld.speaker_page(speaker, absolute)]
    url = reverse("claims:speaker_feed", kwargs={"slug": speaker.slug})
    meta.feeds.insert(0, Feed(f"{ld.SITE_NAME}: claims by {speaker.name}", url))


@describer(needs="podcast")
def podcast_page(meta: PageMeta, context, absolute: ld.Absolute) -> None:
    podcast = context["podcast"]
    meta.title = podcast.name
    meta.description = Truncator(
        podcast.description or f"The published episodes of {podcast.name} in the ledger."
    ).words(DESCRIPTION_WORDS)
    meta.json_ld = [ld.podcast_page(podcast, absolute)]
    meta.feeds.insert(0, podcast_feed(podcast))


@describer(needs="topic")
def topic_page(meta: PageMeta, context, absolute: ld.Absolute) -> None:
    topic = context["topic"]
    count = context["page"].paginator.count
    meta.title = topic.name
    meta.description = Truncator(
        topic.description
        or f"{count} published claim{'s' if count != 1 else ''} on {topic.name}, each an exact "
        "excerpt with its source."
    ).words(DESCRIPTION_WORDS)


@describer(needs="reference")
def reference_page(meta: PageMeta, context, absolute: ld.Absolute) -> None:
    reference = context["reference"]
    meta.title = reference.title
    meta.description = Truncator(
        f"Who named {reference} on podcasts, and how: the exact words of each claim."
    ).words(DESCRIPTION_WORDS)


DESCRIBERS = {
    "home": home,
    "claims:claim_list": claim_browser,
    "claims:corrections": correction_log,
    "claims:claim_detail": claim_page,
    "episodes:episode_detail": episode_page,
    "episodes:episode_transcript": transcript_page,
    "episodes:speaker_detail": speaker_page,
    "episodes:podcast_detail": podcast_page,
    "claims:topic_detail": topic_page,
    "claims:reference_detail": reference_page,
}
