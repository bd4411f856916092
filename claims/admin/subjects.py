"""Topics and named references: their own pages, and how a claim's page links to them."""

from django.contrib import admin
from django.db.models import Count

from claims.models import ClaimReference, Reference, Topic
from episodes.admin import HTTPS_URL_FIELDS


@admin.register(Topic)
class TopicAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "claims_count")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}
    ordering = ("name",)

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(claims_total=Count("claims"))

    @admin.display(description="claims (drafts too)", ordering="claims_total")
    def claims_count(self, topic):
        return topic.claims_total


@admin.register(Reference)
class ReferenceAdmin(admin.ModelAdmin):
    formfield_overrides = HTTPS_URL_FIELDS
    list_display = ("title", "creator", "kind", "slug", "claims_count")
    list_filter = ("kind",)
    search_fields = ("title", "creator", "slug")
    prepopulated_fields = {"slug": ("title",)}
    ordering = ("title",)

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(claims_total=Count("named_in__claim"))

    @admin.display(description="claims (drafts too)", ordering="claims_total")
    def claims_count(self, reference):
        return reference.claims_total


class ClaimReferenceInline(admin.TabularInline):
    """What the claim names, and how: a claim may name a reference in more than one role."""

    model = ClaimReference
    fields = ("reference", "role")
    autocomplete_fields = ("reference",)
    extra = 0
    verbose_name = "named reference"
    verbose_name_plural = "Named references: books, papers, tools… the claim names, and how"
