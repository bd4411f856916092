""" "Report a problem" with a published claim: the one public page that takes a form.

The form page is never cached and is the only public page that sets a cookie
(CSRF's), so ledger/caching.py lets it through as a FORM_PAGE. A honeypot field
and a per-address rate limit keep bots and floods out of the editors' queue.
"""

from django import forms
from django.conf import settings
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from claims.models import Claim
from claims.reports import MESSAGE_MAX_LENGTH, Report, ReportKind
from ledger.rate_limits import AddressRateLimit

REPORT_LIMIT = AddressRateLimit("reports", seconds=3600)


class ReportForm(forms.ModelForm):
    # The honeypot: hidden from people by the page's style sheet and from assistive
    # technology by its container; a bot that fills every field fills this one too.
    website = forms.CharField(required=False, label="Leave this field empty")

    class Meta:
        model = Report
        fields = ("kind", "message", "email")
        labels = {
            "kind": "What is wrong?",
            "message": "Tell the editors what is wrong",
            "email": "Your email address (optional)",
        }
        help_texts = {
            "message": f"What you heard, or where to check it. Up to {MESSAGE_MAX_LENGTH:,} "
            "characters.",
            "email": "Only if you would like a reply. It is never published.",
        }
        widgets = {
            "kind": forms.RadioSelect,
            "message": forms.Textarea(attrs={"rows": 6, "maxlength": MESSAGE_MAX_LENGTH}),
            "email": forms.EmailInput(attrs={"autocomplete": "email"}),
        }
        error_messages = {
            "kind": {"required": "Choose what kind of problem it is."},
            "message": {"required": "Say what is wrong: a sentence or two is enough."},
            "email": {
                "invalid": "That is not an email address. Check it, or leave it empty: "
                "it is optional."
            },
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = ReportKind.choices
        self.fields["website"].widget.attrs.update({"autocomplete": "off", "tabindex": "-1"})

    @property
    def is_bait_taken(self) -> bool:
        return bool(self.data.get("website"))

    def clean_message(self):
        message = self.cleaned_data["message"]
        if len(message) > MESSAGE_MAX_LENGTH:
            raise forms.ValidationError(
                f"Keep it to {MESSAGE_MAX_LENGTH:,} characters: this is {len(message):,}. "
                "The editors will write back for more if you leave an email address."
            )
        return message


def published_claim(podcast_slug: str, episode_slug: str, number: int) -> Claim:
    """The published claim at this permalink; 404 for a draft, a retracted claim or none."""
    return get_object_or_404(
        Claim.objects.published().for_listing().at_permalink(podcast_slug, episode_slug, number)
    )


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def report_claim(request, podcast_slug, episode_slug, number):
    claim = published_claim(podcast_slug, episode_slug, number)
    sent = reverse("claims:claim_report_sent", args=[podcast_slug, episode_slug, number])
    form = ReportForm(request.POST if request.method == "POST" else None)
    status = 200
    if form.is_bound:
        if form.is_bait_taken:
            # Looks like success, so a bot learns nothing; nothing is stored.
            return redirect(sent)
        if form.is_valid():
            if REPORT_LIMIT.allows(request, settings.REPORTS_PER_HOUR):
                form.instance.claim = claim
                form.save()
                return redirect(sent)
            form.add_error(
                None,
                "Too many reports have come from your address in the last hour. Please try "
                "again later, or write to the editors (see About).",
            )
            status = 429
    return render(request, "claims/report_form.html", {"claim": claim, "form": form}, status=status)


def report_sent(request, podcast_slug, episode_slug, number):
    claim = published_claim(podcast_slug, episode_slug, number)
    return render(request, "claims/report_sent.html", {"claim": claim})
