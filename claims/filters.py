from dataclasses import dataclass

import django_filters
from django.core.exceptions import ValidationError
from django.db.models import Exists, OuterRef
from django.http import QueryDict
from django.utils import timezone
from django.utils.text import Truncator

from claims.choices import Due, Resolution
from claims.models import Attribution, Claim, ClaimType, Topic
from claims.predictions import due_q
from claims.search import MAX_QUERY_LENGTH
from claims.topics import tagged
from episodes.models import Episode, Podcast


class Ordering:
    RELEVANCE = "relevance"
    NEWEST = "newest"
    OLDEST = "oldest"
    CHOICES = ((RELEVANCE, "Most relevant"), (NEWEST, "Newest first"), (OLDEST, "Oldest first"))
    # Matches by relevance: those matched in the excerpt first, then by score, then the
    # newest, as their episodes list them (ClaimSearch._in_order, facets' first ids).
    RANKED_BY = ("-in_excerpt", "-rank", "-air_date", "episode_id", "number")


# ?contradictions=only: the claims that contradict, or are contradicted by, another public claim.
CONTRADICTIONS_CHOICES = (("only", "Only claims in a contradiction"),)


# The filters' methods: functions rather than methods of the FilterSet, so that the
# declared filters narrow claims without a FilterSet of their own (Chosen.narrow).


def kept(queryset, name, value):
    """Validated with the rest, applied by claims.browse.ClaimSearch."""
    return queryset


def of_predictions(queryset, name, value):
    # Every claim rests at "open": an outcome is asked of predictions only.
    return queryset.filter(type=ClaimType.PREDICTION, resolution=value)


def due_from_today(queryset, name, value):
    return queryset.filter(due_q(value, timezone.localdate()))


def in_a_contradiction(queryset, name, value):
    # Kept on the claim (links.KeptContradiction), which an index of them holds.
    return queryset.filter(in_contradiction=True)


class ClaimFilter(django_filters.FilterSet):
    """Every way a reader can narrow the public claims; the URL carries all of it.

    Declared here, never bound as a FilterSet: the claims browser, the API and the
    feeds clean a request's values with its form's fields (valid_filters) and narrow
    the claims with its filters (Chosen.narrow). Speakers, podcasts and episodes are
    looked up among public records only, so a filter value can never reveal a draft.
    The search text (`q`) and the order are validated here but applied by
    claims.browse.ClaimSearch, which decides whether the matches are worth ranking.
    """

    q = django_filters.CharFilter(method=kept, label="Search")
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
    # A claim has a topic at most once, so the join repeats no claim.
    topic = django_filters.ModelChoiceFilter(
        field_name="topics",
        queryset=Topic.objects.filter(
            Exists(Claim.objects.published().filter(topics=OuterRef("pk")))
        ),
        to_field_name="slug",
        label="Topic",
    )
    # By the air date each claim keeps of its episode (Claim.refresh_derived_fields),
    # which an index of the claims holds beside their type: no episode is read to count.
    aired_from = django_filters.DateFilter(
        field_name="air_date", lookup_expr="gte", label="Aired from"
    )
    aired_to = django_filters.DateFilter(
        field_name="air_date", lookup_expr="lte", label="Aired until"
    )
    resolution = django_filters.ChoiceFilter(
        choices=Resolution.choices, label="Outcome", method=of_predictions
    )
    due = django_filters.ChoiceFilter(choices=Due.choices, label="Due", method=due_from_today)
    contradictions = django_filters.ChoiceFilter(
        choices=CONTRADICTIONS_CHOICES, label="Contradictions", method=in_a_contradiction
    )
    order = django_filters.ChoiceFilter(
        choices=Ordering.CHOICES, method=kept, label="Order", empty_label=None
    )

    @classmethod
    def form_class(cls) -> type:
        """The form that cleans the filters' values, built once from the declared filters:
        django-filter builds a form class, and a form field for each filter, for every
        FilterSet (0.3 ms of each page of the claims browser)."""
        if "_form_class" not in cls.__dict__:
            fields = {name: declared.field for name, declared in cls.base_filters.items()}
            cls._form_class = type(f"{cls.__name__}Form", (cls._meta.form,), fields)
        return cls._form_class


@dataclass(frozen=True)
class Chosen:
    """What a reader chose: the parameters kept (`data`, a QueryDict without the values
    that were dropped), each filter's cleaned value (`cleaned_data`) and the values
    dropped (`refused`: {name: [value]}, in the filters' order)."""

    data: QueryDict
    cleaned_data: dict
    refused: dict

    def narrow(self, queryset, excluded=None, walk_topic=False):
        """`queryset` under every chosen filter but `excluded` (a name), in field order.

        With `walk_topic`, the topic is asked of each claim walked rather than joined
        from its links, which reads and sorts all of them (SQLite: 0.2 s for a topic of
        50,000 claims): for a big topic of which a caller reads a few claims in order.
        """
        for name, value in self.cleaned_data.items():
            if name == excluded:
                continue
            if name == "topic" and value:
                queryset = tagged(queryset, value, walk_topic)
            else:
                queryset = ClaimFilter.base_filters[name].filter(queryset, value)
        return queryset


# What a bad value is not, for "“bogus” is not a claim type, so it was ignored."
NOT_A = {
    "type": "a claim type",
    "speaker": "a speaker in the public record",
    "podcast": "a podcast in the public record",
    "episode": "a published episode",
    "topic": "a topic in the public record",
    "attribution": "an attribution (identified or unresolved)",
    "aired_from": "a date like 2026-03-01",
    "aired_to": "a date like 2026-03-01",
    "order": "an order (relevance, newest or oldest)",
    "resolution": "an outcome (open, came_true, did_not_come_true, partly or cannot_be_resolved)",
    "due": "a horizon (overdue, soon, later or no_horizon)",
    "contradictions": "a contradictions filter (the one choice is “only”)",
}


def valid_filters(data: QueryDict) -> tuple[Chosen, list[str]]:
    """What `data` chooses, with any invalid value dropped and reported.

    Returns (chosen, problems): a bogus ?type= or an unknown ?speaker= must not
    hide the reader's other filters, nor fail the page.
    """
    data = data.copy()
    for name, values in data.lists():
        # NUL bytes can't be stored or searched, and mean nothing to a reader.
        data.setlist(name, [value.replace("\x00", " ") for value in values])
    cleaned, invalid = _cleaned(data)
    refused = {}
    for name in invalid:
        if name == "type":
            # One bad type among good ones leaves the good ones chosen.
            values = data.pop(name)
            refused[name] = [value for value in values if value not in ClaimType.values]
            if good := [value for value in values if value not in refused[name]]:
                data.setlist(name, good)
        else:
            refused[name] = [data.pop(name)[-1]]
    if invalid:
        # Only the fields that failed are cleaned again, with what is left of their
        # values: the others would look their speaker or podcast up a second time.
        cleaned, _ = _cleaned(data, kept=cleaned)
    problems = [
        f"{is_not(name, value)}, so it was ignored."
        for name, values in refused.items()
        for value in values
    ]
    return Chosen(data, cleaned, refused), problems


def is_not(name: str, value: str) -> str:
    """What a refused value of filter `name` is not: “bogus” is not a claim type."""
    return f"“{Truncator(value).chars(40)}” is not {NOT_A[name]}"


def _cleaned(data: QueryDict, kept: dict | None = None) -> tuple[dict, list[str]]:
    """({name: cleaned value} of the valid filters, [names of the invalid ones]), as a bound
    ClaimFilter's form would find them, in field order; the values in `kept` are taken
    as they are. Its fields are shared rather than copied, as a form copies them for each
    instance, querysets and choices too, for it to change them: cleaning changes nothing,
    and the copies cost 0.4 ms of every request of the claims browser, the API and the
    feeds."""
    cleaned, invalid = {}, []
    for name, field in ClaimFilter.form_class().base_fields.items():
        if kept and name in kept:
            cleaned[name] = kept[name]
            continue
        try:
            cleaned[name] = field.clean(field.widget.value_from_datadict(data, {}, name))
        except ValidationError:
            invalid.append(name)
    return cleaned, invalid


def query_problems(query) -> list[str]:
    """What a reader is told about their search text (a claims.search.ParsedQuery): cut
    short, or with nothing left to look for."""
    problems = []
    if query.truncated:
        problems.append(
            f"Your search was long, so only its first {MAX_QUERY_LENGTH} characters were used."
        )
    if query.text and not query.is_searchable:
        if query.dropped_stop_words:
            problems.append(
                f"{query.in_quotes} is too common to search: it holds only words like “the” "
                "or “and”. Try a more specific word."
            )
        elif query.excluded:
            problems.append(
                "A search needs at least one word to look for: -word only leaves words out. "
                "Try a more specific word."
            )
        else:
            problems.append(
                f"{query.in_quotes} has no words to look for. Try a more specific word."
            )
    return problems
