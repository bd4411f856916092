"""Gaps in an episode's numbering, said in words.

A claim keeps its number forever, so the records a reader cannot see leave gaps
(the reference episode shows 01…09, 11…, without 10, 16 or 20). The episode's
range runs from 1 to its highest *published* number: a draft beyond it makes no
gap, and every number inside it that is not public reads the same, so nothing
tells a reader whether a draft exists.
"""

from collections.abc import Iterable

from django.db.models import OuterRef, Subquery
from django.http import Http404
from django.shortcuts import render

from claims.models import Claim
from episodes.models import Episode

# Three or more numbers in a row are written as a range: "10–12".
SHORTEST_RANGE = 3


def missing_numbers(published: Iterable[int]) -> list[int]:
    """The numbers from 1 to the highest of `published` that are not among them."""
    shown = set(published)
    return [number for number in range(1, max(shown, default=0) + 1) if number not in shown]


def label(number: int) -> str:
    """A record's number as the ledger writes it: "07"."""
    return f"{number:02d}"


def runs(numbers: list[int]) -> list[str]:
    """Sorted numbers as the ledger writes them, long runs as ranges: ["07", "10–12"]."""
    groups: list[list[int]] = []
    for number in numbers:
        if groups and number == groups[-1][-1] + 1:
            groups[-1].append(number)
        else:
            groups.append([number])
    written = []
    for group in groups:
        if len(group) >= SHORTEST_RANGE:
            written.append(f"{label(group[0])}–{label(group[-1])}")
        else:
            written.extend(label(number) for number in group)
    return written


def sentence(missing: list[int]) -> str:
    """ "Records 10, 16 and 20 are not published.", or "" without gaps."""
    if not missing:
        return ""
    parts = runs(missing)
    listed = parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"
    if len(missing) == 1:
        return f"Record {listed} is not published."
    return f"Records {listed} are not published."


def unpublished_record(request, podcast_slug: str, episode_slug: str, number: int):
    """The answer for a permalink with no public claim: a 404 that, for a number inside
    the episode's range, says the record is not published (one query)."""
    highest = Claim.objects.published().filter(episode=OuterRef("pk")).order_by("-number")
    episode = (
        Episode.objects.published()
        .filter(podcast__slug=podcast_slug, slug=episode_slug)
        .select_related("podcast")
        .annotate(highest_number=Subquery(highest.values("number")[:1]))
        .first()
    )
    if episode is None or not 1 <= number <= (episode.highest_number or 0):
        raise Http404("No public claim has this address.")
    context = {"episode": episode, "number": number, "label": label(number)}
    return render(request, "claims/claim_not_published.html", context, status=404)
