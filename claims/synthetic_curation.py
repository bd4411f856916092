"""What editors add around the synthetic claims (see claims/synthetic.py for the shape).

Topics, named references, links between claims, public corrections, retractions
and predictions' horizons and outcomes, all plainly fictional. Decisions are drawn
from a generator of their own, so a seed gives the same claims with or without
them. Two passes: `amend()` sets a claim row's own columns as it is drawn (its
horizon, outcome, correction or retraction), and `records()` makes the rows that
need the claims' ids once they are in (tags, references, links, revisions, sources).
TimedText builds a timed transcript's text and cues.
"""

import datetime
import random
from bisect import bisect
from collections import defaultdict, deque
from dataclasses import dataclass, field
from itertools import accumulate, count, repeat
from operator import add

from django.utils.text import slugify

from claims.choices import ClaimStatus, ClaimType, HorizonPrecision, Relation, Resolution
from claims.history import ClaimRevision, RevisionKind
from claims.links import MOVED, ClaimLink
from claims.predictions import PredictionSource, end_of_period
from claims.references import Reference, ReferenceKind
from claims.references import Role as ReferenceRole
from claims.topics import Topic

SYNTHETIC_TOPIC = "A fictional topic, generated for benchmarks."
VIA = "generate_synthetic"
CLAIMS_PER_TOPIC = 6_250  # on top of the first 40, up to 200
TOPICS = (40, 200)
TAGGED = 0.40
TWO_TOPICS = 0.35
CLAIMS_PER_REFERENCE = 200
NAMING = 0.05
LINKED = 0.02
SAME_SPEAKER = 0.8
CORRECTED = 0.01
RETRACTED = 0.002
WITH_HORIZON = 0.7
RESOLVED = 0.5
OUTCOMES = (Resolution.CAME_TRUE, Resolution.DID_NOT_COME_TRUE, Resolution.PARTLY)
OUTCOME_WEIGHTS = (40, 35, 25)
PRECISIONS = (HorizonPrecision.YEAR, HorizonPrecision.MONTH, HorizonPrecision.DAY)
PRECISION_WEIGHTS = (50, 35, 15)
REFERENCE_NOUNS = {
    ReferenceKind.BOOK: "Handbook",
    ReferenceKind.PAPER: "Study",
    ReferenceKind.TOOL: "Kit",
    ReferenceKind.COMPANY: "Works",
    ReferenceKind.WEBSITE: "Notes",
    ReferenceKind.OTHER: "Report",
}
ROLE_WEIGHTS = {
    ReferenceRole.MENTIONS: 50,
    ReferenceRole.RECOMMENDS: 25,
    ReferenceRole.USES: 15,
    ReferenceRole.CRITICISES: 10,
}
LINK_NOTES = ("", "", "Said again, a few months on.", "A change of mind, on the same question.")
RETRACTION_REASONS = (
    "Said by another speaker: the audio was misread.",
    "Not in the episode as aired: the excerpt came from an earlier cut.",
)
# Recent public claims each speaker (and the ledger) can be linked back to.
MEMORY = 30


@dataclass
class Records:
    """The rows one batch of claims adds: (claim, topic) and (claim, reference, role,
    the claim's place) tuples for COPY, and unsaved links, revisions and prediction
    sources."""

    tags: list = field(default_factory=list)
    named: list = field(default_factory=list)
    links: list = field(default_factory=list)
    revisions: list = field(default_factory=list)
    sources: list = field(default_factory=list)


class Curation:
    def __init__(self, total, seed, *, url, words, people, last_day):
        self.rng = random.Random(f"curation {seed}")
        self.url = url
        self.last_day = last_day
        self.topics = self.make_topics(total, words)
        self.references = self.make_references(total, words, people)
        self.topic_weights = zipf_cumulative(len(self.topics), q=2.0)
        self.reference_weights = zipf_cumulative(len(self.references), q=1.0)
        # (episode id, number): the revisions and sources a claim gets once it has an id.
        self.revisions = defaultdict(list)
        self.sources = {}
        self.by_speaker = defaultdict(lambda: deque(maxlen=MEMORY))
        self.recent = deque(maxlen=MEMORY * 10)

    def make_topics(self, total, words):
        count = min(TOPICS[1], TOPICS[0] + total // CLAIMS_PER_TOPIC)
        return [
            Topic(name=word.capitalize(), slug=slugify(word), description=SYNTHETIC_TOPIC)
            for word in words[:count]
        ]

    def make_references(self, total, words, people):
        kinds = ReferenceKind.values
        references = []
        for i in range(max(5, total // CLAIMS_PER_REFERENCE)):
            kind = kinds[i % len(kinds)]
            title = f"{words[(i * 7) % len(words)].capitalize()} {REFERENCE_NOUNS[kind]} {i + 1}"
            slug = slugify(title)
            references.append(
                Reference(
                    kind=kind,
                    title=title,
                    creator=people[i % len(people)],
                    url=f"{self.url}references/{slug}",
                    slug=slug,
                )
            )
        return references

    def amend(self, row, episode):
        """Give a claim row its horizon and outcome (a prediction), or its correction or
        retraction (a public claim), as the write path (claims/history.py) would have."""
        rng = self.rng
        public = row["status"] == ClaimStatus.PUBLISHED and episode.status == ClaimStatus.PUBLISHED
        if row["type"] == ClaimType.PREDICTION and rng.random() < WITH_HORIZON:
            self.predict(row, episode, public)
        draw = rng.random()
        if not public or "resolution" in row:
            return
        if draw < RETRACTED:
            self.retract(row, episode)
        elif draw < RETRACTED + CORRECTED:
            self.correct(row, episode)

    def predict(self, row, episode, public):
        rng = self.rng
        precision = rng.choices(PRECISIONS, PRECISION_WEIGHTS)[0]
        said = episode.air_date + datetime.timedelta(days=rng.randint(60, 1800))
        row["horizon"] = end_of_period(said, precision)
        row["horizon_precision"] = precision
        if public and row["horizon"] < self.last_day and rng.random() < RESOLVED:
            self.resolve(row, episode)

    def resolve(self, row, episode):
        rng = self.rng
        outcome = rng.choices(OUTCOMES, OUTCOME_WEIGHTS)[0]
        day = min(self.last_day, row["horizon"] + datetime.timedelta(days=rng.randint(1, 90)))
        note = f"{Resolution(outcome).label}, by the fictional record of {day:%B %Y}."
        number = len(self.sources) + 1
        sources = [{"url": f"{self.url}sources/{number}", "title": f"Fictional source {number}"}]
        at = moment(day, rng)
        row.update(
            resolution=outcome,
            resolved_on=day,
            resolution_note=note,
            resolution_sources=sources,
            resolution_history=[{"at": at.isoformat(), "resolution": outcome, "note": note}],
        )
        changes = {
            "resolution": [Resolution.OPEN, outcome],
            "resolved_on": [None, day.isoformat()],
            "resolution_note": ["", note],
            "resolution_sources": [[], sources],
        }
        key = (episode.pk, row["number"])
        self.sources[key] = sources
        self.revisions[key].append((RevisionKind.RESOLVED, changes, note, at))

    def correct(self, row, episode):
        """A public correction: a word the excerpt had dropped, or a mistaken type."""
        rng = self.rng
        words = row["excerpt"].split()
        if rng.random() < 0.6 and len(words) > 3:
            del words[rng.randrange(1, len(words))]
            name, before, after = "excerpt", " ".join(words), row["excerpt"]
            note = "The excerpt dropped a word: corrected against the audio."
        else:
            name, after = "type", row["type"]
            before = rng.choice([t for t in ClaimType.values if t not in (after, "prediction")])
            note = f"Filed as {before}: it is {after}."
        at = moment(self.after_airing(episode), rng)
        row["corrections"] = [{"at": at.isoformat(), "note": note, "fields": [name]}]
        key = (episode.pk, row["number"])
        self.revisions[key].append((RevisionKind.CORRECTED, {name: [before, after]}, note, at))

    def retract(self, row, episode):
        reason = self.rng.choice(RETRACTION_REASONS)
        at = moment(self.after_airing(episode), self.rng)
        row.update(status=ClaimStatus.RETRACTED, retraction_reason=reason, retracted_at=at)
        changes = {
            "status": [ClaimStatus.PUBLISHED, ClaimStatus.RETRACTED],
            "retraction_reason": ["", reason],
        }
        self.revisions[(episode.pk, row["number"])].append(
            (RevisionKind.RETRACTED, changes, reason, at)
        )

    def after_airing(self, episode):
        return min(
            self.last_day, episode.air_date + datetime.timedelta(days=self.rng.randint(1, 120))
        )

    def records(self, claims, episodes):
        """The rows for `claims`, (pk, episode id, number, speaker id, status) in ledger
        order; `episodes` maps an episode's id to (air date, whether it is published)."""
        made = Records()
        for pk, episode_id, number, speaker_id, status in claims:
            air_date, episode_public = episodes[episode_id]
            self.tag(pk, (air_date, episode_id, number), made)
            for kind, changes, note, at in self.revisions.pop((episode_id, number), ()):
                made.revisions.append(
                    ClaimRevision(
                        claim_id=pk, kind=kind, changes=changes, note=note, via=VIA, created_at=at
                    )
                )
            for position, source in enumerate(self.sources.pop((episode_id, number), ())):
                made.sources.append(PredictionSource(claim_id=pk, position=position, **source))
            if episode_public and status == ClaimStatus.PUBLISHED:
                self.link(pk, speaker_id, air_date, made)
        return made

    def tag(self, pk, place, made):
        """Maybe tag the claim and name a reference; `place` is where it is listed
        (ClaimReference.place_of)."""
        rng = self.rng
        if rng.random() < TAGGED:
            count = 2 if rng.random() < TWO_TOPICS else 1
            chosen = {pick(rng, self.topic_weights) for _ in range(count)}
            made.tags += [(pk, self.topics[index].pk) for index in sorted(chosen)]
        if rng.random() < NAMING:
            reference = self.references[pick(rng, self.reference_weights)]
            role = rng.choices(list(ROLE_WEIGHTS), list(ROLE_WEIGHTS.values()))[0]
            made.named.append((pk, reference.pk, role, *place))

    def link(self, pk, speaker_id, air_date, made):
        """Maybe link a public claim to an earlier one, mostly the same speaker's from an
        earlier day (how their position moved). Links only go back, one per claim, so no
        pair is linked twice either way."""
        rng = self.rng
        if rng.random() < LINKED:
            own = (
                [c for c, day in self.by_speaker[speaker_id] if day < air_date]
                if speaker_id
                else []
            )
            shared = None
            if own and rng.random() < SAME_SPEAKER:
                target, relation, shared = rng.choice(own), rng.choice(MOVED), speaker_id
            elif self.recent:
                # Another speaker's recent claim that this one answers (none if it is theirs).
                target, said_by = rng.choice(self.recent)
                target, relation = (
                    (None, None) if said_by == speaker_id else (target, rng.choice(Relation.values))
                )
            else:
                target = None
            if target is not None:
                made.links.append(
                    ClaimLink(
                        from_claim_id=pk,
                        to_claim_id=target,
                        relation=relation,
                        note=rng.choice(LINK_NOTES),
                        shared_speaker_id=shared,
                        # Their own links go back to an earlier day: each tells a move.
                        moved_on=air_date if shared else None,
                    )
                )
        if speaker_id:
            self.by_speaker[speaker_id].append((pk, air_date))
        self.recent.append((pk, speaker_id))


class TimedText:
    """A text built part by part, with its cues: [[start_seconds, offset], …]."""

    def __init__(self):
        self.parts, self.length, self.cues = [], 0, []

    def add(self, part, time=None):
        if time is not None:
            self.cues.append([time, self.length])
        self.parts.append(part)
        self.length += len(part)

    def say(self, sentences, since, until):
        """Add `sentences`, a cue at each, evenly from `since` to before `until` (the time
        of the claim's cue after them). Built by iterators alone: a million cues a minute."""
        step = (until - since) // (len(sentences) + 1)
        times = range(since + step, until, step) if step else repeat(since)
        # Each sentence starts after the ones before it and a space before each.
        lengths = accumulate(map(len, sentences[:-1]), initial=0)
        self.cues += map(list, zip(times, map(add, lengths, count(self.length + 1)), strict=False))
        self.add(" " + " ".join(sentences))


def moment(day, rng):
    """A time of `day` in working hours, UTC, as the write path stamps a change."""
    return datetime.datetime.combine(
        day, datetime.time(rng.randint(8, 18), rng.randrange(60)), tzinfo=datetime.UTC
    )


def zipf_cumulative(n, s=1.0, q=1.0):
    return list(accumulate(1 / (rank + q) ** s for rank in range(n)))


def pick(rng, cumulative):
    """An index drawn with the weights behind `cumulative`."""
    return bisect(cumulative, rng.random() * cumulative[-1])
