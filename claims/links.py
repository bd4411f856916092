"""Claims linked to claims: "this claim contradicts that one", curated by editors.

A link reads from the linking claim ("A contradicts B"); the other claim's page
reads it the other way ("B is contradicted by A"). A link is public only while
both of its claims are: a draft at either end hides it everywhere.
"""

from dataclasses import dataclass

from django.db import models
from django.db.models import Case, Exists, F, OuterRef, Q, When
from django.db.models.functions import Greatest, Least

from claims.choices import GATE, INVERSE_WORDING, Relation
from claims.querysets import public_q
from ledger.models import RecordQuerySet, unseen_by_readers

# Relations by which a speaker's later claim tells how their position moved.
MOVED = (Relation.CONTRADICTS, Relation.REFINES, Relation.REPEATS)
# Relations that read the same both ways: either claim may be the later one.
SYMMETRIC = (Relation.CONTRADICTS, Relation.REPEATS)
_SIDES = ("from_claim", "to_claim")


# On the claims table (Claim.Meta.indexes): a speaker's published claim ids from the
# index alone; and the public claims in a contradiction (KeptContradiction): newest
# added first, which ?contradictions=only counts and samples from the index alone, and
# by the air date each keeps, in which its pages list them.
CLAIM_INDEXES_FOR_LINKS = [
    models.Index(
        fields=("speaker", "id", *GATE),
        condition=Q(status="published"),
        name="claim_published_speaker",
    ),
    # Its columns are those of its condition too: SQLite reads a partial index alone only
    # when it holds every column the query asks, the condition's included.
    models.Index(
        fields=("id", "status", "in_contradiction", *GATE),
        condition=Q(in_contradiction=True, status="published", episode_published=True),
        name="claim_in_contradiction",
    ),
    # The same claims led by the status the public gate asks, then the type, so that
    # SQLite can search them by those. The index above, led by the id a search's matches
    # are looked up by, SQLite could only scan, and it preferred to search
    # claim_status_type and read every public claim (at a million claims:
    # ?contradictions=only&order=oldest 1,039 -> 77 ms, with a podcast 1,260 -> 289 ms,
    # of a type 248-269 -> 49-52 ms). The condition's columns are held for the reason above.
    models.Index(
        fields=("status", "type", "id", "in_contradiction", *GATE),
        condition=Q(in_contradiction=True, status="published", episode_published=True),
        name="claim_contradiction_type",
    ),
    models.Index(
        fields=("-air_date", "episode", "number", *GATE, "status", "in_contradiction"),
        condition=Q(in_contradiction=True, status="published", episode_published=True),
        name="claim_contradiction_aired",
    ),
]


class KeptContradiction(models.Model):
    """On the claim, whether it is in a contradiction (contradicting()), kept by
    refresh_contradictions() whenever a link or a claim at its other end changes.
    Asked of the links at read time, ?contradictions=only looked up both ends of every
    contradiction in the ledger to count them: 97 ms on SQLite, 279 ms on PostgreSQL
    at a million claims."""

    in_contradiction = models.BooleanField(default=False, editable=False)

    class Meta:
        abstract = True


class ClaimLinkQuerySet(RecordQuerySet):
    def public(self):
        """Links whose two claims are both public: the only ones readers see."""
        return self.filter(public_q("from_claim__"), public_q("to_claim__"))

    def touching(self, claims):
        """Links with either end among `claims` (claims, their ids, or a subquery)."""
        return self.filter(Q(from_claim__in=claims) | Q(to_claim__in=claims))

    def touching_episodes(self, episodes):
        """Links with either end among the claims of `episodes` (episodes or their ids)."""
        return self.filter(Q(from_claim__episode__in=episodes) | Q(to_claim__episode__in=episodes))

    def refresh_kept(self) -> tuple[int, set[int]]:
        """Set again on these links what they keep of their claims (kept_of_claims), in
        batches: after a claim's speaker or air date changed, or links were written in
        bulk. Returns how many links changed, and the speakers (ids) whose moves changed,
        to be counted again."""
        rows = self.values_list(
            "pk",
            "relation",
            "shared_speaker",
            "moved_on",
            *(f"{side}__{field}" for side in _SIDES for field in ("speaker", "air_date")),
        )
        changed, speakers = [], set()
        for pk, relation, shared, moved_on, *ends in rows.order_by().iterator(chunk_size=2000):
            kept = kept_of_claims(relation, *ends)
            if kept != (shared, moved_on):
                changed.append(self.model(pk=pk, shared_speaker_id=kept[0], moved_on=kept[1]))
                speakers |= {shared, kept[0]} - {None}
        self.model.objects.bulk_update(changed, ["shared_speaker", "moved_on"], batch_size=500)
        return len(changed), speakers

    def claim_ids(self):
        """The ids of the claims at either end of these links, as one subquery."""
        links = self.order_by()
        return links.values("from_claim").union(links.values("to_claim"))

    def refresh_contradictions(self) -> int:
        """refresh_contradictions() of the claims at either end of these links."""
        return refresh_contradictions(_claims().filter(pk__in=self.claim_ids()))


class ClaimLink(models.Model):
    from_claim = models.ForeignKey(
        "claims.Claim",
        on_delete=models.CASCADE,
        related_name="links_from",
        verbose_name="claim",
    )
    relation = models.CharField(
        max_length=12,
        choices=Relation.choices,
        help_text="Read from this claim: this claim supports, contradicts, refines, repeats "
        "or responds to the other.",
    )
    to_claim = models.ForeignKey(
        "claims.Claim",
        on_delete=models.CASCADE,
        related_name="links_to",
        verbose_name="other claim",
    )
    note = models.CharField(
        max_length=300,
        blank=True,
        help_text="Optional: one line on how the two claims bear on each other. Shown to readers.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # The speaker of both claims, when they have the same one; and, when the link tells
    # how that speaker's position moved (see moves_of()), the later claim's air date.
    # Kept (save(), and refresh_kept() when a claim's speaker or date changes) so that a
    # speaker's latest moves are read in order from an index: through their claims,
    # ordering every one of a prolific speaker's 500 moves took 5-10 ms at a million.
    shared_speaker = models.ForeignKey(
        "episodes.Speaker",
        on_delete=models.SET_NULL,
        null=True,
        editable=False,
        related_name="+",
        db_index=False,
    )
    moved_on = models.DateField(null=True, editable=False)

    objects = ClaimLinkQuerySet.as_manager()

    class Meta:
        ordering = ("from_claim", "relation", "to_claim")
        verbose_name = "linked claim"
        constraints = [
            models.CheckConstraint(
                condition=~Q(from_claim=F("to_claim")),
                name="claim_link_not_to_itself",
                violation_error_message="A claim cannot be linked to itself.",
            ),
            models.CheckConstraint(
                condition=Q(relation__in=Relation.values), name="claim_link_relation_valid"
            ),
            # One link per pair and relation, whichever way it was entered: "B contradicts
            # A" says what "A contradicts B" already does, and "A refines B" with "B
            # refines A" says nothing. Its index also finds a claim's links from either end.
            models.UniqueConstraint(
                Least("from_claim", "to_claim"),
                Greatest("from_claim", "to_claim"),
                F("relation"),
                name="claim_link_unique_pair",
                violation_error_message="These two claims are already linked by this relation "
                "(in one direction or the other).",
            ),
        ]
        indexes = [
            models.Index(
                fields=("shared_speaker", "-moved_on"),
                condition=Q(moved_on__isnull=False),
                name="claim_link_moves",
            ),
        ]

    def __str__(self):
        return f"{self.from_claim} {self.get_relation_display()} {self.to_claim}"

    def save(self, *args, **kwargs):
        ends = (
            getattr(claim, field)
            for claim in (self.from_claim, self.to_claim)
            for field in ("speaker_id", "air_date")
        )
        self.shared_speaker_id, self.moved_on = kept_of_claims(self.relation, *ends)
        super().save(*args, **kwargs)

    def get_absolute_url(self):
        return self.from_claim.get_absolute_url()


def kept_of_claims(relation, from_speaker, from_date, to_speaker, to_date) -> tuple:
    """What a link keeps of its two claims: the speaker both have (or None); and the later
    claim's air date if the link tells how that speaker's position moved (or None): a
    contradiction or repetition of a claim of another day, or a refinement of an earlier
    one (a refinement read from the earlier claim is no move)."""
    shared = from_speaker if from_speaker == to_speaker else None
    moved = (
        shared is not None
        and relation in MOVED
        and None not in (from_date, to_date)
        and from_date != to_date
        and (relation in SYMMETRIC or from_date > to_date)
    )
    return shared, max(from_date, to_date) if moved else None


@dataclass(frozen=True)
class LinkedClaim:
    """A link as one of its claims' pages shows it: "Contradicted by" the other claim."""

    relation: str
    # Whether the link was made from the other claim, so reads the inverse way.
    inverse: bool
    claim: object
    note: str

    @property
    def wording(self) -> str:
        relation = Relation(self.relation)
        return INVERSE_WORDING[relation] if self.inverse else relation.label

    def sort_key(self):
        return (Relation.values.index(self.relation), self.inverse, _when(self.claim))


def attach_public_links(claims) -> None:
    """Give each of `claims` its public links as `public_links`: [LinkedClaim], in
    relation order (each relation's inverse after it), then the other claim's air date.
    Two queries whatever the links: the links, and the claims at their ends. In one
    query with those claims, their episodes, podcasts and speakers, PostgreSQL spent
    4 ms planning the nine joins to read a claim's one link. The ends are named by id,
    as the links gave them: asked for by the links again, in a subquery, PostgreSQL
    took 6.3 ms to read twenty claims' ends, planning the links' joins a second time."""
    by_id = {claim.pk: claim for claim in claims}
    for claim in by_id.values():
        claim.public_links = []
    if not by_id:
        return
    public_links = ClaimLink.objects.public().touching(by_id)
    links = list(public_links.order_by().values_list("from_claim", "relation", "to_claim", "note"))
    ends = {pk for from_id, _, to_id, _ in links for pk in (from_id, to_id)}
    # Asked even when there are none (no claim has id 0), so that a page's queries don't
    # depend on its links; and through the public gate again, for a claim unpublished
    # since the links were read.
    others = _claims().published().filter(pk__in=ends or [0]).for_cards().in_bulk()
    for from_id, relation, to_id, note in links:
        # A claim unpublished between the two queries is left out, not a KeyError.
        if from_id in by_id and to_id in others:
            by_id[from_id].public_links.append(LinkedClaim(relation, False, others[to_id], note))
        if to_id in by_id and from_id in others:
            by_id[to_id].public_links.append(LinkedClaim(relation, True, others[from_id], note))
    for claim in by_id.values():
        claim.public_links.sort(key=LinkedClaim.sort_key)


@dataclass(frozen=True)
class MovedPosition:
    """A speaker's later claim that contradicts, refines or repeats their earlier one."""

    earlier: object
    relation: str
    later: object
    note: str


def moves_of(speaker) -> models.QuerySet:
    """The public links between the speaker's own claims by which a later claim
    contradicts, refines or repeats an earlier one (those that keep a `moved_on`), in
    time order of the later claim."""
    # Read in order of the date they keep (index claim_link_moves), and only then are the
    # claims shown fetched: in one query with the claims, their episodes, podcasts and
    # speakers, PostgreSQL took 26 ms to plan the nine joins; and making all 500 moves
    # of a prolific speaker into objects, 100 ms.
    later_first = [_side(True, path) for path in _WHEN[1:]]
    return (
        ClaimLink.objects.public()
        .filter(shared_speaker=speaker, moved_on__isnull=False)
        .order_by("moved_on", *later_first, *(_side(False, path) for path in _WHEN), "pk")
    )


MOVE_ROW = ("relation", "note", "from_claim", "to_claim")


def latest_moves(speaker, latest: int) -> list[MovedPosition]:
    """The latest `latest` of the speaker's moves (moves_of), still in time order. One
    query if they have none on record (as they keep: Speaker.public_move_count), two if
    they have."""
    if not speaker.public_move_count:
        return []
    return as_moves(moves_of(speaker).reverse().values_list(*MOVE_ROW)[:latest][::-1])


def as_moves(rows) -> list[MovedPosition]:
    """MovedPositions of rows of MOVE_ROW, in their order, with their claims: one query."""
    shown = {ends for *_, from_id, to_id in rows for ends in (from_id, to_id)}
    claims = _claims().filter(pk__in=shown).for_cards().in_bulk()
    moved = []
    for relation, note, from_id, to_id in rows:
        earlier, later = sorted((claims[from_id], claims[to_id]), key=_when)
        moved.append(MovedPosition(earlier, Relation(relation).label, later, note))
    return moved


# A claim's place in time (_when), as the claim keeps it; and whether a link's claim
# is the later.
_WHEN = ("air_date", "episode_id", "number")
FROM_IS_LATER = Q(from_claim__air_date__gt=F("to_claim__air_date"))


def _side(is_later: bool, path: str) -> Case:
    """`path` of the link's later claim (or earlier, with is_later=False)."""
    first, second = ("from_claim", "to_claim") if is_later else ("to_claim", "from_claim")
    return Case(When(FROM_IS_LATER, then=F(f"{first}__{path}")), default=F(f"{second}__{path}"))


def _claims():
    """Claim's manager: claims.models imports this module, so it cannot be imported here."""
    return ClaimLink._meta.get_field("from_claim").related_model.objects


def _when(claim):
    return (claim.episode.air_date, claim.episode_id, claim.number)


def contradicting() -> Q:
    """Whether a claim (the outer query's) contradicts, or is contradicted by, a public
    claim: what KeptContradiction keeps. Its own state is the public gate's to ask."""
    links = ClaimLink.objects.filter(relation=Relation.CONTRADICTS)
    from_this = links.filter(public_q("to_claim__"), from_claim=OuterRef("pk"))
    to_this = links.filter(public_q("from_claim__"), to_claim=OuterRef("pk"))
    return Q(Exists(from_this)) | Q(Exists(to_this))


def refresh_contradictions(claims) -> int:
    """Set again on `claims` (a queryset) whether each is in a contradiction: after a
    contradiction was linked, unlinked or relinked, or a claim at its other end became
    public or stopped being. Returns how many changed.

    A public claim's flag is something readers see (the filter, its count), so changing
    it moves the ledger's version; a draft's must not tell anyone that editors are at work.
    """
    changed = _refresh_contradictions(claims.filter(public_q()))
    with unseen_by_readers():
        return changed + _refresh_contradictions(claims.exclude(public_q()))


def refresh_every_contradiction() -> int:
    """Each claim's flag set again wherever it may be wrong (manage.py recount): the
    claims at either end of a contradiction, and those flagged now."""
    ends = ClaimLink.objects.filter(relation=Relation.CONTRADICTS).claim_ids()
    return refresh_contradictions(_claims().filter(Q(pk__in=ends) | Q(in_contradiction=True)))


def _refresh_contradictions(claims) -> int:
    found = claims.filter(contradicting(), in_contradiction=False)
    lost = claims.filter(~contradicting(), in_contradiction=True)
    return found.update(in_contradiction=True) + lost.update(in_contradiction=False)
