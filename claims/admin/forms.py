"""The forms editors fill in: a claim, a claim within its episode, a retraction."""

from django import forms
from django.core.exceptions import ValidationError
from django.utils.functional import cached_property

from claims import verbatim
from claims.admin.widgets import PlainWidgetRenderer
from claims.history import ClaimChange, stored_state
from claims.models import Claim, ClaimStatus, Verification
from claims.nearest import explain_not_found
from episodes.admin import EpisodeRowsFormSet

PLAIN_WIDGETS = PlainWidgetRenderer()


class ClaimForm(forms.ModelForm):
    correction_note = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2, "cols": 60}),
        help_text="Needed to change the excerpt, type or speaker of a published claim. "
        "Readers see it with the claim: say what was wrong.",
    )
    publish_unverified = forms.BooleanField(
        required=False,
        label="Publish unverified",
        help_text="Publish although the excerpt was not found in the episode's transcript.",
    )

    class Meta:
        model = Claim
        fields = (
            "episode",
            "number",
            "type",
            "status",
            "excerpt",
            "summary",
            "timestamp",
            "attribution",
            "speaker",
            "unresolved_label",
            "topics",
        )
        widgets = {
            "excerpt": forms.Textarea(attrs={"rows": 4, "cols": 60}),
            "summary": forms.TextInput(attrs={"size": 40}),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "episode" in self.fields:
            # The episode chosen comes with its transcript, which the verbatim check reads.
            self.fields["episode"].queryset = self.fields["episode"].queryset.select_related(
                "transcript"
            )
        # Retraction asks for a reason, so it has its own action; a retracted
        # claim keeps its status (and the form shows it as it is). A published
        # claim stays published until it is retracted.
        if "status" in self.fields and self.instance.status != ClaimStatus.RETRACTED:
            offered = (
                (ClaimStatus.PUBLISHED,)
                if self.instance.status == ClaimStatus.PUBLISHED and self.instance.pk
                else (ClaimStatus.DRAFT, ClaimStatus.PUBLISHED)
            )
            self.fields["status"].choices = [
                choice for choice in ClaimStatus.choices if choice[0] in offered
            ]

    def clean(self):
        cleaned = super().clean()
        episode = cleaned.get("episode") or getattr(self.instance, "_episode_for_checks", None)
        if episode is None and self.instance.episode_id:
            episode = self.instance.episode
        excerpt = cleaned.get("excerpt")
        if cleaned.get("status") == ClaimStatus.PUBLISHED and episode is not None and excerpt:
            stored = stored_state(self.instance)
            going_public = (
                stored is None
                or stored["status"] != ClaimStatus.PUBLISHED
                or stored["excerpt"] != excerpt
            )
            not_found = verbatim.check(excerpt, episode.transcript_text) == Verification.NOT_FOUND
            if going_public and not_found and not cleaned.get("publish_unverified"):
                self.add_error(
                    "publish_unverified",
                    "The excerpt was not found in the episode's transcript. Compare the two, "
                    "or tick “Publish unverified” to publish it as it is.",
                )
        return cleaned

    def _post_clean(self):
        # The model's clean() can't know the correction note; with the instance now
        # holding the form's values, the rules that need it are checked here.
        super()._post_clean()
        change = ClaimChange.of(self.instance, self.cleaned_data.get("correction_note", ""))
        for name, message in change.problems().items():
            if name not in self.errors:
                self.add_error(name if name in self.fields else None, message)

    def save_claim(self, *, changed_by) -> Claim:
        """Save through the claim's write path, with this form's correction note."""
        claim = self.instance
        claim.save(
            changed_by=changed_by,
            via="admin",
            correction_note=self.cleaned_data.get("correction_note", ""),
        )
        return claim


class ClaimInlineForm(ClaimForm):
    """A draft within its episode's page: the same checks, boxes sized to fit beside each other."""

    class Meta(ClaimForm.Meta):
        widgets = {
            "excerpt": forms.Textarea(attrs={"rows": 3, "cols": 90}),
            "summary": forms.TextInput(attrs={"size": 50}),
            "unresolved_label": forms.TextInput(attrs={"size": 14}),
        }

    # Said once on the claim's own page; repeated under every claim of an episode
    # they would push each claim's fields onto separate lines.
    QUIET_FIELDS = ("number", "excerpt", "speaker", "unresolved_label", "timestamp", "summary")
    # Said once above the drafts, each row's field described by it.
    SHARED_HELP = ("publish_unverified",)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in self.QUIET_FIELDS:
            if name in self.fields:
                self.fields[name].help_text = ""
        formset_prefix = self.prefix.rsplit("-", 1)[0]
        for name in self.SHARED_HELP:
            if name in self.fields:
                self.fields[name].help_text = ""
                self.fields[name].widget.attrs["aria-describedby"] = f"{formset_prefix}-help-{name}"

    def has_changed(self):
        # The blank claim below the ledger comes with its number filled in: the
        # number alone, left as offered, is not a claim to save.
        if self.instance.pk is None:
            return any(name != "number" for name in self.changed_data)
        return super().has_changed()


class ClaimInlineFormSet(EpisodeRowsFormSet):
    def __init__(self, *args, **kwargs):
        # Eighty drafts, a dozen widgets each: written without a template each (the
        # formset's renderer, which its forms take, is otherwise the factory's default).
        self.renderer = PLAIN_WIDGETS
        super().__init__(*args, **kwargs)
        # The blank claim below the ledger takes the next number: after the highest
        # of the claims on the page (read for the page anyway), never a gap's.
        numbers = [claim.number for claim in (*self.get_queryset(), *self.settled_claims)]
        self.initial_extra = [{"number": max(numbers, default=0) + 1}]

    @property
    def shared_help(self) -> list[tuple[str, str, str]]:
        """(id, label, text) of the help said once for all the rows (ClaimInlineForm.SHARED_HELP)."""
        fields = self.form.base_fields
        return [
            (f"{self.prefix}-help-{name}", fields[name].label, fields[name].help_text)
            for name in ClaimInlineForm.SHARED_HELP
            if name in fields
        ]

    @cached_property
    def settled_claims(self) -> list[Claim]:
        """The episode's published and retracted claims, shown as a table above its drafts
        (one query, the speakers with them; the episode is the page's own)."""
        if self.instance.pk is None:
            return []
        claims = list(
            Claim.objects.filter(episode=self.instance)
            .settled()
            .select_related("speaker")
            .order_by("number")
        )
        for claim in claims:
            claim.episode = self.instance
            if claim.verification == Verification.NOT_FOUND:
                # What differs, from the page's transcript (kept indexed per process).
                claim.nearest_passage = explain_not_found(claim)
        return claims

    def _construct_form(self, i, **kwargs):
        form = super()._construct_form(i, **kwargs)
        # The episode as it is being saved, so claims are checked against the
        # transcript in this same form, not the one stored.
        form.instance._episode_for_checks = self.instance
        return form

    def check_numbers_taken(self) -> None:
        """Refuse a number another claim holds until this save, which would save in conflict.

        The claims are saved one by one, and deleted after, so swapping two numbers,
        or taking the number of a claim deleted in the same save, would break the
        database's uniqueness half-way. (An inline form can't check it alone: the
        episode is the formset's, not the form's.)
        """
        # As stored: the forms' instances hold the numbers posted by now.
        holders = {form.initial.get("number"): form.instance for form in self.initial_forms}
        # The published and retracted claims, not on the form, keep theirs for good.
        settled = {claim.number: claim for claim in self.settled_claims}
        for form in self.forms:
            number = form.cleaned_data.get("number") if form.has_changed() else None
            if "number" not in form.fields or number is None:
                continue
            holder = holders.get(number)
            if number in settled:
                status = settled[number].get_status_display().lower()
                form.add_error(
                    "number",
                    f"Claim {number:02d} of this episode is {status} and keeps its number: "
                    "give this claim another.",
                )
            elif holder is not None and holder.pk != form.instance.pk:
                form.add_error(
                    "number",
                    f"Claim {number:02d} of this episode has this number until it is saved "
                    "with another: free the number in one save, then give it in the next.",
                )

    def check_still_drafts(self) -> None:
        """Refuse rows of claims no longer drafts: published, retracted or deleted since the
        page was opened, they are not this form's to change (nor to save again as new)."""
        if any(form.instance.pk is None for form in self.initial_forms):
            raise ValidationError(
                "A claim on this page was published, retracted or deleted since the page was "
                "opened: reload the page to see the episode's claims as they are now."
            )

    def get_unique_error_message(self, unique_check):
        if "number" in unique_check:
            return "Two claims of this episode have the same number: give each its own."
        return super().get_unique_error_message(unique_check)

    def save_claims(self, *, changed_by) -> None:
        """Save each changed claim through its write path, and delete the drafts marked."""
        changed = {id(claim) for claim in self.save(commit=False)}
        for form in self.forms:
            if id(form.instance) in changed:
                form.save_claim(changed_by=changed_by)
        for claim in self.deleted_objects:
            claim.delete()

    def clean(self):
        super().clean()
        self.check_still_drafts()
        self.check_numbers_taken()
        for form in self.deleted_forms:
            claim = form.instance
            if claim.pk and claim.status != ClaimStatus.DRAFT:
                raise ValidationError(
                    f"Claim {claim.label} is {claim.get_status_display().lower()}: only drafts "
                    "are deleted. Untick its “Delete” box; retract it from the claims list."
                )


class RetractForm(forms.Form):
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3, "cols": 70}),
        help_text="Shown on each claim's permalink in place of the excerpt. Say plainly why.",
    )
