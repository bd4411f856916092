"""Small factories: each makes one valid record, published unless told otherwise."""

import datetime
import itertools

from claims.models import Attribution, Claim, ClaimType
from episodes.models import Episode, Podcast, Speaker, Status

_sequence = itertools.count(1)


def make_podcast(**fields):
    n = next(_sequence)
    defaults = {"name": f"Example Show {n}", "slug": f"example-show-{n}"}
    return Podcast.objects.create(**{**defaults, **fields})


def make_speaker(**fields):
    n = next(_sequence)
    defaults = {"name": f"Ada Example {n}", "slug": f"ada-example-{n}"}
    return Speaker.objects.create(**{**defaults, **fields})


def make_episode(podcast=None, **fields):
    n = next(_sequence)
    defaults = {
        "title": f"Example Episode {n}",
        "slug": f"example-episode-{n}",
        "air_date": datetime.date(2026, 1, 1) + datetime.timedelta(days=n % 300),
        "original_url": f"https://example.com/episodes/{n}/",
        "status": Status.PUBLISHED,
    }
    return Episode.objects.create(podcast=podcast or make_podcast(), **{**defaults, **fields})


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
