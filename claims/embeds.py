"""Embedding a claim in other sites' pages: a compact card for iframes, and oEmbed.

The card is the one page any site may frame (its own `frame-ancestors *`); every
other page keeps the site-wide `frame-ancestors 'none'` and X-Frame-Options DENY.
oEmbed (https://oembed.com) turns a pasted permalink into that iframe, so a blog
or CMS can embed a claim from its URL alone.
"""

from urllib.parse import urlsplit

from csp.decorators import csp_replace
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import Resolver404, resolve, reverse
from django.views.decorators.clickjacking import xframe_options_exempt

from claims.models import Claim

# The iframe's size unless the consumer asks for less (oEmbed's maxwidth and maxheight).
EMBED_WIDTH = 560
EMBED_HEIGHT = 300
PROVIDER = "Evidence Ledger"


def on_record(podcast_slug: str, episode_slug: str, number: int) -> Claim:
    """A claim with a public permalink: published, or retracted (then shown as such)."""
    return get_object_or_404(
        Claim.objects.on_record().for_listing().at_permalink(podcast_slug, episode_slug, number)
    )


@xframe_options_exempt
@csp_replace({"frame-ancestors": ["*"]})
def claim_embed(request, podcast_slug, episode_slug, number):
    claim = on_record(podcast_slug, episode_slug, number)
    return render(request, "claims/claim_embed.html", {"claim": claim})


def embed_url(claim: Claim) -> str:
    episode = claim.episode
    return reverse(
        "claims:claim_embed",
        kwargs={
            "podcast_slug": episode.podcast.slug,
            "episode_slug": episode.slug,
            "number": claim.number,
        },
    )


def size(request, name: str, largest: int) -> int:
    """`largest`, or the consumer's smaller maxwidth/maxheight."""
    try:
        asked = int(request.GET.get(name, largest))
    except ValueError:
        return largest
    return max(1, min(asked, largest))


def permalink_claim(request, url: str) -> Claim:
    """The claim whose permalink `url` is, on this site; Http404 for anything else."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or parts.netloc != request.get_host():
        raise Http404("Only this site's claim permalinks can be embedded.")
    try:
        match = resolve(parts.path)
    except Resolver404:
        raise Http404("No such page.") from None
    if match.view_name != "claims:claim_detail":
        raise Http404("Only claim permalinks can be embedded.")
    return on_record(**match.kwargs)


def oembed(request):
    if request.GET.get("format", "json") != "json":
        return HttpResponse("Only the JSON format is offered.", status=501)
    claim = permalink_claim(request, request.GET.get("url", ""))
    width = size(request, "maxwidth", EMBED_WIDTH)
    height = size(request, "maxheight", EMBED_HEIGHT)
    title = f"Claim {claim.label} of “{claim.episode.title}”"
    data = {
        "version": "1.0",
        "type": "rich",
        "provider_name": PROVIDER,
        "provider_url": request.build_absolute_uri("/"),
        "title": f"{title} (retracted)" if claim.is_retracted else title,
        "width": width,
        "height": height,
        "html": render(
            request,
            "claims/_embed_iframe.html",
            {
                "src": request.build_absolute_uri(embed_url(claim)),
                "title": f"{title}, {PROVIDER}",
                "width": width,
                "height": height,
            },
        )
        .content.decode()
        .strip(),
    }
    if claim.is_identified and not claim.is_retracted:
        data["author_name"] = claim.speaker.name
        data["author_url"] = request.build_absolute_uri(claim.speaker.get_absolute_url())
    return JsonResponse(data, json_dumps_params={"ensure_ascii": False})
