import calendar
import datetime

from django import forms
from django.contrib import admin
from django.contrib.admin.options import IncorrectLookupParameters
from django.contrib.admin.widgets import AutocompleteSelect
from django.contrib.contenttypes.models import ContentType
from django.db import connections, models
from django.forms.models import BaseInlineFormSet

from episodes import transcripts
from episodes.models import Appearance, Episode, Podcast, Speaker, Status, Transcript

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
    """The episode, with its transcript (a record of its own) edited as if it were a field.

    The transcript comes as text, where lines may start with "[hh:mm:ss]" stamps,
    or as an uploaded file (WebVTT, SubRip, or that stamped text). A timed
    transcript is shown in the box with its stamps, so saving it unchanged keeps
    its times. A file that cannot be read refuses the whole form.
    """

    transcript = forms.CharField(
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 20, "cols": 90}),
        help_text="Paste the text, or upload a file below. A line that starts with a time, "
        "“[01:02:03]” or “[02:03]”, starts there: claims found in it get their time.",
    )
    transcript_file = forms.FileField(
        label="Upload a timed transcript",
        required=False,
        help_text="WebVTT (.vtt), SubRip (.srt) or text with [hh:mm:ss] stamps (.txt), "
        f"up to {transcripts.MAX_UPLOAD_BYTES // 1024 // 1024} MB. Replaces the text above.",
        widget=forms.ClearableFileInput(attrs={"accept": ".vtt,.srt,.txt,text/vtt,text/plain"}),
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
            stored = self.instance.transcript
            timed = transcripts.TimedText(stored.text, stored.cues)
            self.initial.setdefault("transcript", timed.stamped())
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
        timed = self.timed_transcript()
        if timed is not None:
            transcript.text, transcript.cues = timed.text, timed.cues
        transcript.is_public = self.cleaned_data.get("transcript_is_public", False)
        self.instance.transcript = transcript

    def timed_transcript(self) -> "transcripts.TimedText | None":
        """The uploaded file, else the text in the box, read for its stamps; None if unreadable."""
        upload = self.cleaned_data.get("transcript_file")
        try:
            if upload:
                return transcripts.read_file(upload.name, read_upload(upload))
            return transcripts.read_stamped(self.cleaned_data.get("transcript", ""))
        except transcripts.TranscriptFileError as error:
            self.add_error("transcript_file" if upload else "transcript", str(error))
            return None

    def save_transcript(self) -> None:
        transcript = self.instance.transcript
        stored = not transcript._state.adding
        if stored or transcript.text or transcript.is_public:
            transcript.episode = self.instance
            transcript.save()


def read_upload(upload) -> bytes:
    """The upload's bytes, reading at most one byte past the cap (read_file refuses more)."""
    upload.seek(0)
    return upload.read(transcripts.MAX_UPLOAD_BYTES + 1)


class LoadedChoiceAutocomplete(AutocompleteSelect):
    """An autocomplete that shows its chosen record from `loaded`, when the form's record
    came with it, instead of a query per row (80 claims, 80 queries for their speakers)."""

    loaded = None

    def optgroups(self, name, value, attr=None):
        chosen = [str(v) for v in value if str(v) not in self.choices.field.empty_values]
        if self.loaded is None or chosen != [str(self.loaded.pk)]:
            return super().optgroups(name, value, attr)
        options = [] if self.is_required else [self.create_option(name, "", "", False, 0)]
        label = self.choices.field.label_from_instance(self.loaded)
        options.append(self.create_option(name, self.loaded.pk, label, set(chosen), len(options)))
        return [(None, options, 0)]


class EpisodeRowsFormSet(BaseInlineFormSet):
    """Rows of an episode's page (its appearances, its claims) that read nothing more for
    each row: the page's own episode is theirs, and the speaker each row was read with
    is shown in its autocomplete (LoadedChoiceAutocomplete)."""

    def _construct_form(self, i, **kwargs):
        form = super()._construct_form(i, **kwargs)
        if self.instance.pk is not None:
            form.instance.episode = self.instance
        speaker = form.fields.get("speaker")
        if speaker is not None and form.instance.speaker_id is not None:
            getattr(speaker.widget, "widget", speaker.widget).loaded = form.instance.speaker
        return form


class AppearanceInline(admin.TabularInline):
    """Who was on the episode: hosts and guests, whether or not they have claims.

    The same queries for five people as for none: each row's speaker is read with the
    appearances and shown from there, by its name and in its autocomplete.
    """

    model = Appearance
    formset = EpisodeRowsFormSet
    fields = ("speaker", "role")
    autocomplete_fields = ("speaker",)
    extra = 0
    verbose_name_plural = "appearances (who was on the episode)"

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("speaker")

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "speaker":
            kwargs["widget"] = LoadedChoiceAutocomplete(db_field, self.admin_site)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


# The first day of the year of `latest.aired`, a date as each database keeps it.
YEAR_START_SQL = {
    "sqlite": "substr(latest.aired, 1, 4) || '-01-01'",
    "postgresql": "date_trunc('year', latest.aired)::date",
}


def years_aired() -> list[int]:
    """The years some episode aired in, latest first, in one statement that asks the air
    date's index once a year: the latest date, then the latest before that date's year,
    and so on. A date hierarchy truncated every episode's date instead (66 ms at a
    million claims on SQLite, where the truncation is a Python function per row)."""
    connection = connections[Episode.objects.db]
    table = connection.ops.quote_name(Episode._meta.db_table)
    column = connection.ops.quote_name(Episode._meta.get_field("air_date").column)
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH RECURSIVE latest(aired) AS (SELECT MAX({column}) FROM {table} "
            f"UNION ALL SELECT (SELECT MAX({column}) FROM {table} "
            f"WHERE {column} < {YEAR_START_SQL[connection.vendor]}) "
            "FROM latest WHERE latest.aired IS NOT NULL) "
            "SELECT aired FROM latest WHERE aired IS NOT NULL"
        )
        # A date, or SQLite's text of one: the year leads both.
        return [int(str(aired)[:4]) for (aired,) in cursor.fetchall()]


def _chosen(value, low, high, what):
    try:
        number = int(value)
    except ValueError:
        number = None
    if number is None or not low <= number <= high:
        raise IncorrectLookupParameters(f"{value!r} is not {what}.")
    return number


class AirYearFilter(admin.SimpleListFilter):
    """Episodes by the year they aired, the latest first (years_aired)."""

    title = "year aired"
    parameter_name = "aired"

    def lookups(self, request, model_admin):
        return [(str(year), str(year)) for year in years_aired()]

    def queryset(self, request, queryset):
        if self.value() is None:
            return queryset
        year = _chosen(self.value(), datetime.MINYEAR, datetime.MAXYEAR, "a year")
        return queryset.filter(air_date__year=year)


class AirMonthFilter(admin.SimpleListFilter):
    """Within the chosen year, episodes by the month they aired: at ten million claims a
    year holds some 25,000 episodes, more than the list pages through (CappedPaginator)."""

    title = "month aired"
    parameter_name = "aired_month"

    def lookups(self, request, model_admin):
        if request.GET.get(AirYearFilter.parameter_name) is None:
            if self.value() is not None:
                # Not offered, so not applied: said rather than ignored.
                raise IncorrectLookupParameters("A month is chosen within a year.")
            return []
        return [(str(month), calendar.month_name[month]) for month in range(1, 13)]

    def queryset(self, request, queryset):
        if self.value() is None:
            return queryset
        year = request.GET[AirYearFilter.parameter_name]
        year = _chosen(year, datetime.MINYEAR, datetime.MAXYEAR, "a year")
        month = _chosen(self.value(), 1, 12, "a month")
        first = datetime.date(year, month, 1)
        after = first + datetime.timedelta(days=calendar.monthrange(year, month)[1])
        return queryset.filter(air_date__gte=first, air_date__lt=after)


@admin.register(Episode)
class EpisodeAdmin(admin.ModelAdmin):
    form = EpisodeForm
    formfield_overrides = HTTPS_URL_FIELDS
    list_display = ("title", "podcast", "air_date", "status")
    # In the order of the date's index, which a page then walks, a day's episodes in the
    # order they were added (public pages list them by title): by title, SQLite sorted
    # every episode with its podcast to show a hundred (54 ms at a million, against 0.2).
    ordering = ("-air_date", "pk")
    list_filter = ("status", AirYearFilter, AirMonthFilter, "podcast")
    list_select_related = ("podcast",)
    search_fields = ("title", "podcast__name")
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
                "fields": ("summary", "transcript", "transcript_file", "transcript_is_public"),
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

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        form.save_transcript()

    def get_inline_formsets(self, request, formsets, inline_instances, obj=None):
        # The content types of the episode and of its inlines' rows (each row links to
        # its history), read in one query whether the episode has such rows or not, so
        # that a fresh process runs the same queries for an episode with claims and
        # people on it as for one without; the process keeps them from then on.
        ContentType.objects.get_for_models(self.model, *(inline.model for inline in self.inlines))
        return super().get_inline_formsets(request, formsets, inline_instances, obj)

    @admin.action(description="Publish selected episodes", permissions=("change",))
    def publish(self, request, queryset):
        updated = queryset.update(status=Status.PUBLISHED)
        self.message_user(request, f"Published {updated} episode(s).")

    @admin.action(description="Unpublish selected episodes", permissions=("change",))
    def unpublish(self, request, queryset):
        updated = queryset.update(status=Status.DRAFT)
        self.message_user(request, f"Unpublished {updated} episode(s).")
