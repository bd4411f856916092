"""One search of the public claims, as the claims browser, the API, downloads and feeds ask it.

    found = ClaimSearch(request.GET)              # any QueryDict; Claim.objects.published() by default
    found.problems      # ["“bogus” is not a claim type, so it was ignored."]: the rest applies
    found.refused       # {"type": ["bogus"]}: those values, which the API refuses outright
    found.params        # the parameters that were kept (a QueryDict)
    found.chosen        # those parameters, cleaned: {"type": [...], "speaker": <Speaker>, ...}
    found.query         # the reader's text, parsed (claims.search.ParsedQuery)
    found.count         # Exactly(n), or AtLeast(cap) past the cap (lower for search text)
    found.facets        # how many claims each choice would show (claims.facets.Tally.for_template)
    found.ordering      # "relevance", "newest" or "oldest": what `ordered()` follows
    found.ordered()     # every match in that order, with what a claim card shows: stream it
    found.page()        # ?page= of those (or page(number, per_page)), excerpts highlighted
    found.matching_speakers, found.matching_episodes  # records whose names match the text

Nothing needs calling first: each answer is worked out when first asked for and
kept. `count` and `facets` come from one query; `ordering` asks for `count` only
when ranking is possible, because ranking stops being worth it past the cap.
"""

from django.core.paginator import Page
from django.db import connections
from django.db.models import Q, QuerySet
from django.http import QueryDict
from django.utils.functional import cached_property
from django.utils.text import Truncator

from claims import newest_page, pagination, search, search_sample
from claims.facets import tally
from claims.filters import Chosen, Ordering, query_problems, valid_filters
from claims.models import Claim, ClaimType
from claims.pagination import SEARCH_COUNT_CAP, AtLeast, CappedPaginator, Exactly
from claims.public_record import kept_claim_count, narrowing, public_claim_total
from claims.topics import walks_faster
from episodes.models import Episode, Speaker


class ClaimSearch:
    """The public claims that a set of parameters (a QueryDict) asks for: what this
    module's docstring lists, each answer worked out on first use."""

    per_page = 20
    # Speakers, podcasts and topics: the ones with the most matches (and the chosen one).
    facet_size = 12
    # Facets count at most this many claims, the newest: see claims/facets.py.
    facet_sample = 1_000
    # Search text's matches are counted up to this many, and ranked only up to it.
    search_count_cap = SEARCH_COUNT_CAP
    matching_records = 5

    def __init__(self, data: QueryDict, claims: QuerySet | None = None):
        self.data = data
        self._every_public_claim = claims is None
        self.claims = Claim.objects.published() if claims is None else claims
        self._pages = {}

    @cached_property
    def _validated(self) -> tuple[Chosen, list[str]]:
        return valid_filters(self.data)

    @cached_property
    def problems(self) -> list[str]:
        """One message per parameter whose value was ignored, and why the search text
        finds nothing when it has nothing to look for."""
        return self._validated[1] + query_problems(self.query) + self._page_problems()

    @property
    def params(self) -> QueryDict:
        return self._validated[0].data

    @property
    def chosen(self) -> dict:
        return self._validated[0].cleaned_data

    @property
    def refused(self) -> dict:
        """{name: [value]}: the values the page ignores and the API refuses."""
        return self._validated[0].refused

    @cached_property
    def query(self) -> search.ParsedQuery:
        return search.parse(self.params.get("q", ""))

    @cached_property
    def _tally(self):
        # Counted only where the ledger keeps no count (public_record.kept_claim_count).
        kept = kept_claim_count(self.chosen) if self._every_public_claim else None
        cap = self.search_count_cap if self.query.is_searchable else CappedPaginator.cap
        return tally(
            self, cap=cap, sample=self.facet_sample, known_count=kept, largest=self.facet_size
        )

    @property
    def _word_matches(self) -> int | None:
        """How many claims hold the search's words, when the count says so: nothing but
        the words narrows every public claim. Highlights read them (search.highlight)."""
        if self._every_public_claim and narrowing(self.chosen) == {"q"}:
            return self.count
        return None

    @property
    def count(self) -> Exactly | AtLeast:
        return self._tally.count

    @property
    def oldest_sampled(self) -> int | None:
        """The smallest id among the facets' sample when more claims match than it holds:
        the matches from it up are then the `facet_sample` most recently added, if the
        sample is by id (claims.newest_page, on SQLite); None when every match is in it."""
        return self._tally.oldest_sampled

    @property
    def facets(self) -> dict:
        """{"type": [(type, count, chosen)], "speaker"|"podcast"|"attribution":
        [(value, label, count)], "sampled": whether the counts are of a sample}."""
        chosen = {
            name: getattr(self.chosen.get(name), "slug", None)
            for name in ("speaker", "podcast", "topic")
        }
        return self._tally.for_template(self.chosen.get("type") or [], chosen, self.facet_size)

    @property
    def samples_by_air_date(self) -> bool:
        """Whether the count and the facets' sample take the matches most recently aired
        first rather than most recently added (claims/facets.py): for what narrows the
        episodes, a range of air dates, or a podcast, whose episodes an index walks newest
        first (SQLite sorted all of the biggest show's claims by id: 182 -> 20 ms).

        With search text, on PostgreSQL only and without a podcast: a range of dates
        (walked by id, a common word's matches before 2020 lay behind 630,000 newer ones:
        379 -> 55 ms at a million), and a word, or words any of which will do, so that a
        page shown newest first is the sample's first claims (ClaimSearch.page). Words
        together are read from windows of the newest ids (claims.search_sample). SQLite's
        index hands matches over by id, and by date read them all."""
        chosen = self.chosen
        dates = chosen.get("aired_from") or chosen.get("aired_to")
        if chosen.get("q"):
            one_word = not search_sample.words_together(self.query)
            return (bool(dates) or one_word) and not chosen.get("podcast") and self._on_postgresql
        return bool(dates or chosen.get("podcast"))

    @property
    def _on_postgresql(self) -> bool:
        return connections[self.claims.db].vendor == "postgresql"

    @property
    def ranking_asked(self) -> bool:
        chosen = self.chosen.get("order")
        return self.query.is_searchable and (not chosen or chosen == Ordering.RELEVANCE)

    @property
    def too_many_to_rank(self) -> bool:
        """Ranking reads and scores every match before the first page can be shown:
        past the count's cap, matches are shown newest first, which an index answers."""
        return self.ranking_asked and self.count.capped

    @property
    def ordering(self) -> str:
        if self.ranking_asked and not self.too_many_to_rank:
            return Ordering.RELEVANCE
        chosen = self.chosen.get("order")
        return chosen if chosen in (Ordering.NEWEST, Ordering.OLDEST) else Ordering.NEWEST

    def ordered(self, shown: int | None = None, newer_than: int | None = None) -> QuerySet:
        """Every match in `ordering`, with what a claim card shows. Scores the
        matches only when they are shown by relevance. `shown`: how many the caller
        reads from the start (a feed) or from where it left off (an API page), when
        it does not read them all; `newer_than`: an id, on SQLite, below which the
        full-text index is not asked (claims.newest_page)."""
        return self._in_order(shown, newer_than).for_listing()

    def _in_order(self, shown: int | None = None, newer_than: int | None = None) -> QuerySet:
        ordering = self.ordering
        claims = self._matching(
            ranked=ordering == Ordering.RELEVANCE, shown=shown, newer_than=newer_than
        )
        if self.air_date_field == "air_date":
            return claims.newest_first_kept()
        if ordering == Ordering.RELEVANCE:
            # Every match is scored and sorted, so the episodes lead no walk here: their
            # join only read each match's episode again (rare words at a million claims).
            return claims.order_by(*Ordering.RANKED_BY)
        # The page's claims are joined to their episodes, which order them and which their
        # cards show. Asked of the episodes too, the gate lets a planner walk the published
        # episodes by date, rather than sort every match (SQLite, for the overdue
        # predictions at a million claims: 201-228 -> 42-53 ms). Not where the claims' own
        # date orders them (above): SQLite then walked every published episode for the
        # claims in a contradiction, where their index hands over the newest: 372 ms.
        claims = claims.filter(Episode.public_q(prefix="episode__"))
        if ordering == Ordering.OLDEST:
            if self.reads_kept_dates:
                claims = claims.filter(self._episode_dates())
            return claims.order_by("episode__air_date", "episode_id", "number")
        return claims.newest_first()

    @property
    def air_date_field(self) -> str:
        """The field that gives each claim's air date in the newest or oldest order.

        The newest claims are read in order by the copy each claim keeps of its
        episode's date (newest_first_kept) from an index of the claims: one speaker's
        (SQLite sorted all 34,000 of a busy speaker's claims by their episodes' dates:
        243 -> 40 ms at a million), those of a range of dates (reads_kept_dates), those
        in a contradiction (SQLite sorted their 10,000 at a million: 1.2 s -> 1 ms) and,
        on PostgreSQL, the matches of search text from every podcast: a common word's
        walk that index, a rare word's are sorted, neither joined to its episodes (which
        PostgreSQL walked looking for a rare word's, 31 ms at ten million claims).
        Otherwise by the episodes' date, whose index walks a podcast's episodes, the
        whole ledger's, and the oldest of a range.
        """
        chosen = self.chosen
        kept = chosen.get("speaker") or self.reads_kept_dates or chosen.get("contradictions")
        searched = chosen.get("q") and not chosen.get("podcast") and self._on_postgresql
        if self.ordering == Ordering.NEWEST and (kept or searched):
            return "air_date"
        return "episode__air_date"

    @property
    def reads_kept_dates(self) -> bool:
        """Whether the claims of a range of air dates are counted, sampled and ordered by
        the date each claim keeps of its episode, from an index of the claims alone
        (claim_published_aired, and claim_published_type_aired for a type): without a
        podcast, whose episodes an index of the episodes walks, and without search text
        but on PostgreSQL (samples_by_air_date)."""
        return self.samples_by_air_date and not self.chosen.get("podcast")

    def _episode_dates(self) -> Q:
        """The chosen range of air dates, asked of the episodes too (the filter asks the
        date each claim keeps): a planner that joins the episodes can then walk their
        index of dates within the range, a podcast's or the oldest first."""
        chosen, dates = self.chosen, Q()
        if chosen.get("aired_from"):
            dates &= Q(episode__air_date__gte=chosen["aired_from"])
        if chosen.get("aired_to"):
            dates &= Q(episode__air_date__lte=chosen["aired_to"])
        return dates

    def page(self, number: int | str | None = None, per_page: int | None = None) -> Page:
        """That page of `ordered()`, its excerpts highlighted: one query for the rows
        (two for a search that may be ranked), one for the highlights. `number` is the data's ?page= unless
        given; one that is not a page number gives the first page, one past the end the last."""
        per_page = per_page or self.per_page
        number = self.params.get("page") if number is None else number
        key = (str(number), per_page)
        if key not in self._pages:
            wanted = pagination.parsed_page_number(number) or 1
            shown = wanted * per_page
            ids = self._ids_up_to(shown)
            claims = self._in_order(shown).for_cards() if ids is None else ids
            paginator = CappedPaginator(claims, per_page, count=self.count)
            page = paginator.page(min(wanted, paginator.num_pages))
            if ids is not None:
                page.object_list = _cards(list(page.object_list))
            search.highlight(page.object_list, self.query, matches=self._word_matches)
            self._pages[key] = page
        return self._pages[key]

    def _ids_up_to(self, shown: int) -> list[int] | QuerySet | None:
        """The ids of the first `shown` claims in order, when a page is picked by id
        before its cards are read; None when the cards are read in order at once.

        A search that asks to be ranked picks its page by id whether it is ranked or,
        past the count's cap, newest first: its queries do not change with how many
        claims match. Where the facets' sample is taken by air date (on PostgreSQL,
        samples_by_air_date), a search's first pages newest first or ranked come with the
        counts (Tally.first_ids): the matches are not read again, which took a rare
        word's 7,000 at ten million claims 14 ms newest first, and its 700 at a million
        2 ms to rank. A common word's first pages on SQLite come from the newest claims.
        """
        ids = self._tally.first(self.ordering, shown)
        if ids is not None:
            return ids
        if newest_page.applies(self, shown):
            ids = newest_page.first_ids(self, shown)
            if ids is not None:
                return ids
        if self.ranking_asked:
            return self._in_order(shown=shown).values_list("pk", flat=True)
        return None

    def _page_problems(self) -> list[str]:
        raw = self.params.get("page")
        if not raw:
            return []
        number = pagination.parsed_page_number(raw)
        if number is None:
            return [
                f"“{Truncator(raw).chars(40)}” is not a page number, so the first page is shown."
            ]
        last = CappedPaginator([], self.per_page, count=self.count).num_pages
        if number > last:
            return [
                f"There is no page {number} of these claims, so the last, page {last}, is shown."
            ]
        return []

    def without(self, excluded: str | None, shown: int | None = None, walked=False) -> QuerySet:
        """The claims under every current filter except `excluded`, unordered, to be counted
        (or `shown` of them read in order); `walked`: each claim asked for the search's
        words, as no index can (claims.search_sample).

        A search here is always the ranked kind, whatever the order shown: on SQLite only
        that joins the full-text index, whose order counting walks (search.newest_added_first).
        """
        return self._matching(ranked=True, excluded=excluded, shown=shown, walked=walked)

    def _matching(
        self,
        ranked: bool,
        excluded: str | None = None,
        shown: int | None = None,
        newer_than: int | None = None,
        walked: bool = False,
    ) -> QuerySet:
        """The matches; `shown`: how many the caller reads in order, when it reads only some."""
        claims = self.claims
        if self.chosen.get("q") and excluded != "q":
            if not self.query.is_searchable:
                return claims.none()
            within = self._within(excluded)
            claims = search.search(claims, self.query, ranked, newer_than, within, walked)
        claims = self._validated[0].narrow(claims, excluded, self._walks_topic(shown))
        return claims if self.reads_kept_dates else claims.filter(self._episode_dates())

    def _within(self, excluded: str | None) -> search.Within:
        """The chosen speaker and types, but `excluded`, for the full-text index to narrow to.

        An outcome or a horizon lets only predictions through: asked of the index too,
        SQLite reads the word's matches among them rather than among every claim (a
        common word's 620,000 at a million, to count and rank: 715 -> 300 ms)."""
        speaker = self.chosen.get("speaker") if excluded != "speaker" else None
        types = self.chosen.get("type") if excluded != "type" else None
        if any(self.chosen.get(name) for name in ("resolution", "due") if name != excluded):
            # Whatever types are chosen besides: the filters still ask them of the claims.
            types = [ClaimType.PREDICTION]
        return search.Within(speaker_id=speaker and speaker.pk, types=tuple(types or ()))

    def _walks_topic(self, shown: int | None) -> bool:
        """Whether to find `shown` claims of the chosen topic, in order, by walking the
        ledger and asking each claim (topics.walks_faster, from the kept counts).
        A search's matches come from the full-text index, whichever way a topic is asked."""
        topic = self.chosen.get("topic")
        if not (shown and topic) or self.chosen.get("q"):
            return False
        return walks_faster(topic.public_claim_count, self._ledger_total, shown)

    @cached_property
    def _ledger_total(self) -> int:
        return public_claim_total()

    @cached_property
    def matching_speakers(self) -> list[Speaker]:
        """Up to `matching_records` speakers in the public record whose names hold a word
        of the search (of three letters or more)."""
        words = [word for word in self.query.words if len(word) >= 3]
        if not words:
            return []
        # By their kept count of public claims (claims.counters): asking the claims
        # whether each one has any read an index of claims per name that matched.
        return list(
            Speaker.objects.named_like(words)
            .filter(public_claim_count__gt=0)
            .order_by("name")
            .only("name", "slug")[: self.matching_records]
        )

    @cached_property
    def matching_episodes(self) -> list[Episode]:
        """Up to `matching_records` published episodes whose titles hold every word of the search."""
        if not self.query.words:
            return []
        return list(
            Episode.objects.published()
            .select_related("podcast")
            .only("title", "slug", "podcast__slug")
            .newest_titled_like(self.query.words, self.matching_records)
        )


def _cards(ids: list[int]) -> list[Claim]:
    """The claims with these ids, in this order, with what a claim card shows.

    A ranked page is chosen first, by id, and only its claims are then read with
    their episodes, podcasts and speakers: joined to every match before the best
    twenty were picked, PostgreSQL read every episode and speaker in the ledger.
    """
    cards = Claim.objects.filter(pk__in=ids).for_cards().in_bulk()
    return [cards[pk] for pk in ids]
