"""Claims within their episode's page, and a claim's history within its own."""

from django.contrib import admin
from django.contrib.admin.widgets import RelatedFieldWidgetWrapper
from django.template.defaultfilters import truncatechars
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from claims.admin.forms import ClaimInlineForm, ClaimInlineFormSet
from claims.models import Claim, ClaimRevision, Verification
from claims.nearest import explain_not_found
from episodes.admin import LoadedChoiceAutocomplete


class ClaimInline(admin.StackedInline):
    """The episode's ledger: its drafts editable, four short lines each, above them its
    published and retracted claims as a table of one line each, linking to their pages.

    Drafts are where the inline's work is (numbering, deleting, publishing). A published
    claim is changed by a correction with a note and shows its history, on its own page;
    eighty of them as forms cost seconds to render (a dozen widgets each), as table
    rows a few milliseconds (docs/performance.md).
    """

    model = Claim
    form = ClaimInlineForm
    formset = ClaimInlineFormSet
    template = "admin/claims/claim/episode_inline.html"
    verbose_name_plural = "drafts and new claims"
    readonly_fields = ("verbatim",)
    ordering = ("number",)
    autocomplete_fields = ("speaker",)
    extra = 1
    show_change_link = True

    class Media:
        js = ("ledger/claim_numbers.js",)

    def get_fieldsets(self, request, obj=None):
        rows = [
            ("number", "type", "status", "verbatim"),
            "excerpt",
            ("attribution", "speaker", "unresolved_label"),
            ("timestamp", "summary"),
        ]
        # Drafts are edited freely (no correction note); the verbatim override only
        # once there is a transcript to miss, or after a refused save, beside the claim.
        if request.method == "POST" or (obj is not None and obj.transcript_text):
            rows.append("publish_unverified")
        return [(None, {"fields": rows})]

    def get_queryset(self, request):
        # Each row shows its speaker (the autocomplete's chosen option): read with the claims.
        return super().get_queryset(request).drafts().select_related("speaker")

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        formfield = super().formfield_for_dbfield(db_field, request, **kwargs)
        if db_field.name == "speaker" and isinstance(formfield.widget, RelatedFieldWidgetWrapper):
            # Without the add, change, delete and view links beside each draft's speaker
            # (four URLs to reverse and some 1.5 KB a row): the drafts' heading has one
            # link to add a speaker, and the autocomplete finds it once added.
            formfield.widget = formfield.widget.widget
        return formfield

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "speaker":
            kwargs["widget"] = LoadedChoiceAutocomplete(db_field, self.admin_site)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    @admin.display(description="verbatim")
    def verbatim(self, claim):
        return verbatim_label(claim) if claim.pk else "—"


class ReadOnlyInline(admin.TabularInline):
    """Records shown on a claim's page for reading only: none added, changed or deleted there."""

    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ClaimRevisionInline(ReadOnlyInline):
    """The claim's history, newest first: read-only, for everyone who may see the claim."""

    model = ClaimRevision
    fields = ("created_at", "kind", "changed_by", "via", "what_changed", "note")
    readonly_fields = fields
    view_on_site = False
    verbose_name = "change"
    verbose_name_plural = "History: every change to this claim"

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("claim", "changed_by")

    def has_view_permission(self, request, obj=None):
        return request.user.has_perm("claims.view_claim")

    @admin.display(description="what changed")
    def what_changed(self, revision):
        return format_html_join(
            mark_safe("<br>"),
            "<strong>{}</strong>: {} → {}",
            (
                (name, shown(before), shown(after))
                for name, (before, after) in revision.changes.items()
            ),
        )


def shown(value):
    return "—" if value in (None, "") else truncatechars(str(value), 300)


def verbatim_word(claim):
    if claim.verification == Verification.NOT_FOUND:
        return "not found"
    return "found" if claim.verification == Verification.FOUND else "no transcript"


def verbatim_label(claim):
    """The word, and for an excerpt not found the nearest passage: on an episode's page,
    whose claims share its transcript (a list of claims would read one per row)."""
    if claim.verification == Verification.NOT_FOUND:
        return format_html("<strong>{}</strong>{}", "not found", explain_not_found(claim))
    return verbatim_word(claim)
