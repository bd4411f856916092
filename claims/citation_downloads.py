"""Citation files: one claim, a speaker's page of claims, or a page of the claims browser.

Each file holds what its page shows: the permalink's claim, or the claims of the
page the reader is on (the same ?page= and filters), so a download costs what
the page costs.
"""

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404

from claims import citations
from claims.browse import ClaimSearch
from claims.models import Claim
from claims.views import speaker_claims_page
from episodes.models import Speaker

# extension: (content type, writer of a list of CSL-JSON items)
FORMATS = {
    "bib": ("application/x-bibtex; charset=utf-8", citations.bibtex),
    "ris": ("application/x-research-info-systems; charset=utf-8", citations.ris),
    "json": ("application/vnd.citationstyles.csl+json; charset=utf-8", citations.csl_json),
}


def download(request, claims, filename, extension):
    if extension not in FORMATS:
        raise Http404("Citations come as .bib, .ris or .json.")
    content_type, write = FORMATS[extension]
    references = [
        citations.reference(claim, request.build_absolute_uri(claim.get_absolute_url()))
        for claim in claims
    ]
    response = HttpResponse(write(references), content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}.{extension}"'
    return response


def claim_citation(request, podcast_slug, episode_slug, number, extension):
    claim = get_object_or_404(
        Claim.objects.published().for_listing().at_permalink(podcast_slug, episode_slug, number)
    )
    return download(request, [claim], f"{podcast_slug}-{episode_slug}-{number}", extension)


def speaker_citations(request, slug, extension):
    speaker = get_object_or_404(Speaker, slug=slug)
    page = speaker_claims_page(request, speaker)
    if not page.object_list:
        raise Http404("Only people in the public record have citations.")
    return download(request, page.object_list, f"{slug}-claims", extension)


def browser_citations(request, extension):
    # The very page the claims browser shows for these parameters.
    page = ClaimSearch(request.GET).page(request.GET.get("page"))
    return download(request, page.object_list, "evidence-ledger-claims", extension)
