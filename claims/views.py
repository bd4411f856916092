from django.http import Http404
from django.shortcuts import get_object_or_404, render

from claims import citations, gaps
from claims.appearances import episode_cast, speaker_episodes_by_role
from claims.browse import ClaimSearch
from claims.context import claim_passage, with_transcript_window
from claims.filters import Ordering
from claims.links import MOVE_ROW, as_moves, attach_public_links, latest_moves, moves_of
from claims.models import Claim, ClaimType, Verification
from claims.pagination import CLAIMS_PER_PAGE, CappedPaginator, Exactly, page_of
from claims.prediction_pages import track_record
from claims.public_record import episodes_with_counts, podcasts_with_counts
from claims.querysets import ordered_mix
from claims.speaker_index import NameQuery, PublicRecordSpeakers, label_episodes_and_roles
from claims.subjects import with_subjects
from episodes import podcast_choices
from episodes.models import Episode, Podcast, Speaker


def claim_list(request):
    found = ClaimSearch(request.GET)
    context = {"search": found, "page": found.page(), "orderings": Ordering.CHOICES}
    return render(request, "claims/claim_list.html", context)


def claim_detail(request, podcast_slug, episode_slug, number):
    # Retracted claims keep their permalink, which then shows the retraction.
    claims = (
        Claim.objects.on_record().for_listing().at_permalink(podcast_slug, episode_slug, number)
    )
    try:
        claim = with_transcript_window(claims).get()
    except Claim.DoesNotExist:
        return gaps.unpublished_record(request, podcast_slug, episode_slug, number)
    context = {"claim": claim}
    if not claim.is_retracted:
        attach_public_links([claim])
        url = request.build_absolute_uri(claim.get_absolute_url())
        context["citations"] = citations.formatted(citations.reference(claim, url))
        with_subjects([claim])
        context["topics"] = claim.subjects.topics
        context["references"] = claim.subjects.references
        context["passage"] = claim_passage(claim)
    return render(request, "claims/claim_detail.html", context)


# The pages of podcasts, episodes and speakers: each shows their public claims.

EPISODES_PER_PAGE = 25
SPEAKERS_PER_PAGE = 50
PODCASTS_PER_PAGE = 50


def counted_page(request, episodes, count):
    """A page of these episodes, with their counts, paged by `count`: their number as the
    podcasts keep it (claims.counters), so no page counts the ledger's episodes."""
    paginator = CappedPaginator(episodes, EPISODES_PER_PAGE, count=Exactly(count))
    page = paginator.get_page(request.GET.get("page"))
    page.object_list = episodes_with_counts(page.object_list)
    return page


def episode_list(request):
    # The filter offers the podcasts with the most episodes, by their kept counts, whose
    # sum pages the list: at ten million claims the ledger holds 2,500 podcasts.
    podcast_slug = request.GET.get("podcast", "")
    offer = podcast_choices.offered("public_episode_count", podcast_slug)
    episodes = Episode.objects.published().newest_first()
    podcast, count = offer.chosen, offer.total
    if podcast_slug:
        episodes = episodes.filter(podcast=podcast["pk"]) if podcast else episodes.none()
        count = podcast["size"] if podcast else 0
    return render(
        request,
        "episodes/episode_list.html",
        {
            "page": counted_page(request, episodes, count),
            "podcast_choices": [(p["slug"], f"{p['name']} ({p['size']})") for p in offer.podcasts],
            "offer": offer,
            "podcast": podcast,
            "unknown_podcast": podcast_slug if podcast_slug and not podcast else "",
        },
    )


def episode_detail(request, podcast_slug, slug):
    episode = get_object_or_404(
        Episode.objects.published().with_transcript_flag().select_related("podcast"),
        podcast__slug=podcast_slug,
        slug=slug,
    )
    # Through the relation, so each claim's card reuses `episode` instead of refetching it.
    claims = episode.claims.published()
    ledger = list(claims.for_cards_of_their_episode().order_by("number"))
    # One instance per person, shared by their claims, so each speaker's link is
    # reversed once per page, not once per card (see reverse_once).
    speakers = {c.speaker_id: c.speaker for c in ledger if c.is_identified}
    for claim in ledger:
        if claim.is_identified:
            claim.speaker = speakers[claim.speaker_id]
    return render(
        request,
        "episodes/episode_detail.html",
        {
            "episode": episode,
            "claims": ledger,
            "speakers": sorted(speakers.values(), key=str),
            "cast": episode_cast(episode, speakers),
            "mix": claims.type_mix(),
            "gaps": gaps.sentence(gaps.missing_numbers(claim.number for claim in ledger)),
            # Said once for the episode rather than under every claim. Each claim is checked
            # again whenever the transcript is saved, so theirs is the episode's state.
            "no_transcript": bool(ledger)
            and all(c.verification == Verification.NO_TRANSCRIPT for c in ledger),
        },
    )


def speaker_list(request):
    query = NameQuery.parse(request.GET.get("q", ""))
    # A search with nothing to look for finds no one (and the page says why).
    speakers = [] if query.text and not query.words else PublicRecordSpeakers(query.words)
    page = page_of(request, speakers, SPEAKERS_PER_PAGE)
    page.object_list = list(page.object_list)
    label_episodes_and_roles(page.object_list)
    return render(request, "episodes/speaker_list.html", {"page": page, "query": query})


def speaker_claims_page(request, speaker):
    """The requested page of the speaker's public claims, newest episodes first.

    Paged by their kept count (claims.counters): counting a prolific speaker's claims
    on every visit cost 120–150 ms at a million claims. The page has no filters, so
    the kept count is always the count of what it lists.
    """
    claims = Claim.objects.published().filter(speaker=speaker).for_cards().newest_first_kept()
    paginator = CappedPaginator(claims, CLAIMS_PER_PAGE, count=Exactly(speaker.public_claim_count))
    return paginator.get_page(request.GET.get("page"))


# A speaker's page shows their latest few moves; their page of moves, all of them.
MOVES_SHOWN = 5
MOVES_PER_PAGE = 20


def speaker_detail(request, slug):
    speaker = get_object_or_404(Speaker, slug=slug)
    page = speaker_claims_page(request, speaker)
    appearances = speaker_episodes_by_role(speaker)
    if not page.paginator.count and not appearances:
        raise Http404("Only people in the public record have a page.")
    # Kept beside the speaker too; a guest who said nothing on the record has none.
    mix = ordered_mix(speaker.public_claim_mix)
    # One more query, for speakers who made a public prediction only.
    predicted = any(claim_type == ClaimType.PREDICTION for claim_type, _ in mix)

    return render(
        request,
        "episodes/speaker_detail.html",
        {
            "speaker": speaker,
            "page": page,
            "mix": mix,
            "appearances": appearances,
            "track_record": track_record(speaker) if predicted else None,
            # The latest few, still in time order: a prolific speaker's 500 moves took
            # 300 ms to show. Their page of moves lists them all.
            "moved_positions": latest_moves(speaker, MOVES_SHOWN),
        },
    )


def speaker_moves(request, slug):
    """Every move of the speaker's positions (links.moves_of), a page at a time."""
    speaker = get_object_or_404(Speaker, slug=slug)
    moves = moves_of(speaker).values_list(*MOVE_ROW)
    # Counted as the speaker keeps them: counting meant checking each of 500 is public.
    paginator = CappedPaginator(moves, MOVES_PER_PAGE, count=Exactly(speaker.public_move_count))
    page = paginator.get_page(request.GET.get("page"))
    if not page.paginator.count:
        raise Http404("No moved positions of this speaker are on the public record.")
    page.object_list = as_moves(page.object_list)
    return render(request, "episodes/speaker_moves.html", {"speaker": speaker, "page": page})


def podcast_list(request):
    # A page at a time: ten million claims came from 2,500 podcasts, 114 ms to list at once.
    page = page_of(request, podcasts_with_counts(), PODCASTS_PER_PAGE)
    return render(request, "episodes/podcast_list.html", {"page": page})


def podcast_detail(request, slug):
    podcast = get_object_or_404(Podcast, slug=slug)
    episodes = podcast.episodes.published().newest_first()
    page = counted_page(request, episodes, podcast.public_episode_count)
    if not page.paginator.count:
        raise Http404("This podcast has no published episodes.")
    return render(request, "episodes/podcast_detail.html", {"podcast": podcast, "page": page})
