"""The admin's own list filters, where Django's stock ones can't say what an editor needs."""

from django.contrib import admin
from django.db.models import Count, Q
from django.utils import timezone

from claims.choices import UNVERIFIED, Due
from claims.predictions import due_q


class VerificationFilter(admin.ChoicesFieldListFilter):
    """The verbatim check's three results, and "not verified": either of the two misses.

    "Not verified" is `verification__in=not_found,no_transcript`, the filter the
    admin home's review queue links to.
    """

    def __init__(self, field, request, params, model, model_admin, field_path):
        self.lookup_kwarg_in = f"{field_path}__in"
        self.lookup_val_in = params.get(self.lookup_kwarg_in)
        super().__init__(field, request, params, model, model_admin, field_path)

    def expected_parameters(self):
        return [*super().expected_parameters(), self.lookup_kwarg_in]

    def get_facet_counts(self, pk_attname, filtered_qs):
        return {
            **super().get_facet_counts(pk_attname, filtered_qs),
            "unverified__c": Count(pk_attname, filter=Q(**{self.lookup_kwarg_in: UNVERIFIED})),
        }

    def choices(self, changelist):
        every_kwarg = [self.lookup_kwarg, self.lookup_kwarg_isnull, self.lookup_kwarg_in]
        counts = self.get_facet_queryset(changelist) if changelist.add_facets else None

        def shown(title, key):
            return f"{title} ({counts[key]})" if counts else title

        yield {
            "selected": self.lookup_val is None and self.lookup_val_in is None,
            "query_string": changelist.get_query_string(remove=every_kwarg),
            "display": "All",
        }
        for i, (value, title) in enumerate(self.field.flatchoices):
            yield {
                "selected": self.lookup_val is not None and str(value) in self.lookup_val,
                "query_string": changelist.get_query_string(
                    {self.lookup_kwarg: value}, every_kwarg
                ),
                "display": shown(title, f"{i}__c"),
            }
        yield {
            "selected": self.lookup_val_in is not None,
            "query_string": changelist.get_query_string(
                {self.lookup_kwarg_in: ",".join(UNVERIFIED)}, every_kwarg
            ),
            "display": shown("Not verified (either)", "unverified__c"),
        }


class DueFilter(admin.SimpleListFilter):
    """An open prediction's horizon from today, as the claims browser's ?due= reads it."""

    title = "due"
    parameter_name = "due"

    def lookups(self, request, model_admin):
        return Due.choices

    def queryset(self, request, queryset):
        if self.value() in Due.values:
            return queryset.filter(due_q(self.value(), timezone.localdate()))
        return queryset
