from django import forms
from django.contrib import admin
from django.db import models

from episodes.models import Episode, Podcast, Speaker, Status, Transcript

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


class EpisodeForm(forms.ModelForm):
    """The episode, with its transcript (a record of its own) edited as if it were a field."""

    transcript = forms.CharField(
        required=False, strip=False, widget=forms.Textarea(attrs={"rows": 20, "cols": 90})
    )
    transcript_is_public = forms.BooleanField(
        label="Transcript is public",
        required=False,
        help_text=Transcript._meta.get_field("is_public").help_text,
    )

    # No Meta: the admin builds the form for Episode, with its own field overrides.

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk and hasattr(self.instance, "transcript"):
            self.initial.setdefault("transcript", self.instance.transcript.text)
            self.initial.setdefault("transcript_is_public", self.instance.transcript.is_public)

    def clean(self):
        cleaned_data = super().clean()
        if (
            cleaned_data.get("transcript_is_public")
            and not cleaned_data.get("transcript", "").strip()
        ):
            # Readers would follow the episode page's link to an empty page.
            self.add_error("transcript_is_public", "Paste the transcript before making it public.")
        return cleaned_data

    def _post_clean(self):
        super()._post_clean()
        # Kept on the episode unsaved, so its claims are checked against the transcript
        # in this form, not the one stored; saved with the episode (save_transcript).
        transcript = getattr(self.instance, "transcript", None) or Transcript()
        transcript.text = self.cleaned_data.get("transcript", "")
        transcript.is_public = self.cleaned_data.get("transcript_is_public", False)
        self.instance.transcript = transcript

    def save_transcript(self) -> None:
        transcript = self.instance.transcript
        stored = not transcript._state.adding
        if stored or transcript.text or transcript.is_public:
            transcript.episode = self.instance
            transcript.save()


@admin.register(Episode)
class EpisodeAdmin(admin.ModelAdmin):
    form = EpisodeForm
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
                "fields": ("summary", "transcript", "transcript_is_public"),
                "classes": ("collapse",),
                "description": "Every claim's excerpt is checked against the transcript, word "
                "for word, whenever either is saved; readers see the result.",
            },
        ),
        ("History", {"fields": ("created_at", "updated_at"), "classes": ("collapse",)}),
    )
    actions = ("publish", "unpublish")
    show_full_result_count = False

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        form.save_transcript()

    @admin.action(description="Publish selected episodes", permissions=("change",))
    def publish(self, request, queryset):
        updated = queryset.update(status=Status.PUBLISHED)
        self.message_user(request, f"Published {updated} episode(s).")

    @admin.action(description="Unpublish selected episodes", permissions=("change",))
    def unpublish(self, request, queryset):
        updated = queryset.update(status=Status.DRAFT)
        self.message_user(request, f"Unpublished {updated} episode(s).")
