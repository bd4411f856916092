"""Small factories: each makes one valid record, published unless told otherwise."""

import datetime
import itertools
from types import SimpleNamespace

from claims.models import Attribution, Claim, ClaimLink, ClaimType, Report, ReportKind
from episodes.models import Appearance, Episode, Podcast, Role, Speaker, Status

_sequence = itertools.count(1)


def make_podcast(**fields):
    n = next(_sequence)
    defaults = {"name": f"Example Show {n}", "slug": f"example-show-{n}"}
    return Podcast.objects.create(**{**defaults, **fields})


def make_speaker(**fields):
    n = next(_sequence)
    defaults = {"name": f"Ada Example {n}", "slug": f"ada-example-{n}"}
    return Speaker.objects.create(**{**defaults, **fields})


def make_episode(podcast=None, transcript=None, transcript_public=False, **fields):
    """A published episode, with `transcript` (text) as its transcript if given, public
    if `transcript_public`."""
    n = next(_sequence)
    defaults = {
        "title": f"Example Episode {n}",
        "slug": f"example-episode-{n}",
        # Strictly increasing: the newest episode is always the one made last.
        "air_date": datetime.date(2026, 1, 1) + datetime.timedelta(days=n),
        "original_url": f"https://example.com/episodes/{n}/",
        "status": Status.PUBLISHED,
    }
    episode = Episode.objects.create(podcast=podcast or make_podcast(), **{**defaults, **fields})
    if transcript is not None:
        episode.save_transcript(transcript, is_public=transcript_public)
    return episode


def make_claim(episode=None, speaker=None, **fields):
    """An identified claim by `speaker` (a new one if not given), unless attribution says otherwise."""
    episode = episode or make_episode()
    if fields.get("attribution") == Attribution.UNRESOLVED:
        speaker = None
    else:
        speaker = speaker or make_speaker()
    if "number" not in fields:
        fields["number"] = (
            episode.claims.order_by("-number").values_list("number", flat=True).first() or 0
        ) + 1
    defaults = {
        "type": ClaimType.EVALUATION,
        "excerpt": f"An exact excerpt, number {fields['number']}, as it was said.",
        "status": Status.PUBLISHED,
        "attribution": Attribution.IDENTIFIED,
    }
    return Claim.objects.create(episode=episode, speaker=speaker, **{**defaults, **fields})


def make_report(claim=None, **fields):
    """An open report of wrong words on `claim` (a new published claim if not given)."""
    defaults = {"kind": ReportKind.WRONG_WORDS, "message": "The words differ from the audio."}
    return Report.objects.create(claim=claim or make_claim(), **{**defaults, **fields})


def make_appearance(episode=None, speaker=None, role=Role.GUEST):
    """`speaker` (a new one if not given) on `episode` (a new published one if not given)."""
    return Appearance.objects.create(
        episode=episode or make_episode(), speaker=speaker or make_speaker(), role=role
    )


def make_prediction(episode=None, speaker=None, horizon=None, precision="day", **fields):
    """A published prediction, open, with `horizon` (a date) or none stated."""
    if horizon is not None:
        fields.update(horizon=horizon, horizon_precision=precision)
    return make_claim(episode, speaker, type=ClaimType.PREDICTION, **fields)


SOURCE = {"url": "https://example.com/outcome/", "title": "Example News: how it turned out"}


def resolve(claim, resolution, note="It happened as the reporting shows.", **options):
    """Resolve `claim` through the write path, with one source unless told otherwise."""
    options.setdefault("on", datetime.date(2026, 6, 1))
    options.setdefault("sources", [SOURCE])
    claim.resolve(resolution, note=note, **options)
    return claim


def make_link(from_claim, to_claim, relation="contradicts", note=""):
    """`from_claim` <relation> `to_claim`: "A contradicts B"."""
    return ClaimLink.objects.create(
        from_claim=from_claim, to_claim=to_claim, relation=relation, note=note
    )


def link_every_claim(claims):
    """Link each of `claims` to the next, through every relation in turn: many links,
    between speakers and within each speaker's record, drafts among them."""
    relations = ("contradicts", "refines", "repeats", "supports", "responds_to")
    for n, (claim, following) in enumerate(itertools.pairwise(claims)):
        make_link(following, claim, relations[n % len(relations)])


def make_ledger(episodes, claims_per_episode, speakers):
    """Two fictional podcasts with `episodes` published episodes of `claims_per_episode` claims.

    Claims rotate through the types and `speakers` speakers; every fifth claim is an
    unresolved voice and every seventh a draft, and each podcast also has a draft
    episode, so every page meets every kind of record. Each episode has a host and a
    guest among the speakers. Episodes air one day apart,
    the first one oldest.
    """
    podcasts = [make_podcast(), make_podcast()]
    people = [make_speaker() for _ in range(speakers)]
    aired = []
    for e in range(episodes):
        episode = make_episode(
            podcast=podcasts[e % 2], air_date=datetime.date(2025, 1, 1) + datetime.timedelta(days=e)
        )
        aired.append(episode)
        make_appearance(episode, people[e % speakers], Role.HOST)
        make_appearance(episode, people[(e + 1) % speakers], Role.GUEST)
        for c in range(claims_per_episode):
            fields = {
                "type": ClaimType.values[c % len(ClaimType.values)],
                "status": Status.DRAFT if c % 7 == 6 else Status.PUBLISHED,
            }
            if c % 5 == 4:
                make_claim(episode, attribution=Attribution.UNRESOLVED, **fields)
            else:
                make_claim(episode, speaker=people[(e + c) % speakers], **fields)
    for podcast in podcasts:
        draft = make_episode(podcast=podcast, status=Status.DRAFT)
        make_claim(draft, speaker=people[0])
        make_appearance(draft, people[0], Role.HOST)
    return SimpleNamespace(podcasts=podcasts, speakers=people, episodes=aired)
