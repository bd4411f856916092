from django.contrib import admin
from django.db import models
from django.db.models import Count

from claims.admin import ClaimInline
from claims.models import Claim
from episodes.models import Episode, Podcast, Speaker, Status

# Editors paste addresses without a scheme; the web is https now.
HTTPS_URL_FIELDS = {models.URLField: {"assume_scheme": "https"}}


@admin.register(Podcast)
class PodcastAdmin(admin.ModelAdmin):
    formfield_overrides = HTTPS_URL_FIELDS
    list_display = ("name", "slug", "website_url")
    search_fields = ("name",)
    prepopulated_fields = {"slug": ("name",)}


@admin.register(Speaker)
class SpeakerAdmin(admin.ModelAdmin):
    list_display = ("name", "description", "claim_total")
    # Explicit: the claim count aggregates, and aggregation drops Meta.ordering.
    ordering = ("name",)
    search_fields = ("name", "description")
    prepopulated_fields = {"slug": ("name",)}

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(claim_total=Count("claims"))

    @admin.display(description="claims (all statuses)", ordering="claim_total")
    def claim_total(self, speaker):
        return speaker.claim_total


@admin.register(Episode)
class EpisodeAdmin(admin.ModelAdmin):
    formfield_overrides = HTTPS_URL_FIELDS
    list_display = ("title", "podcast", "air_date", "status", "claim_total")
    ordering = ("-air_date", "title")
    list_filter = ("status", "podcast")
    list_select_related = ("podcast",)
    search_fields = ("title", "podcast__name")
    date_hierarchy = "air_date"
    autocomplete_fields = ("podcast",)
    prepopulated_fields = {"slug": ("title",)}
    readonly_fields = ("created_at", "updated_at")
    fieldsets = (
        (None, {"fields": ("podcast", "title", "slug", "air_date", "status")}),
        (
            "Source",
            {
                "fields": ("original_url", "audio_url"),
                "description": "A claim's timestamp links to its moment of a YouTube or Vimeo "
                "original, or else of the audio file.",
            },
        ),
        (
            "Text",
            {
                "fields": ("summary", "transcript"),
                "classes": ("collapse",),
                "description": "Every claim's excerpt is checked against the transcript, word "
                "for word, whenever either is saved; readers see the result.",
            },
        ),
        ("History", {"fields": ("created_at", "updated_at"), "classes": ("collapse",)}),
    )
    inlines = (ClaimInline,)
    actions = ("publish", "unpublish")
    show_full_result_count = False

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(claim_total=Count("claims"))

    def save_formset(self, request, form, formset, change):
        if formset.model is not Claim:
            return super().save_formset(request, form, formset, change)
        # Each claim's history records who changed it.
        formset.save_claims(changed_by=request.user)
        return None

    @admin.display(description="claims", ordering="claim_total")
    def claim_total(self, episode):
        return episode.claim_total

    @admin.action(description="Publish selected episodes", permissions=("change",))
    def publish(self, request, queryset):
        updated = queryset.update(status=Status.PUBLISHED)
        self.message_user(request, f"Published {updated} episode(s).")

    @admin.action(description="Unpublish selected episodes", permissions=("change",))
    def unpublish(self, request, queryset):
        updated = queryset.update(status=Status.DRAFT)
        self.message_user(request, f"Unpublished {updated} episode(s).")
