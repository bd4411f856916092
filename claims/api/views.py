"""The API's endpoints: each reads through the public gates, like the page it mirrors."""

from urllib.parse import urlencode

from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response

from claims import search
from claims.api import serializers as shapes
from claims.api.errors import InvalidParameters
from claims.api.pagination import ClaimCursorPagination, CountedPagePagination
from claims.api.params import (
    CLAIM_FILTER_PARAMETERS,
    ClaimPageParams,
    EpisodeParams,
    SpeakerParams,
    claim_search,
    validated,
)
from claims.appearances import episode_cast
from claims.links import attach_public_links
from claims.models import Claim
from claims.public_record import (
    episodes_with_counts,
    podcasts_with_counts,
    speakers_with_claim_counts,
    totals,
)
from claims.querysets import ordered_mix
from claims.subjects import with_subjects
from episodes.models import Episode, Podcast, Speaker

ERRORS = {400: shapes.ErrorSerializer, 404: shapes.ErrorSerializer, 429: shapes.ErrorSerializer}


class ClaimList(GenericAPIView):
    serializer_class = shapes.ClaimSerializer
    pagination_class = ClaimCursorPagination

    @extend_schema(
        summary="Published claims, filtered and searched as the claims browser does",
        parameters=[*CLAIM_FILTER_PARAMETERS, ClaimPageParams],
        responses={200: shapes.ClaimSerializer(many=True), **ERRORS},
    )
    def get(self, request):
        found = claim_search(request.query_params)
        options = validated(ClaimPageParams, request.query_params)
        page_size = options["page_size"]
        page = self.paginator.paginate(found, page_size, options.get("cursor"))
        if options["highlight"]:
            search.highlight(page, found.query)
        attach_public_links(page)
        with_subjects(page)
        data = self.get_serializer(page, many=True).data
        return self.paginator.get_paginated_response(data, request, found)


class ClaimDetail(GenericAPIView):
    """A claim by its id; a retracted claim shows its retraction instead of its words."""

    serializer_class = shapes.ClaimSerializer

    @extend_schema(summary="A claim by id", responses={200: shapes.ClaimSerializer, **ERRORS})
    def get(self, request, pk):
        claim = get_object_or_404(Claim.objects.on_record().for_listing(), pk=pk)
        attach_public_links([claim])
        with_subjects([claim])
        return Response(self.get_serializer(claim).data)


class ClaimAtNumber(GenericAPIView):
    """A claim by its permalink's address: podcast, episode and number in the ledger."""

    serializer_class = shapes.ClaimSerializer

    @extend_schema(
        summary="A claim by episode and number", responses={200: shapes.ClaimSerializer, **ERRORS}
    )
    def get(self, request, podcast_slug, episode_slug, number):
        claim = get_object_or_404(
            Claim.objects.on_record().for_listing().at_permalink(podcast_slug, episode_slug, number)
        )
        attach_public_links([claim])
        with_subjects([claim])
        return Response(self.get_serializer(claim).data)


class EpisodeList(GenericAPIView):
    serializer_class = shapes.EpisodeSerializer
    pagination_class = CountedPagePagination

    @extend_schema(
        summary="Published episodes, newest first",
        parameters=[EpisodeParams],
        responses={200: shapes.EpisodeSerializer(many=True), **ERRORS},
    )
    def get(self, request):
        options = validated(EpisodeParams, request.query_params)
        episodes = Episode.objects.published()
        if options.get("q", "").split():
            episodes = episodes.titled_like(options["q"].split())
        if "podcast" in options:
            podcast = Podcast.objects.public().filter(slug=options["podcast"]).first()
            if podcast is None:
                raise InvalidParameters(
                    {"podcast": ["No podcast in the public record has this slug."]}
                )
            episodes = episodes.filter(podcast=podcast)
        if "aired_from" in options:
            episodes = episodes.filter(air_date__gte=options["aired_from"])
        if "aired_to" in options:
            episodes = episodes.filter(air_date__lte=options["aired_to"])
        page = self.paginate_queryset(episodes.newest_first())
        # The site's list of episodes filters by podcast only.
        url = reverse("episodes:episode_list")
        if "podcast" in options:
            url += "?" + urlencode({"podcast": options["podcast"]})
        return self.paginator.get_paginated_response(
            self.get_serializer(episodes_with_counts(page), many=True).data,
            request.build_absolute_uri(url),
        )


class EpisodeDetail(GenericAPIView):
    """An episode with its claim mix, its people and its ledger, as on its page."""

    serializer_class = shapes.EpisodeDetailSerializer

    @extend_schema(summary="An episode", responses={200: shapes.EpisodeDetailSerializer, **ERRORS})
    def get(self, request, podcast_slug, slug):
        episode = get_object_or_404(
            Episode.objects.published().with_transcript_flag().select_related("podcast"),
            podcast__slug=podcast_slug,
            slug=slug,
        )
        # Through the relation, as the episode's page does: each claim shares `episode`,
        # not a copy of it and its podcast joined to every row.
        claims = episode.claims.published()
        episode.ledger = list(
            claims.select_related("speaker")
            .defer("search_context", "search_vector")
            .order_by("number")
        )
        attach_public_links(episode.ledger)
        with_subjects(episode.ledger)
        episode.claim_mix = claims.type_mix()
        people = {c.speaker_id: c.speaker for c in episode.ledger if c.is_identified}
        episode.people = sorted(people.values(), key=lambda speaker: speaker.name)
        episode.claim_count, episode.people_count = len(episode.ledger), len(people)
        episode.cast = [
            {"speaker": speaker, "role": group.role}
            for group in episode_cast(episode, people)
            for speaker in group.members
        ]
        return Response(self.get_serializer(episode).data)


class SpeakerList(GenericAPIView):
    serializer_class = shapes.SpeakerSerializer
    pagination_class = CountedPagePagination

    @extend_schema(
        summary="Speakers in the public record, most claims first",
        parameters=[SpeakerParams],
        responses={200: shapes.SpeakerSerializer(many=True), **ERRORS},
    )
    def get(self, request):
        options = validated(SpeakerParams, request.query_params)
        speakers = speakers_with_claim_counts()
        if options.get("q", "").split():
            speakers = speakers.filter(pk__in=Speaker.objects.named_like(options["q"].split()))
        page = self.paginate_queryset(speakers.order_by("-claim_count", "name"))
        return self.paginator.get_paginated_response(
            self.get_serializer(page, many=True).data,
            request.build_absolute_uri(reverse("episodes:speaker_list")),
        )


class SpeakerDetail(GenericAPIView):
    serializer_class = shapes.SpeakerDetailSerializer

    @extend_schema(summary="A speaker", responses={200: shapes.SpeakerDetailSerializer, **ERRORS})
    def get(self, request, slug):
        speaker = get_object_or_404(speakers_with_claim_counts(), slug=slug)
        # Kept beside the speaker (claims.counters): a prolific speaker's claims aren't read.
        speaker.claim_mix = ordered_mix(speaker.public_claim_mix)
        speaker.roles = speaker.public_roles
        return Response(self.get_serializer(speaker).data)


class PodcastList(GenericAPIView):
    serializer_class = shapes.PodcastListSerializer

    @extend_schema(
        summary="Podcasts with published episodes, by name",
        responses={200: shapes.PodcastListSerializer, **ERRORS},
    )
    def get(self, request):
        podcasts = {"url": reverse("episodes:podcast_list"), "results": podcasts_with_counts()}
        return Response(self.get_serializer(podcasts).data)


class Stats(GenericAPIView):
    serializer_class = shapes.StatsSerializer

    @extend_schema(
        summary="The ledger's totals, as on the home page",
        responses={200: shapes.StatsSerializer, **ERRORS},
    )
    def get(self, request):
        return Response(self.get_serializer({"url": reverse("home"), **totals()}).data)
