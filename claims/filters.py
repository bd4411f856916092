import django_filters
from django.http import QueryDict
from django.utils.text import Truncator

from claims.models import Attribution, Claim, ClaimType
from episodes.models import Episode, Podcast


class Ordering:
    RELEVANCE = "relevance"
    NEWEST = "newest"
    OLDEST = "oldest"
    CHOICES = ((RELEVANCE, "Most relevant"), (NEWEST, "Newest first"), (OLDEST, "Oldest first"))


class ClaimFilter(django_filters.FilterSet):
    """Every way a reader can narrow the public claims; the URL carries all of it.

    Speakers, podcasts and episodes are looked up among public records only, so
    a filter value can never reveal a draft. The search text (`q`) and the order
    are validated here but applied by claims.browse.ClaimSearch, which decides
    whether the matches are worth ranking.
    """

    q = django_filters.CharFilter(method="keep", label="Search")
    # distinct=False: a claim has one type, so no join can repeat it (and DISTINCT
    # over a million rows is a sort of them all).
    type = django_filters.MultipleChoiceFilter(
        choices=ClaimType.choices, label="Type", distinct=False
    )
    speaker = django_filters.ModelChoiceFilter(
        queryset=Claim.objects.published().speakers(), to_field_name="slug", label="Speaker"
    )
    attribution = django_filters.ChoiceFilter(choices=Attribution.choices, label="Attribution")
    podcast = django_filters.ModelChoiceFilter(
        field_name="episode__podcast",
        queryset=Podcast.objects.public(),
        to_field_name="slug",
        label="Podcast",
    )
    episode = django_filters.ModelChoiceFilter(
        queryset=Episode.objects.published().select_related("podcast"), label="Episode"
    )
    aired_from = django_filters.DateFilter(
        field_name="episode__air_date", lookup_expr="gte", label="Aired from"
    )
    aired_to = django_filters.DateFilter(
        field_name="episode__air_date", lookup_expr="lte", label="Aired until"
    )
    order = django_filters.ChoiceFilter(
        choices=Ordering.CHOICES, method="keep", label="Order", empty_label=None
    )

    def keep(self, queryset, name, value):
        return queryset

    def narrow(self, queryset, excluded=None):
        """`queryset` under every chosen filter but `excluded` (a name), in field order."""
        for name, value in self.form.cleaned_data.items():
            if name != excluded:
                queryset = self.filters[name].filter(queryset, value)
        return queryset


def valid_filters(data: QueryDict, queryset) -> tuple[ClaimFilter, list[str]]:
    """A bound, valid ClaimFilter, with any invalid value dropped and reported.

    Returns (filters, problems): a bogus ?type= or an unknown ?speaker= must not
    hide the reader's other filters, nor fail the page.
    """
    data = data.copy()
    for name, values in data.lists():
        # NUL bytes can't be stored or searched, and mean nothing to a reader.
        data.setlist(name, [value.replace("\x00", " ") for value in values])
    filters = ClaimFilter(data, queryset=queryset)
    problems = []
    if not filters.is_valid():
        for name, errors in filters.errors.items():
            label = filters.filters[name].label if name in filters.filters else "Filters"
            values = ", ".join(f"“{Truncator(value).chars(40)}”" for value in data.getlist(name))
            problems.append(f"{label} {values} was ignored: {' '.join(errors)}")
            data.pop(name, None)
        filters = ClaimFilter(data, queryset=queryset)
        filters.is_valid()  # what is left is valid; this fills form.cleaned_data
    return filters, problems
