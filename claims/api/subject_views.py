"""The API's topics and named references: their public counts, as on their pages."""

from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response

from claims.api import serializers as shapes
from claims.api.pagination import CountedPagePagination
from claims.api.params import validated
from claims.api.views import ERRORS
from claims.models import Claim, Reference, ReferenceKind, Role, Topic
from claims.reference_pages import namings_of


class ReferenceParams(serializers.Serializer):
    kind = serializers.ChoiceField(choices=ReferenceKind.choices, required=False)
    role = serializers.ChoiceField(
        choices=Role.choices, required=False, help_text="Only references named in this role."
    )


class TopicList(GenericAPIView):
    serializer_class = shapes.TopicSerializer
    pagination_class = CountedPagePagination

    @extend_schema(
        summary="Topics with published claims, by name",
        responses={200: shapes.TopicSerializer(many=True), **ERRORS},
    )
    def get(self, request):
        topics = Topic.objects.with_public_claim_counts().order_by("name")
        page = self.paginate_queryset(topics)
        return self.paginator.get_paginated_response(
            self.get_serializer(page, many=True).data,
            request.build_absolute_uri(reverse("claims:topic_list")),
        )


class TopicDetail(GenericAPIView):
    serializer_class = shapes.TopicDetailSerializer

    @extend_schema(summary="A topic", responses={200: shapes.TopicDetailSerializer, **ERRORS})
    def get(self, request, slug):
        topic = get_object_or_404(Topic.objects.with_public_claim_counts(), slug=slug)
        claims = Claim.objects.published().filter(topics=topic)
        topic.claim_mix = claims.type_mix()
        topic.people = claims.speakers().order_by("name")
        return Response(self.get_serializer(topic).data)


class ReferenceList(GenericAPIView):
    serializer_class = shapes.ReferenceSerializer
    pagination_class = CountedPagePagination

    @extend_schema(
        summary="References named in published claims, most people first",
        parameters=[ReferenceParams],
        responses={200: shapes.ReferenceSerializer(many=True), **ERRORS},
    )
    def get(self, request):
        options = validated(ReferenceParams, request.query_params)
        references = Reference.objects.with_public_counts(role=options.get("role"))
        if "kind" in options:
            references = references.filter(kind=options["kind"])
        page = list(self.paginate_queryset(references.order_by("-people_count", "title", "pk")))
        namings_of(page)
        url = reverse("claims:reference_list")
        query = request.GET.copy()
        for name in ("page", "page_size"):
            query.pop(name, None)
        if query:
            url += "?" + query.urlencode()
        return self.paginator.get_paginated_response(
            self.get_serializer(page, many=True).data, request.build_absolute_uri(url)
        )


class ReferenceDetail(GenericAPIView):
    serializer_class = shapes.ReferenceSerializer

    @extend_schema(
        summary="A named reference", responses={200: shapes.ReferenceSerializer, **ERRORS}
    )
    def get(self, request, slug):
        reference = get_object_or_404(Reference.objects.with_public_counts(), slug=slug)
        namings_of([reference])
        return Response(self.get_serializer(reference).data)
