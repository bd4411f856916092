"""What the API says about each record: the page's facts, its permalink and, for claims,
a ready citation. Field lists are the documented, stable shape of API version 1."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from claims.choices import Relation
from claims.citations import citation
from claims.models import Attribution, ClaimType, ReferenceKind, Verification
from claims.models import Role as ReferenceRole
from episodes.models import Role


def permalink(context, record) -> str:
    return context["request"].build_absolute_uri(record.get_absolute_url())


@extend_schema_field({"type": "string", "format": "uri"})
class PermalinkField(serializers.Field):
    """The absolute address of the record's page."""

    def __init__(self, source="*", **kwargs):
        super().__init__(source=source, read_only=True, **kwargs)

    def to_representation(self, record):
        return permalink(self.context, record)


class PodcastRefSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()
    url = PermalinkField()


class SpeakerRefSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()
    url = PermalinkField()


class AppearanceSerializer(serializers.Serializer):
    speaker = SpeakerRefSerializer()
    role = serializers.ChoiceField(choices=Role.choices)


class EpisodeRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    slug = serializers.SlugField()
    title = serializers.CharField()
    air_date = serializers.DateField()
    original_url = serializers.URLField()
    podcast = PodcastRefSerializer()
    url = PermalinkField()


class CorrectionSerializer(serializers.Serializer):
    at = serializers.DateTimeField()
    note = serializers.CharField()
    # Not "fields", which every serializer already has.
    changed = serializers.ListField(child=serializers.CharField(), source="fields")


class RetractionSerializer(serializers.Serializer):
    retracted_at = serializers.DateTimeField()
    reason = serializers.CharField(source="retraction_reason")


class LinkedClaimSerializer(serializers.Serializer):
    relation = serializers.ChoiceField(choices=Relation.choices)
    wording = serializers.CharField(
        help_text="The link read from this claim: “contradicts”, or “contradicted by” when "
        "the other claim made it."
    )
    claim_id = serializers.IntegerField(source="claim.pk", help_text="The other claim's id.")
    claim_url = PermalinkField(source="claim")
    note = serializers.CharField()


# Shown for a published claim only: a retraction withdraws the words and who said them.
VOUCHED_FOR = (
    "type",
    "excerpt",
    "highlighted",
    "summary",
    "attribution",
    "speaker",
    "voice",
    "timestamp",
    "moment_url",
    "verification",
    "citation",
    "topics",
    "references",
)


class NamedReferenceSerializer(serializers.Serializer):
    """A reference as a claim names it: which one, and how."""

    role = serializers.ChoiceField(choices=ReferenceRole.choices)
    slug = serializers.SlugField(source="reference.slug")
    title = serializers.CharField(source="reference.title")
    kind = serializers.ChoiceField(choices=ReferenceKind.choices, source="reference.kind")
    url = serializers.SerializerMethodField(help_text="The reference's page in the ledger.")

    @extend_schema_field({"type": "string", "format": "uri"})
    def get_url(self, named):
        return permalink(self.context, named.reference)


class ClaimSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    url = PermalinkField()
    number = serializers.IntegerField()
    label = serializers.CharField(help_text="The number as the ledger writes it: 01, 02, …")
    status = serializers.ChoiceField(choices=("published", "retracted"))
    type = serializers.ChoiceField(choices=ClaimType.choices, allow_null=True)
    excerpt = serializers.CharField(allow_null=True, help_text="The exact words, verbatim.")
    highlighted = serializers.SerializerMethodField(
        help_text="With ?highlight=1 and a search: the excerpt as HTML-escaped text, "
        "the matched words in <mark>."
    )
    summary = serializers.CharField(allow_null=True, help_text="The editor's one-line summary.")
    attribution = serializers.ChoiceField(choices=Attribution.choices, allow_null=True)
    speaker = SpeakerRefSerializer(allow_null=True)
    voice = serializers.CharField(
        allow_null=True, help_text="The speaker's name, or the unresolved voice's label."
    )
    episode = EpisodeRefSerializer()
    timestamp = serializers.IntegerField(allow_null=True, help_text="Seconds into the episode.")
    moment_url = serializers.URLField(allow_null=True)
    verification = serializers.ChoiceField(choices=Verification.choices, allow_null=True)
    corrections = CorrectionSerializer(many=True, source="public_corrections")
    topics = serializers.SerializerMethodField(help_text="The slugs of the claim's topics.")
    references = NamedReferenceSerializer(many=True, source="subjects.references", allow_null=True)
    retraction = serializers.SerializerMethodField()
    citation = serializers.SerializerMethodField()
    links = LinkedClaimSerializer(
        many=True,
        source="public_links",
        help_text="Its links to other public claims (claims.links.attach_public_links).",
    )

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_highlighted(self, claim):
        return None if claim.highlighted is None else str(claim.highlighted)

    @extend_schema_field(serializers.ListField(child=serializers.SlugField(), allow_null=True))
    def get_topics(self, claim):
        return [topic.slug for topic in claim.subjects.topics]

    @extend_schema_field(RetractionSerializer(allow_null=True))
    def get_retraction(self, claim):
        return RetractionSerializer(claim).data if claim.is_retracted else None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_citation(self, claim):
        return citation(claim, permalink(self.context, claim))

    def to_representation(self, claim):
        # The fields above document the shape (drf-spectacular reads them); the shape
        # itself is written in plain Python below, which gives the same dict (tests/api/
        # test_claim_shape.py) in a fifth of the time: an episode's fifty claims spent
        # most of the API's episode walking DRF's fields.
        data = claim_shape(claim, self.context["request"])
        if claim.is_retracted:
            data.update(dict.fromkeys(VOUCHED_FOR))
        return data


def claim_shape(claim, request) -> dict:
    """The fields of ClaimSerializer, in their order, as DRF would write them."""
    absolute = request.build_absolute_uri
    url = absolute(claim.get_absolute_url())
    speaker = claim.speaker
    return {
        "id": claim.pk,
        "url": url,
        "number": claim.number,
        "label": claim.label,
        "status": _choice(claim.status),
        "type": _choice(claim.type),
        "excerpt": claim.excerpt,
        "highlighted": None if claim.highlighted is None else str(claim.highlighted),
        "summary": claim.summary,
        "attribution": _choice(claim.attribution),
        "speaker": speaker and _named(speaker, absolute),
        "voice": claim.voice,
        "episode": _episode_ref(claim.episode, absolute),
        "timestamp": claim.timestamp,
        "moment_url": claim.moment_url,
        "verification": _choice(claim.verification),
        "corrections": _corrections(claim.public_corrections),
        "topics": [topic.slug for topic in claim.subjects.topics],
        "references": [
            {
                "role": _choice(named.role),
                "slug": named.reference.slug,
                "title": named.reference.title,
                "kind": _choice(named.reference.kind),
                "url": absolute(named.reference.get_absolute_url()),
            }
            for named in claim.subjects.references
        ],
        "retraction": RetractionSerializer(claim).data if claim.is_retracted else None,
        "citation": citation(claim, url),
        "links": [
            {
                "relation": _choice(link.relation),
                "wording": str(link.wording),
                "claim_id": link.claim.pk,
                "claim_url": absolute(link.claim.get_absolute_url()),
                "note": link.note,
            }
            for link in claim.public_links
        ],
    }


def _corrections(corrections) -> list:
    # Few claims are corrected: DRF writes their dates, and only theirs.
    return CorrectionSerializer(many=True).to_representation(corrections) if corrections else []


def _choice(value):
    # As a ChoiceField writes a choice: its plain value; None and "" as they are.
    return value if value in (None, "") else str(value)


def _named(record, absolute) -> dict:
    return {"slug": record.slug, "name": record.name, "url": absolute(record.get_absolute_url())}


def _episode_ref(episode, absolute) -> dict:
    return {
        "id": episode.pk,
        "slug": episode.slug,
        "title": episode.title,
        "air_date": episode.air_date.isoformat(),
        "original_url": episode.original_url,
        "podcast": _named(episode.podcast, absolute),
        "url": absolute(episode.get_absolute_url()),
    }


class TypeCountSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=ClaimType.choices)
    count = serializers.IntegerField()

    def to_representation(self, pair):
        return {"type": str(pair[0]), "count": pair[1]}


class PodcastSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()
    description = serializers.CharField()
    website_url = serializers.CharField()
    feed_url = serializers.CharField()
    url = PermalinkField()
    episode_count = serializers.IntegerField()
    claim_count = serializers.IntegerField()


class EpisodeSerializer(EpisodeRefSerializer):
    claim_count = serializers.IntegerField(help_text="Published claims.")
    people_count = serializers.IntegerField(help_text="Identified speakers of those claims.")
    transcript_public = serializers.BooleanField(
        source="has_public_transcript",
        help_text="Whether the editors made the whole transcript public (at transcript_url).",
    )
    transcript_url = serializers.SerializerMethodField(
        help_text="The page of the whole transcript, with the published excerpts marked; "
        "null unless it is public."
    )

    @extend_schema_field({"type": "string", "format": "uri", "nullable": True})
    def get_transcript_url(self, episode) -> str | None:
        if not episode.has_public_transcript:
            return None
        return self.context["request"].build_absolute_uri(episode.get_transcript_url())


class EpisodeDetailSerializer(EpisodeSerializer):
    audio_url = serializers.CharField()
    summary = serializers.CharField()
    claim_mix = TypeCountSerializer(many=True, help_text="Published claims per type, most first.")
    people = SpeakerRefSerializer(many=True, help_text="The identified speakers, by name.")
    appearances = AppearanceSerializer(
        many=True,
        source="cast",
        help_text="Who was on the episode, whether or not they have claims: hosts, guests, "
        "then others.",
    )
    claims = ClaimSerializer(
        many=True, source="ledger", help_text="The ledger: published claims by number."
    )


class SpeakerSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()
    description = serializers.CharField()
    url = PermalinkField()
    claim_count = serializers.IntegerField(help_text="Published claims.")


class SpeakerDetailSerializer(SpeakerSerializer):
    links = serializers.ListField(child=serializers.CharField(), source="link_list")
    claim_mix = TypeCountSerializer(many=True, help_text="Published claims per type, most first.")
    roles = serializers.ListField(
        child=serializers.ChoiceField(choices=Role.choices),
        help_text="Their roles on published episodes (host, guest, other), in that order.",
    )


class PodcastListSerializer(serializers.Serializer):
    url = serializers.SerializerMethodField()
    results = PodcastSerializer(many=True)

    @extend_schema_field({"type": "string", "format": "uri"})
    def get_url(self, podcasts):
        return self.context["request"].build_absolute_uri(podcasts["url"])


class StatsSerializer(serializers.Serializer):
    url = serializers.SerializerMethodField(help_text="The home page, which shows these totals.")

    @extend_schema_field({"type": "string", "format": "uri"})
    def get_url(self, totals):
        return self.context["request"].build_absolute_uri(totals["url"])

    claim_count = serializers.IntegerField()
    episode_count = serializers.IntegerField()
    people_count = serializers.IntegerField()
    podcast_count = serializers.IntegerField()


class TopicSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()
    description = serializers.CharField()
    url = PermalinkField()
    claim_count = serializers.IntegerField(help_text="Published claims.")


class TopicDetailSerializer(TopicSerializer):
    claim_mix = TypeCountSerializer(many=True, help_text="Published claims per type, most first.")
    people = SpeakerRefSerializer(many=True, help_text="The identified speakers, by name.")


class RoleCountSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=ReferenceRole.choices)
    people_count = serializers.IntegerField(help_text="Distinct identified speakers.")
    by_unresolved_voice = serializers.BooleanField(
        help_text="Whether an unresolved voice (never counted as a person) named it so too."
    )

    def to_representation(self, naming):
        return {
            "role": str(naming.role),
            "people_count": naming.people_count,
            "by_unresolved_voice": naming.by_unresolved_voice,
        }


class ReferenceSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    kind = serializers.ChoiceField(choices=ReferenceKind.choices)
    title = serializers.CharField()
    creator = serializers.CharField()
    web_url = serializers.CharField(source="url", help_text="Where to find it; may be empty.")
    url = PermalinkField()
    people_count = serializers.IntegerField(help_text="Distinct identified speakers who named it.")
    claim_count = serializers.IntegerField(help_text="Published claims that name it.")
    roles = RoleCountSerializer(many=True, source="namings", help_text="How it was named.")


class ErrorSerializer(serializers.Serializer):
    status = serializers.IntegerField()
    detail = serializers.CharField()
    errors = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="{parameter: [message]} when parameters were refused.",
    )
