import django_filters
from django.utils.text import Truncator

from claims import search
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
    a filter value can never reveal a draft.
    """

    q = django_filters.CharFilter(method="filter_text", label="Search")
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

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.query = search.parse(self.data.get("q", ""))
        # Set by the view when more claims match than are worth ranking (see order_for).
        self.too_many_to_rank = False

    def filter_text(self, queryset, name, value):
        # Scoring every match is wasted unless the results are shown by relevance.
        return self.matching(queryset, ranked=self.ordering == Ordering.RELEVANCE)

    def matching(self, queryset, ranked):
        if not self.query.is_searchable:
            return queryset.none()
        return search.search(queryset, self.query, ranked=ranked)

    def keep(self, queryset, name, value):
        return queryset  # ordering is applied last, in filter_queryset

    @property
    def ordering(self):
        chosen = self.form.cleaned_data.get("order") if self.is_bound else None
        rankable = self.query.is_searchable and not self.too_many_to_rank
        if chosen == Ordering.RELEVANCE and not rankable:
            chosen = None
        return chosen or (Ordering.RELEVANCE if rankable else Ordering.NEWEST)

    def filter_queryset(self, queryset):
        return self.apply_ordering(super().filter_queryset(queryset))

    def order_for(self, count):
        """Decide whether to rank, now that the matches are counted (up to a cap).

        Call it before reading `qs`. Ranking reads and scores every match before
        the first page can be shown: cheap for a few thousand, seconds for a word
        in most claims. Past the cap, matches are shown newest first, which an
        index answers at once; `ordering` then says "newest".
        """
        if getattr(count, "capped", False) and self.ordering == Ordering.RELEVANCE:
            self.too_many_to_rank = True

    def apply_ordering(self, queryset):
        if self.ordering == Ordering.RELEVANCE:
            return queryset.order_by("-rank", "-episode__air_date", "episode_id", "number")
        if self.ordering == Ordering.OLDEST:
            return queryset.order_by("episode__air_date", "episode_id", "number")
        return queryset.newest_first()

    def without(self, excluded):
        """The public claims under every current filter except `excluded`, to be counted.

        A search here is always the ranked kind, whatever the page's order: on
        SQLite only that joins the full-text index, whose order counting walks
        (search.newest_added_first); unranked, a rare word took 247 ms, not 3.
        """
        queryset = self.queryset
        for name, value in self.form.cleaned_data.items():
            if name == excluded:
                continue
            if name == "q" and value:
                queryset = self.matching(queryset, ranked=True)
            else:
                queryset = self.filters[name].filter(queryset, value)
        return queryset


def valid_filters(data, queryset):
    """A bound ClaimFilter, with any invalid value dropped and reported.

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
