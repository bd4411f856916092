"""Topics: what claims are about, curated by editors, each with its public page."""

from django.db import models
from django.db.models import Exists, F, OuterRef, QuerySet
from django.urls import reverse

from ledger.models import RecordQuerySet

# A topic keeps this many of its speakers, those with the most public claims on it: its
# page lists them, and says how many more there are.
KEPT_SPEAKERS = 50


class TopicQuerySet(RecordQuerySet):
    def with_public_claim_counts(self) -> QuerySet["Topic"]:
        """Topics with at least one public claim, annotated with `claim_count`: their kept
        count (claims.counters), so no claim is read. A topic whose claims are all drafts
        is listed nowhere and has no page."""
        return self.filter(public_claim_count__gt=0).annotate(claim_count=F("public_claim_count"))


class Topic(models.Model):
    name = models.CharField(max_length=100, help_text="As readers see it: “Testing”.")
    slug = models.SlugField(
        max_length=100, unique=True, help_text="Its address: /topics/<slug>/. Never reused."
    )
    description = models.TextField(blank=True, help_text="Optional: what the topic covers.")
    # Kept by claims.counters with every public change; `manage.py recount` repairs them.
    public_claim_count = models.PositiveIntegerField("public claims", default=0, editable=False)
    public_claim_mix = models.JSONField(default=dict, editable=False)  # {claim type: count}
    # Identified people with a public claim on it, and the ids of the KEPT_SPEAKERS of them
    # with the most (ties by id): a topic's page lists a bounded number of people.
    public_speaker_count = models.PositiveIntegerField(default=0, editable=False)
    public_top_speakers = models.JSONField(default=list, editable=False)

    objects = TopicQuerySet.as_manager()

    class Meta:
        ordering = ("name",)

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("claims:topic_detail", kwargs={"slug": self.slug})


def walks_faster(topic_claims: int, ledger_claims: int, shown: int) -> bool:
    """Whether `shown` of a topic's claims, in order, are found sooner by walking the
    ledger in that order and asking each claim for the topic (about ledger / topic
    claims read per claim shown) than by reading all the topic's claims and sorting them."""
    return topic_claims**2 > ledger_claims * shown


def tagged(claims: QuerySet, topic: Topic, walk: bool) -> QuerySet:
    """`claims` narrowed to those with `topic`, found one of two ways.

    Joined from the topic's links (walk=False), all its claims are read and sorted
    before the first is shown; asked of each claim as the ledger is walked in order
    (walk=True), only about ledger / topic claims are read per claim shown. Callers
    decide with walks_faster().
    """
    if walk:
        links = Topic.claims.through.objects.filter(topic=topic, claim=OuterRef("pk"))
        return claims.filter(Exists(links))
    return claims.filter(topics=topic)
