"""Topics: what claims are about, curated by editors, each with its public page."""

from django.db import models
from django.db.models import Count, QuerySet
from django.urls import reverse

from claims.querysets import public_q
from ledger.models import RecordQuerySet


class TopicQuerySet(RecordQuerySet):
    def with_public_claim_counts(self) -> QuerySet["Topic"]:
        """Topics with at least one public claim, annotated with `claim_count`.

        Joined to their public claims and grouped: a topic whose claims are all
        drafts has no row, so it is listed nowhere and has no page.
        """
        return self.filter(public_q(prefix="claims__")).annotate(claim_count=Count("*"))


class Topic(models.Model):
    name = models.CharField(max_length=100, help_text="As readers see it: “Testing”.")
    slug = models.SlugField(
        max_length=100, unique=True, help_text="Its address: /topics/<slug>/. Never reused."
    )
    description = models.TextField(blank=True, help_text="Optional: what the topic covers.")

    objects = TopicQuerySet.as_manager()

    class Meta:
        ordering = ("name",)

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("claims:topic_detail", kwargs={"slug": self.slug})
