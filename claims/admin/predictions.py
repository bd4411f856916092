"""The editors' view of predictions: those due for resolution first, resolved with sources.

Predictions are claims (added and corrected on the claims' pages); here an
editor sets a prediction's horizon and outcome. Every save goes through the
claim's write path (Claim.save), which keeps the change in its history and
writes the sources: the inline's rows are read, never saved by the formset.
"""

import datetime

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Case, IntegerField, QuerySet, Value, When
from django.forms.models import BaseInlineFormSet
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.html import format_html

from claims.admin.columns import ClaimColumns
from claims.admin.filters import DueFilter
from claims.choices import ClaimStatus, ClaimType, Due, Resolution
from claims.history import ClaimChange
from claims.models import Prediction
from claims.predictions import PredictionSource, due_q, end_of_period

# Sources the write path reads from the inline, so its own check comes from the formset.
SOURCES_FIELD = "resolution_sources"


class PredictionForm(forms.ModelForm):
    correction_note = forms.CharField(
        label="Why (to reopen)",
        required=False,
        widget=forms.Textarea(attrs={"rows": 2, "cols": 60}),
        help_text="Needed to set a published prediction back to open: readers see it.",
    )

    class Meta:
        model = Prediction
        fields = ("horizon", "horizon_precision", "resolution", "resolved_on", "resolution_note")
        widgets = {"resolution_note": forms.Textarea(attrs={"rows": 3, "cols": 60})}
        help_texts = {
            "horizon": "Any day in the period the speaker named: it is kept as the period's "
            "last day. Leave empty when they stated no horizon."
        }

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("horizon") and cleaned.get("horizon_precision"):
            cleaned["horizon"] = end_of_period(cleaned["horizon"], cleaned["horizon_precision"])
        return cleaned

    def _update_errors(self, errors):
        # The sources are in the inline, which checks them (PredictionSourceFormSet.clean).
        errors.error_dict.pop(SOURCES_FIELD, None)
        if errors.error_dict:
            super()._update_errors(errors)

    def _post_clean(self):
        super()._post_clean()
        change = ClaimChange.of(self.instance, self.cleaned_data.get("correction_note", ""))
        for name, message in change.problems().items():
            if name not in self.errors and name != SOURCES_FIELD:
                self.add_error(name if name in self.fields else None, message)


class PredictionSourceFormSet(BaseInlineFormSet):
    def sources(self) -> list[dict]:
        return [
            {"url": form.cleaned_data["url"], "title": form.cleaned_data["title"]}
            for form in self.forms
            if form.cleaned_data.get("url") and not form.cleaned_data.get("DELETE")
        ]

    def clean(self):
        super().clean()
        if self.instance.resolution != Resolution.OPEN and not self.sources():
            raise ValidationError("An outcome needs at least one source: its address and title.")


class PredictionSourceInline(admin.TabularInline):
    model = PredictionSource
    formset = PredictionSourceFormSet
    fields = ("url", "title")
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}
    extra = 2
    verbose_name = "source for the outcome"
    verbose_name_plural = "Sources for the outcome (at least one for any outcome but open)"

    # Sources are part of the claim: whoever may change claims may give them.
    def has_view_permission(self, request, obj=None):
        return request.user.has_perm("claims.change_claim")

    has_add_permission = has_change_permission = has_delete_permission = has_view_permission


class CannotResolveForm(forms.Form):
    note = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3, "cols": 70}),
        help_text="Shown with each prediction: say why it cannot be resolved.",
    )
    source_url = forms.URLField(label="Source address", assume_scheme="https")
    source_title = forms.CharField(label="Source title", max_length=300)
    resolved_on = forms.DateField(label="Resolved on", initial=datetime.date.today)


def due_rank(today: datetime.date) -> Case:
    """Overdue first, then due soon, later, no horizon; resolved predictions last."""
    order = [Due.OVERDUE, Due.SOON, Due.LATER, Due.NO_HORIZON]
    return Case(
        *(When(due_q(due, today), then=Value(rank)) for rank, due in enumerate(order)),
        default=Value(len(order)),
        output_field=IntegerField(),
    )


@admin.register(Prediction)
class PredictionAdmin(ClaimColumns, admin.ModelAdmin):
    form = PredictionForm
    inlines = (PredictionSourceInline,)
    list_display = (
        "label",
        "short_excerpt",
        "voice",
        "episode_short",
        "horizon_shown",
        "due_shown",
    )
    list_display_links = ("label", "short_excerpt")
    list_filter = (
        "resolution",
        DueFilter,
        "status",
        ("episode__podcast", admin.RelatedFieldListFilter),
    )
    list_select_related = ("episode", "speaker")
    search_fields = ("excerpt", "speaker__name")
    readonly_fields = ("claim_shown",)
    fieldsets = (
        (None, {"fields": ("claim_shown",)}),
        ("Horizon", {"fields": ("horizon", "horizon_precision")}),
        ("Outcome", {"fields": ("resolution", "resolved_on", "resolution_note")}),
        (None, {"fields": ("correction_note",)}),
    )
    actions = ("cannot_be_resolved",)
    list_per_page = 50

    def get_ordering(self, request):
        return ("due_rank", "horizon", "pk")

    def get_queryset(self, request) -> QuerySet:
        # Retracted predictions are kept as they were.
        # Not super()'s: its ordering by due_rank would come before the annotation.
        return (
            Prediction.objects.filter(type=ClaimType.PREDICTION)
            .exclude(status=ClaimStatus.RETRACTED)
            .annotate(due_rank=due_rank(timezone.localdate()))
            .order_by(*self.get_ordering(request))
        )

    # Claim permissions: a prediction is a claim, edited by whoever may edit claims.
    def has_view_permission(self, request, obj=None):
        return request.user.has_perm("claims.view_claim") or self.has_change_permission(request)

    def has_change_permission(self, request, obj=None):
        return request.user.has_perm("claims.change_claim")

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def get_actions(self, request):
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    def save_model(self, request, obj, form, change):
        """Saved in save_related(), once the inline's sources are known."""

    def save_related(self, request, form, formsets, change):
        claim = form.instance
        sources = [source for formset in formsets for source in formset.sources()]
        for formset in formsets:
            # Unsaved: only for the admin's change message. The write path writes the rows.
            formset.save(commit=False)
        claim.resolution_sources = [] if claim.resolution == Resolution.OPEN else sources
        claim.save(
            changed_by=request.user,
            via="admin",
            correction_note=form.cleaned_data.get("correction_note", ""),
        )

    @admin.display(description="horizon", ordering="horizon")
    def horizon_shown(self, claim):
        return claim.horizon_words

    @admin.display(description="due or outcome", ordering="due_rank")
    def due_shown(self, claim):
        if claim.is_resolved:
            return claim.get_resolution_display()
        if claim.due == Due.OVERDUE:
            return format_html("<strong>{}</strong>", "overdue")
        return Due(claim.due).label.lower()

    @admin.display(description="claim")
    def claim_shown(self, claim):
        return format_html(
            "{} / {} — {}<br>“{}” ({})",
            claim.label,
            claim.type,
            claim.episode,
            claim.excerpt,
            claim.voice,
        )

    @admin.action(description="Mark selected as cannot be resolved…", permissions=("change",))
    def cannot_be_resolved(self, request, queryset):
        open_ones = queryset.filter(resolution=Resolution.OPEN)
        form = CannotResolveForm(request.POST if "note" in request.POST else None)
        if not form.is_valid():
            return TemplateResponse(
                request,
                "admin/claims/prediction/cannot_resolve.html",
                {
                    **self.admin_site.each_context(request),
                    "title": "Mark predictions as cannot be resolved",
                    "opts": self.model._meta,
                    "claims": open_ones.select_related("episode", "speaker"),
                    "form": form,
                    "action": request.POST["action"],
                    "selected": queryset.values_list("pk", flat=True),
                    "action_checkbox_name": ACTION_CHECKBOX_NAME,
                },
            )
        data = form.cleaned_data
        source = {"url": data["source_url"], "title": data["source_title"]}
        claims = list(open_ones.select_related("episode", "speaker"))
        for claim in claims:
            claim.resolve(
                Resolution.CANNOT_BE_RESOLVED,
                on=data["resolved_on"],
                note=data["note"],
                sources=[source],
                changed_by=request.user,
                via="admin",
            )
        skipped = queryset.count() - len(claims)
        self.message_user(request, f"Marked {len(claims)} prediction(s) as cannot be resolved.")
        if skipped:
            self.message_user(
                request,
                f"{skipped} already resolved were left as they are.",
                level=messages.WARNING,
            )
        return None
