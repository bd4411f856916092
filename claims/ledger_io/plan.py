"""Checking a file's records against each other and the ledger, and planning what to write.

Podcasts and speakers are matched by slug, episodes by podcast and slug, claims
by episode and number. A claim's change goes through the write path's rules
(claims.history.ClaimChange), row by row, before anything is written.
"""

from collections import Counter
from dataclasses import dataclass, field

from django.core.exceptions import NON_FIELD_ERRORS

from claims.history import ClaimChange, tracked_state
from claims.ledger_io.appearances import same_appearances, stored_appearances
from claims.ledger_io.clean import clean_record
from claims.ledger_io.formats import KINDS, PLURALS, Problem, join, stored_value
from claims.ledger_io.links import plan_links
from claims.ledger_io.subjects import (
    changed_links,
    load_subjects,
    plan_subjects,
    unknown_subjects,
)
from claims.models import Attribution, Claim, ClaimStatus
from claims.predictions import UNRESOLVED_STATE
from episodes.models import Episode, Podcast, Speaker

BATCH_SIZE = 500
# The file's names for the claim fields a file names differently.
IN_THE_FILE = {"resolution_sources": "sources", "horizon_precision": "horizon"}


@dataclass
class Report:
    """What an import found and did (or, for a dry run or with problems, would do)."""

    problems: list = field(default_factory=list)
    created: Counter = field(default_factory=Counter)
    updated: Counter = field(default_factory=Counter)
    unchanged: Counter = field(default_factory=Counter)
    # "claim example-show/pilot 07: excerpt, type" for each record that changes.
    changes: list = field(default_factory=list)
    dry_run: bool = False
    written: bool = False

    @property
    def ok(self) -> bool:
        return not self.problems

    def counts(self, counter):
        parts = [
            f"{counter[kind]} {noun(kind, counter[kind])}"
            for kind in (*KINDS, "link")
            if counter[kind]
        ]
        return ", ".join(parts) or "nothing"

    def summary(self) -> str:
        if self.problems:
            count = len(self.problems)
            return f"{count} problem{'s' if count != 1 else ''} found; nothing was written."
        verb = "would be" if not self.written else "were"
        return (
            f"Created: {self.counts(self.created)}. Updated: {self.counts(self.updated)}. "
            f"Unchanged: {self.counts(self.unchanged)}."
            + (f" Nothing {verb} written: this was a dry run." if self.dry_run else "")
        )


def noun(kind, count):
    return kind if count == 1 else PLURALS[kind]


class Plan:
    """A file's records checked against each other and the ledger: the problems, or what to write."""

    def __init__(self, records, problems, *, via, changed_by, progress):
        self.records = records
        self.report = Report(problems=list(problems))
        self.via = via
        self.changed_by = changed_by
        self.progress = progress or (lambda stage, done, total: None)
        # Cleaned values by key: podcast slug, speaker slug, (podcast, episode), (podcast, episode, number).
        self.incoming = {kind: {} for kind in KINDS}
        self.where = {kind: {} for kind in KINDS}
        self.rejected = set()
        # The plan: values to create records from, and the records to update with what changes.
        self.to_create = {kind: [] for kind in KINDS}
        self.to_update = {kind: [] for kind in KINDS}
        # Episodes' new lists of appearances, by episode key.
        self.appearances_to_write = {}

    @property
    def problems(self):
        return self.report.problems

    def check(self, *, dry_run: bool) -> Report:
        self.report.dry_run = dry_run
        total = len(self.records)
        for done, record in enumerate(self.records, start=1):
            values = clean_record(record, self.problems)
            if values is not None:
                self.admit(record, values)
            elif record.kind != "claim":
                # Already reported; claims that refer to it need not say so again.
                self.rejected.add((record.kind, record_key(record.kind, record.raw)))
            if done % BATCH_SIZE == 0 or done == total:
                self.progress("Checking", done, total)
        self.load_ledger()
        load_subjects(self)
        self.plan_podcasts()
        self.plan_speakers()
        plan_subjects(self)
        self.plan_episodes()
        self.plan_claims()
        plan_links(self)
        # In the order of the file; problems with the file as a whole first.
        position = {record.where: index for index, record in enumerate(self.records)}
        self.problems.sort(key=lambda problem: position.get(problem.where, -1))
        if self.problems:
            for counter in (self.report.created, self.report.updated, self.report.unchanged):
                counter.clear()
            self.report.changes.clear()
        return self.report

    def admit(self, record, values):
        """Keep a checked record under its key, unless the file already gave that key."""
        kind = record.kind
        key = record_key(kind, values)
        if key in self.incoming[kind]:
            identity = "number" if kind == "claim" else "slug"
            self.problems.append(
                Problem(
                    record.where,
                    record.label(identity),
                    f"this {kind} is already in the file at {self.where[kind][key]}.",
                )
            )
            return
        self.incoming[kind][key] = values
        self.where[kind][key] = record.where

    def load_ledger(self):
        """What the ledger already holds of what the file names: a few queries in all."""
        podcast_slugs = {
            *self.incoming["podcast"],
            *(key[0] for key in self.incoming["episode"]),
            *(key[0] for key in self.incoming["claim"]),
        }
        self.podcasts = {p.slug: p for p in Podcast.objects.filter(slug__in=podcast_slugs)}
        speaker_slugs = {
            *self.incoming["speaker"],
            *(v["speaker"] for v in self.incoming["claim"].values() if v.get("speaker")),
            *(
                entry["speaker"]
                for v in self.incoming["episode"].values()
                for entry in v.get("appearances", ())
            ),
        }
        self.speakers = {s.slug: s for s in Speaker.objects.filter(slug__in=speaker_slugs)}
        episode_keys = {*self.incoming["episode"], *(key[:2] for key in self.incoming["claim"])}
        self.episodes = {
            (e.podcast.slug, e.slug): e
            for e in Episode.objects.filter(
                podcast__slug__in={key[0] for key in episode_keys},
                slug__in={key[1] for key in episode_keys},
            ).select_related("podcast", "transcript")
        }
        self.appearances = stored_appearances(self.episodes.values())
        claim_episodes = {
            self.episodes[key[:2]].pk for key in self.incoming["claim"] if key[:2] in self.episodes
        }
        by_id = {episode.pk: episode for episode in self.episodes.values()}
        self.claims = {}
        for claim in Claim.objects.filter(episode_id__in=claim_episodes).select_related("speaker"):
            claim.episode = by_id[claim.episode_id]  # shared, so no claim fetches it again
            self.claims[(claim.episode_id, claim.number)] = claim

    def plan_simple(self, kind, existing):
        """Podcasts, speakers and episodes: create the new, update the changed."""
        for key, values in self.incoming[kind].items():
            current = existing.get(key)
            if current is None:
                self.to_create[kind].append(values)
                self.report.created[kind] += 1
                continue
            changed = [
                name
                for name, value in values.items()
                if name not in ("slug", "podcast") and self.differs(current, name, value)
            ]
            if changed:
                self.to_update[kind].append((current, values, changed))
                self.report.updated[kind] += 1
                self.report.changes.append(f"{kind} {describe_key(key)}: {join(changed)}")
            else:
                self.report.unchanged[kind] += 1

    def differs(self, current, name, value):
        if name == "appearances":
            return not same_appearances(self.appearances[current.pk], value)
        return stored_value(current, name) != value

    def plan_podcasts(self):
        self.plan_simple("podcast", self.podcasts)

    def plan_speakers(self):
        self.plan_simple("speaker", self.speakers)

    def plan_episodes(self):
        for key in self.incoming["episode"]:
            if key[0] not in self.podcasts and key[0] not in self.incoming["podcast"]:
                self.problems.append(
                    Problem(
                        self.where["episode"][key],
                        "podcast",
                        f"no podcast “{key[0]}” in this file or in the ledger.",
                    )
                )
        self.plan_simple("episode", self.episodes)
        self.plan_appearances()

    def plan_appearances(self):
        """Each episode's new list of appearances, if the file gives one that changes it;
        a speaker neither the file nor the ledger has is reported on its episode."""
        for key, values in self.incoming["episode"].items():
            if "appearances" not in values:
                continue
            for entry in values["appearances"]:
                slug = entry["speaker"]
                known = slug in self.speakers or slug in self.incoming["speaker"]
                if not known and ("speaker", slug) not in self.rejected:
                    message = f"no speaker “{slug}” in this file or in the ledger."
                    self.problems.append(
                        Problem(self.where["episode"][key], "appearances", message)
                    )
            current = self.episodes.get(key)
            if current is None or self.differs(current, "appearances", values["appearances"]):
                self.appearances_to_write[key] = values["appearances"]

    def plan_claims(self):
        for key, values in self.incoming["claim"].items():
            where = self.where["claim"][key]
            # Both asked, so that every unknown record is reported.
            if self.unknown_references(key, values, where) | unknown_subjects(self, values, where):
                continue
            episode = self.episodes.get(key[:2])
            current = self.claims.get((episode.pk, key[2])) if episode else None
            after = self.claim_state(values, current, key[:2])
            self.check_claim(after, where)
            before = tracked_state(current) if current else None
            change = ClaimChange(
                before, after, values.get("correction_note", ""), label=f"{key[2]:02d}"
            )
            for field_name, message in change.problems().items():
                field_name = IN_THE_FILE.get(field_name, field_name)
                self.problems.append(
                    Problem(where, "" if field_name == NON_FIELD_ERRORS else field_name, message)
                )
            links = changed_links(self, key, values, current)
            if current is None:
                self.to_create["claim"].append((values, change))
                self.report.created["claim"] += 1
            elif change.changes or links:
                if change.changes:
                    self.to_update["claim"].append((current, values, change))
                self.report.updated["claim"] += 1
                changed = join([*change.changes, *links])
                self.report.changes.append(f"claim {describe_key(key)}: {changed}")
            else:
                self.report.unchanged["claim"] += 1

    def unknown_references(self, key, values, where):
        """Whether the claim names an episode or speaker that neither the file nor the ledger has.

        Reports each, unless the file gives it but got it wrong (reported where it is).
        """
        unknown = []
        if key[:2] not in self.episodes and key[:2] not in self.incoming["episode"]:
            unknown.append(("episode", key[:2]))
        speaker_slug = values.get("speaker")
        if speaker_slug and not (
            speaker_slug in self.speakers or speaker_slug in self.incoming["speaker"]
        ):
            unknown.append(("speaker", speaker_slug))
        for kind, ref in unknown:
            if (kind, ref) not in self.rejected:
                message = f"no {kind} “{describe_key(ref)}” in this file or in the ledger."
                self.problems.append(Problem(where, kind, message))
        return bool(unknown)

    def check_claim(self, after, where):
        """What the database's constraints would refuse, said about the file's fields."""
        if after["speaker"] is not None and after["unresolved_label"]:
            self.problems.append(
                Problem(
                    where,
                    "unresolved_label",
                    "only an unresolved voice (no speaker) takes a label.",
                )
            )
        if (after["status"] == ClaimStatus.RETRACTED) != bool(after["retraction_reason"].strip()):
            self.problems.append(
                Problem(
                    where,
                    "retraction_reason" if after["retraction_reason"] else "status",
                    "a retracted claim needs a retraction reason, and only a retracted "
                    "claim takes one.",
                )
            )

    def claim_state(self, values, current, episode_key):
        """The claim as it will be (history.tracked_state), from the file and what it leaves out."""

        def value(name, default):
            if name in values:
                return values[name]
            return getattr(current, name) if current else default

        episode = self.episodes.get(episode_key)
        title = (self.incoming["episode"].get(episode_key) or {}).get("title") or episode.title
        status = value("status", ClaimStatus.DRAFT)
        # A reason belongs to a retraction: kept only while the claim stays retracted.
        reason = values.get(
            "retraction_reason",
            current.retraction_reason if current and status == ClaimStatus.RETRACTED else "",
        )
        speaker_id, speaker_name, label = self.voice_state(values, current)
        return {
            **self.prediction_state(values, current),
            "episode": episode.pk if episode else ("new episode", episode_key),
            "number": values["number"],
            "type": values["type"],
            "excerpt": values["excerpt"],
            "summary": value("summary", ""),
            "attribution": Attribution.IDENTIFIED if values["speaker"] else Attribution.UNRESOLVED,
            "speaker": speaker_id,
            "unresolved_label": label,
            "timestamp": value("timestamp", None),
            "status": status,
            "retraction_reason": reason,
            "names": {"episode": title, "speaker": speaker_name},
        }

    def prediction_state(self, values, current):
        """The prediction's horizon and outcome as they will be; what the file leaves out stays."""
        if "horizon" in values:
            horizon, precision = values["horizon"]
        else:
            horizon, precision = (
                (current.horizon, current.horizon_precision) if current else (None, "")
            )
        kept = {
            name: getattr(current, name) if current else default
            for name, default in UNRESOLVED_STATE.items()
        }
        return {
            "horizon": horizon,
            "horizon_precision": precision,
            **{name: values.get(name, kept[name]) for name in UNRESOLVED_STATE},
            "resolution_sources": values.get(
                "sources", current.resolution_sources if current else []
            ),
        }

    def voice_state(self, values, current):
        """(speaker id, speaker name, unresolved label) the claim will have."""
        speaker_slug = values["speaker"]
        if not speaker_slug:
            kept = current.unresolved_label if current and not current.is_identified else ""
            return None, None, values.get("unresolved_label", kept)
        speaker = self.speakers.get(speaker_slug)
        name = (self.incoming["speaker"].get(speaker_slug) or {}).get("name") or speaker.name
        # A speaker the file creates has no id yet; its slug stands in for comparing.
        speaker_id = speaker.pk if speaker else ("new speaker", speaker_slug)
        return speaker_id, name, values.get("unresolved_label", "")


def record_key(kind, values):
    """How a record is matched with the ledger: by slug, podcast and slug, or episode and number."""
    get = values.get
    clean = {name: str(get(name) or "").strip() for name in ("slug", "podcast", "episode")}
    if kind in ("podcast", "speaker", "topic", "reference"):
        return clean["slug"]
    if kind == "episode":
        return (clean["podcast"], clean["slug"])
    return (clean["podcast"], clean["episode"], get("number"))


def describe_key(key):
    if isinstance(key, tuple):
        *path, last = key
        return "/".join(path) + (f" {last:02d}" if isinstance(last, int) else f"/{last}")
    return key
