"""A claim's links to other claims, curated on the claim's own page."""

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError

from claims.models import ClaimLink


class ClaimLinkForm(forms.ModelForm):
    """Checks every constraint of the link, with its claim from the page.

    An inline leaves the page's own claim out of the form's checks, and with it
    every constraint that names it: without this, a link to itself or one already
    made the other way would reach the database and fail there.
    """

    def _post_clean(self):
        super()._post_clean()
        link = self.instance
        if link.from_claim_id is None or link.to_claim_id is None:
            return  # a new claim on the add page: nothing yet to repeat or point at itself
        try:
            link.validate_constraints()
        except ValidationError as error:
            self.add_error(None, error)


class ClaimLinkFormSet(forms.BaseInlineFormSet):
    """Refuses the same pair and relation twice among the new rows, which the
    database would otherwise be the first to see."""

    def clean(self):
        super().clean()
        seen = set()
        for form in self.forms:
            link = form.instance
            if not form.has_changed() or self._should_delete_form(form):
                continue
            if link.from_claim_id is None or link.to_claim_id is None:
                continue
            pair = (link.from_claim_id, link.to_claim_id)
            key = (min(pair), max(pair), link.relation)
            if key in seen:
                raise ValidationError("The same two claims are linked twice by the same relation.")
            seen.add(key)


class LinksFromClaimInline(admin.TabularInline):
    """Links made from this claim: "this claim contradicts …"."""

    model = ClaimLink
    form = ClaimLinkForm
    formset = ClaimLinkFormSet
    fk_name = "from_claim"
    fields = ("relation", "to_claim", "note")
    autocomplete_fields = ("to_claim",)
    extra = 0
    verbose_name = "link to another claim"
    verbose_name_plural = (
        "Linked claims: this claim supports, contradicts, refines, repeats or responds to …"
    )

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("to_claim__episode")


class LinksToClaimInline(admin.TabularInline):
    """Links made from other claims to this one, editable here too: "… contradicts this claim"."""

    model = ClaimLink
    form = ClaimLinkForm
    formset = ClaimLinkFormSet
    fk_name = "to_claim"
    fields = ("from_claim", "relation", "note")
    autocomplete_fields = ("from_claim",)
    extra = 0
    verbose_name = "link from another claim"
    verbose_name_plural = "Linked from other claims: … supports, contradicts, refines, repeats or responds to this claim"

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("from_claim__episode")
