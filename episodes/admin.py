from django.contrib import admin
from django.db import models

from episodes.models import Appearance, Episode, Podcast, Speaker, Status

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
    list_display = ("name", "description")
    # Explicit: the claims app adds a count, and aggregation drops Meta.ordering.
    ordering = ("name",)
    search_fields = ("name", "description")
    prepopulated_fields = {"slug": ("name",)}


class AppearanceInline(admin.TabularInline):
    """Who was on the episode: hosts and guests, whether or not they have claims."""

    model = Appearance
    fields = ("speaker", "role")
    autocomplete_fields = ("speaker",)
    extra = 0
    verbose_name_plural = "appearances (who was on the episode)"


@admin.register(Episode)
class EpisodeAdmin(admin.ModelAdmin):
    formfield_overrides = HTTPS_URL_FIELDS
    list_display = ("title", "podcast", "air_date", "status")
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
    inlines = (AppearanceInline,)
    actions = ("publish", "unpublish")
    show_full_result_count = False

    @admin.action(description="Publish selected episodes", permissions=("change",))
    def publish(self, request, queryset):
        updated = queryset.update(status=Status.PUBLISHED)
        self.message_user(request, f"Published {updated} episode(s).")

    @admin.action(description="Unpublish selected episodes", permissions=("change",))
    def unpublish(self, request, queryset):
        updated = queryset.update(status=Status.DRAFT)
        self.message_user(request, f"Unpublished {updated} episode(s).")
