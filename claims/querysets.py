"""ClaimQuerySet: the one gate to the public, and the bulk work done on claims."""

from django.db import models
from django.db.models import Exists, F, OuterRef, Q, Subquery
from django.utils import timezone

from claims import timing, verbatim
from claims.choices import GATE, ClaimStatus, ClaimType
from claims.history import ClaimRevision, RevisionKind
from episodes.models import Episode, Speaker, Status, Transcript
from ledger.models import RecordQuerySet


def public_q(prefix: str = "") -> Q:
    """The condition for a public claim, usable across a relation (`prefix="claims__"`).

    It reads the claim's own copy of whether its episode is published (follow_episodes()),
    not the episode: a search's matches or a listing's page are then decided on the claims
    table, without joining each one to its episode.
    """
    return Q(**{f"{prefix}status": Status.PUBLISHED, f"{prefix}episode_published": True})


# A claim with a public permalink has one of these, in a published episode.
ON_RECORD = (ClaimStatus.PUBLISHED, ClaimStatus.RETRACTED)


def on_record_q(prefix: str = "") -> Q:
    """The condition for a claim with a public permalink (ClaimQuerySet.on_record), usable
    across a relation."""
    return Q(
        **{
            f"{prefix}status__in": ON_RECORD,
            f"{prefix}episode_published": True,
        }
    )


# On the claims table (Claim.Meta.indexes): public claims by the date each keeps of its
# episode, newest first (newest_first_kept). First, a speaker's public record in page
# order, so that a page reads its own 50 entries. Sorting all of a prolific speaker's
# 32,000 claims for each page cost 150 ms at a million. The second serves the links of a
# speaker's claim mix (?speaker=…&type=…): SQLite otherwise read and sorted all of the
# speaker's claims, 108 -> 31 ms at a million.
KEPT_AIR_DATE_INDEXES = [
    models.Index(
        fields=("speaker", "-air_date", "episode", "number", *GATE),
        condition=Q(status="published"),
        name="claim_speaker_record",
    ),
    models.Index(
        fields=("speaker", "type", "-air_date", "episode", "number", *GATE),
        condition=Q(status="published"),
        name="claim_speaker_type_record",
    ),
    # The public claims aired in a range of dates, and a type among them (the claims
    # browser's ?aired_from=…&type=…), by the date each claim keeps of its episode:
    # counted from an index alone, and the newest read in page order. Joined to the
    # episodes for their dates, PostgreSQL read every public prediction to count a
    # year of them. The condition's column is in them so that SQLite, which is given it
    # as a parameter, reads them alone.
    models.Index(
        fields=("-air_date", "episode", "number", *GATE, "status"),
        condition=Q(status="published"),
        name="claim_published_aired",
    ),
    models.Index(
        fields=("type", "-air_date", "episode", "number", *GATE, "status"),
        condition=Q(status="published"),
        name="claim_published_type_aired",
    ),
]


# What no listing of claims shows: the episode's summary and the search text. (The
# transcript is in a table of its own, which no listing joins.)
UNLISTED = ("episode__summary", "search_context", "search_vector")
# Of a public claim and its episode, podcast and speaker, what a claim card never shows:
# the records' times, the claim's retraction and transcript span, and the counts that
# the episode, podcast and speaker keep (their JSON decoded for every card).
UNSHOWN_ON_CARDS = (
    "created_at",
    "updated_at",
    "retracted_at",
    "retraction_reason",
    "transcript_start",
    "transcript_end",
    "timestamp_from_transcript",
    "episode__created_at",
    "episode__updated_at",
    "episode__published_claim_count",
    "episode__published_people_count",
    "episode__published_prediction_count",
    "episode__correction_count",
    "episode__podcast__description",
    "episode__podcast__website_url",
    "episode__podcast__feed_url",
    "episode__podcast__public_episode_count",
    "episode__podcast__public_claim_count",
    "episode__podcast__public_prediction_count",
    "episode__podcast__public_correction_count",
    "speaker__description",
    "speaker__links",
    "speaker__public_claim_count",
    "speaker__public_claim_mix",
    "speaker__public_episode_count",
    "speaker__public_role_counts",
    "speaker__public_prediction_outcomes",
    "speaker__public_move_count",
)

# What for_cards_of_their_episode() leaves out: for_cards()'s fields of the claim and its
# speaker, but the speaker's description and links.
UNSHOWN_BESIDE_THEIR_EPISODE = tuple(
    name
    for name in (*UNLISTED, *UNSHOWN_ON_CARDS)
    if not name.startswith("episode__") and name not in ("speaker__description", "speaker__links")
)


class ClaimQuerySet(RecordQuerySet):
    def published(self):
        """The one gate to the public: published claims of published episodes."""
        return self.filter(public_q())

    def drafts(self):
        """Claims not yet published: an episode's admin page edits them in place."""
        return self.filter(status=ClaimStatus.DRAFT)

    def settled(self):
        """Published and retracted claims: changed on their own pages, by correction."""
        return self.exclude(status=ClaimStatus.DRAFT)

    def on_record(self):
        """Claims with a public permalink: the published ones and those retracted since.

        Only permalinks use this: a retracted claim shows its retraction there and
        counts, lists and searches nowhere.
        """
        return self.filter(on_record_q())

    def at_permalink(self, podcast_slug: str, episode_slug: str, number: int):
        """The claim among these whose permalink is /episodes/<podcast>/<episode>/claims/<n>/."""
        return self.filter(
            episode__podcast__slug=podcast_slug, episode__slug=episode_slug, number=number
        )

    def publish(self, *, changed_by=None, via="") -> list[int]:
        """Publish the drafts among these claims, each move kept in its claim's history.

        Three queries whatever the number of claims; returns the ids of those published
        (for claims.counters, which this module cannot reach).
        The only bulk move: a published claim leaves the record only by retraction,
        which needs a reason (Claim.retract).
        """
        drafts = list(self.filter(status=ClaimStatus.DRAFT).values_list("pk", flat=True))
        if not drafts:
            return []
        self.model._default_manager.filter(pk__in=drafts).update(
            status=ClaimStatus.PUBLISHED, updated_at=timezone.now()
        )
        ClaimRevision.objects.bulk_create(
            ClaimRevision(
                claim_id=pk,
                kind=RevisionKind.EDITED,
                changes={"status": [ClaimStatus.DRAFT, ClaimStatus.PUBLISHED]},
                changed_by=changed_by,
                via=via,
            )
            for pk in drafts
        )
        return drafts

    def reverify(self, transcript: str, cues: list | None = None):
        """Check these claims' excerpts against `transcript` (its text, with its `cues` if
        timed) again, and refresh the timestamps that came from the transcript.

        One read; writes only the claims whose result changed, in batches.
        """
        timed = Transcript(text=transcript, cues=cues or [])
        fields = ("verification", "transcript_start", "transcript_end", "timestamp")
        changed = []
        for claim in self.only("pk", "excerpt", "timestamp_from_transcript", *fields):
            result, span = verbatim.check_and_locate(claim.excerpt, transcript)
            found = (result, *(span or (None, None)))
            before = tuple(getattr(claim, name) for name in fields)
            claim.verification, claim.transcript_start, claim.transcript_end = found
            timing.follow_transcript(claim, timed.time_at(span[0]) if span else None)
            if before != tuple(getattr(claim, name) for name in fields):
                changed.append(claim)
        self.model._default_manager.bulk_update(changed, fields, batch_size=500)

    def delete(self):
        # Drafts may go; anything that was ever public stays on the record.
        on_record = self.exclude(status=ClaimStatus.DRAFT)
        if on_record.exists():
            raise models.ProtectedError(
                "Published and retracted claims are never deleted: retract a claim instead.",
                set(on_record),
            )
        return super().delete()

    def for_listing(self):
        """Everything a claim card shows, fetched in the same query, without what no
        listing shows (UNLISTED)."""
        return self.select_related("episode__podcast", "speaker").defer(*UNLISTED)

    def for_cards(self):
        """for_listing(), without the columns a claim card never shows (UNSHOWN_ON_CARDS):
        for pages of cards, which build four records for each of their claims on every
        visit, and for claims shown in a line (linked claims, moves). Not for a
        permalink's own claim, whose structured data names the speaker's description and
        links and the podcast's, nor for feeds and the API's claims, which show the times."""
        return self.for_listing().defer(*UNSHOWN_ON_CARDS)

    def for_cards_of_their_episode(self):
        """for_cards() for claims read through their episode (`episode.claims`), whose
        cards share that one episode rather than a copy joined to every row. Their
        speakers keep what a page's structured data says of a person (their description
        and links). Reading its fifty claims' search text and their speakers' counts as
        well took an episode's page 5.4 ms rather than 4.0 (PostgreSQL, a million
        claims)."""
        return self.select_related("speaker").defer(*UNSHOWN_BESIDE_THEIR_EPISODE)

    def newest_first(self):
        """Newest episodes first, each episode's claims in ledger order."""
        return self.order_by("-episode__air_date", "episode_id", "number")

    def newest_first_kept(self):
        """The order of newest_first(), by the air date each claim keeps of its episode.

        For one speaker's claims, read in order from the claim_speaker_record index
        (claim_speaker_type_record for those of a type); elsewhere, where no index leads
        with what is filtered, newest_first() walks the episodes' index instead.
        """
        return self.order_by("-air_date", "episode_id", "number")

    def follow_episodes(self) -> int:
        """Copy onto these claims their episodes' air dates, podcasts and whether they are
        published, in one UPDATE: after an episode's date, podcast or status changed
        (claims.signals, claims.counters) or to repair them (manage.py recount)."""
        episodes = Episode.objects.filter(pk=OuterRef("episode_id"))
        return self.update(
            air_date=Subquery(episodes.values("air_date")),
            podcast_id=Subquery(episodes.values("podcast_id")),
            episode_published=Exists(episodes.filter(Episode.public_q())),
        )

    def astray_from_episodes(self) -> "ClaimQuerySet":
        """Claims whose copies of their episode's air date, podcast or status differ from it."""
        episode_public = Episode.public_q(prefix="episode__")
        return self.filter(
            ~Q(air_date=F("episode__air_date"))
            | ~Q(podcast_id=F("episode__podcast_id"))
            | (episode_public & ~Q(episode_published=True))
            | (~episode_public & ~Q(episode_published=False))
        )

    def refresh_search_context(self):
        """Recompute search_context after a speaker or episode changed (one read, batched writes)."""
        claims = list(self.select_related("episode", "speaker"))
        for claim in claims:
            claim.search_context = claim.compose_search_context()
        self.model._default_manager.bulk_update(claims, ["search_context"], batch_size=500)

    def speakers(self) -> models.QuerySet[Speaker]:
        """The speakers of these claims, checked with an EXISTS per speaker."""
        return Speaker.objects.filter(Exists(self.filter(speaker=OuterRef("pk"))))

    def next_number(self) -> int:
        """The number after the highest among these claims (1 for none): one query.

        Never a gap's: a number left free below the highest stays free.
        """
        return (self.aggregate(highest=models.Max("number"))["highest"] or 0) + 1

    def type_mix(self):
        """[(type, count)] largest first, ties in the order types are defined."""
        return ordered_mix(self.order_by().values_list("type").annotate(n=models.Count("pk")))


def ordered_mix(counts) -> list[tuple[ClaimType, int]]:
    """{type: count} (or its items) as [(type, count)], largest first, ties in the order
    types are defined: a speaker's kept mix (Speaker.public_claim_mix) reads as a counted one."""
    return sorted(
        ((ClaimType(t), n) for t, n in dict(counts).items() if n),
        key=lambda item: (-item[1], ClaimType.values.index(item[0])),
    )
