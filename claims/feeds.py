"""Atom feeds of public claims (django.contrib.syndication).

Each feed lists what its page lists, newest episodes first, each entry's id the
claim's permalink. Conditional GET needs nothing here: every public URL, feeds
included, is validated against the ledger's version (ledger/caching.py).
"""

from dataclasses import dataclass

from django.contrib.syndication.views import Feed
from django.db.models import QuerySet
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed
from django.utils.text import Truncator

from claims.browse import ClaimSearch
from claims.cards import day_in_words, escaped
from claims.corrections import public_corrections
from claims.models import Claim, ClaimStatus, RevisionKind
from claims.page_meta import CANONICAL_PARAMETERS, canonical_query
from episodes.models import Episode, Podcast, Speaker

ENTRIES = 50
SITE = "Evidence Ledger"


@dataclass
class Scope:
    """What one feed covers: its title, the page it follows, and its entries."""

    title: str
    subtitle: str
    link: str
    feed_url: str
    items: list


class ClaimFeed(Feed):
    feed_type = Atom1Feed

    def claims(self, request: HttpRequest, **kwargs) -> tuple[Scope, QuerySet[Claim]]:
        raise NotImplementedError

    def get_object(self, request, **kwargs):
        scope, claims = self.claims(request, **kwargs)
        scope.items = list(claims.for_listing()[:ENTRIES])
        for claim in scope.items:
            # Atom wants absolute addresses, and item_author_link() is not given the request.
            if claim.is_identified:
                claim.author_url = request.build_absolute_uri(claim.speaker.get_absolute_url())
            claim.episode_url = request.build_absolute_uri(claim.episode.get_absolute_url())
        return scope

    def title(self, scope):
        return scope.title

    def subtitle(self, scope):
        return scope.subtitle

    def link(self, scope):
        return scope.link

    def feed_url(self, scope):
        return scope.feed_url

    def items(self, scope):
        return scope.items

    def item_title(self, claim):
        excerpt = Truncator(claim.excerpt).words(12)
        return f"{claim.attribution_words}: “{excerpt}” ({claim.label} / {claim.type})"

    def item_description(self, claim):
        """The excerpt, who said it where, and the claim's corrections. Written here, not
        in a template: a template rendered with the request for each of fifty entries,
        its context processors included, was a third of a feed's time."""
        episode = claim.episode
        moment = f" at {escaped(claim.moment)}" if claim.moment else ""
        corrections = "".join(
            f"<p><strong>Correction</strong>, {day_in_words(correction.at)}: "
            f"{escaped(correction.note)}</p>"
            for correction in claim.public_corrections
        )
        return (
            f"<blockquote><p>“{escaped(claim.excerpt)}”</p></blockquote>\n"
            f"<p>{escaped(claim.attribution_words)}, in "
            f'“<a href="{escaped(claim.episode_url)}">{escaped(episode.title)}</a>” '
            f"({escaped(episode.podcast.name)}, {day_in_words(episode.air_date)}){moment}. "
            f"Claim {escaped(claim.label)}, {escaped(claim.type)}.</p>\n{corrections}\n"
        )

    def item_author_name(self, claim):
        return claim.attribution_words

    def item_author_link(self, claim):
        return getattr(claim, "author_url", None)

    def item_pubdate(self, claim):
        return claim.created_at

    def item_updateddate(self, claim):
        return claim.updated_at

    def item_categories(self, claim):
        return (claim.type,)


def page_scope(request: HttpRequest, title: str, subtitle: str, link: str) -> Scope:
    return Scope(f"{SITE}: {title}", subtitle, link, request.get_full_path(), [])


class SpeakerFeed(ClaimFeed):
    def claims(self, request, slug):
        speaker = get_object_or_404(Speaker, slug=slug)
        scope = page_scope(
            request,
            f"claims by {speaker.name}",
            f"New published claims by {speaker.name}, newest episodes first.",
            speaker.get_absolute_url(),
        )
        return scope, Claim.objects.published().filter(speaker=speaker).newest_first_kept()

    def get_object(self, request, **kwargs):
        scope = super().get_object(request, **kwargs)
        if not scope.items:
            raise Http404("Only people in the public record have a feed.")
        return scope


class PodcastFeed(ClaimFeed):
    def claims(self, request, slug):
        podcast = get_object_or_404(Podcast.objects.public(), slug=slug)
        scope = page_scope(
            request,
            f"claims from {podcast.name}",
            f"New published claims from episodes of {podcast.name}.",
            podcast.get_absolute_url(),
        )
        return scope, Claim.objects.published().filter(episode__podcast=podcast).newest_first()


class EpisodeFeed(ClaimFeed):
    def claims(self, request, podcast_slug, slug):
        episode = get_object_or_404(
            Episode.objects.published().select_related("podcast"),
            podcast__slug=podcast_slug,
            slug=slug,
        )
        scope = page_scope(
            request,
            f"claims from “{episode.title}”",
            f"Published claims from “{episode.title}” ({episode.podcast.name}), in ledger order.",
            episode.get_absolute_url(),
        )
        return scope, episode.claims.published().order_by("number")


class ClaimBrowserFeed(ClaimFeed):
    """Any view of the claims browser as a feed: /claims/feed/?q=…&type=… lists the same
    claims in the same order as /claims/?q=…&type=… (one ClaimSearch answers both);
    with no filter, the newest claims."""

    def claims(self, request):
        found = ClaimSearch(request.GET)
        query = canonical_query(found.params, BROWSER_PARAMETERS)
        query = f"?{query}" if query else ""
        scope = Scope(
            f"{SITE}: {browser_title(found)}",
            "Published claims, as the claims browser shows them.",
            reverse("claims:claim_list") + query,
            reverse("claims:claims_feed") + query,
            [],
        )
        return scope, found.ordered(shown=ENTRIES)


# The browser's parameters but its page: a feed follows the newest claims of a view.
BROWSER_PARAMETERS = tuple(
    name for name in CANONICAL_PARAMETERS["claims:claim_list"] if name != "page"
)


def browser_title(found: ClaimSearch) -> str:
    """ "claims matching “reward” (prediction, belief) by Ada Example": a view in words."""
    chosen = found.chosen
    title = "claims"
    if found.query.text:
        title += f" matching “{found.query.text}”"
    if chosen.get("type"):
        title += f" ({', '.join(chosen['type'])})"
    if chosen.get("speaker"):
        title += f" by {chosen['speaker'].name}"
    if chosen.get("episode"):
        title += f" from “{chosen['episode'].title}”"
    elif chosen.get("podcast"):
        title += f" from {chosen['podcast'].name}"
    return title if title != "claims" else "newest claims"


class CorrectionsFeed(Feed):
    """Corrections and retractions of public claims, newest first: one entry per change.

    A retracted claim's words are not repeated here, only the reason.
    """

    feed_type = Atom1Feed
    title = f"{SITE}: corrections and retractions"
    subtitle = "Every public correction and retraction of a published claim, newest first."

    def link(self):
        return reverse("claims:corrections")

    def items(self):
        return list(public_corrections()[:ENTRIES])

    def item_title(self, revision):
        claim = revision.claim
        what = "Retraction of" if revision.kind == RevisionKind.RETRACTED else "Correction to"
        return f"{what} claim {claim.label} of “{claim.episode.title}”"

    def item_link(self, revision):
        return revision.claim.get_absolute_url()

    def item_guid(self, revision):
        return f"{self.item_link(revision)}#revision-{revision.pk}"

    def item_guid_is_permalink(self, revision):
        return False

    def item_updateddate(self, revision):
        return revision.created_at

    def item_pubdate(self, revision):
        return revision.created_at

    def item_description(self, revision):
        """What changed and why; the claim's words while it stands. Written in Python for
        the reason ClaimFeed.item_description is."""
        claim = revision.claim
        episode = f"“{escaped(claim.episode.title)}”"
        retracted = claim.status == ClaimStatus.RETRACTED
        if revision.kind == RevisionKind.RETRACTED:
            change = f"<p><strong>Retracted</strong>: {escaped(revision.note)}</p>\n"
        else:
            change = f"<p><strong>Correction</strong>: {escaped(revision.note)}</p>\n"
            if not retracted:
                change += (
                    f"<blockquote><p>“{escaped(claim.excerpt)}”</p></blockquote>\n"
                    f"<p>{escaped(claim.attribution_words)}, in {episode} "
                    f"({escaped(claim.episode.podcast.name)}).</p>"
                )
        if retracted:
            return (
                f"{change}\n<p>Claim {escaped(claim.label)} of {episode} is retracted: its "
                "permalink keeps its number and gives the reason.</p>\n"
            )
        return f"{change}\n\n"
