"""Who was on which episode: the episode page's cast line and a speaker's episodes by role
(the speakers index counts them in claims/speaker_index.py).

Only appearances on published episodes are ever shown or counted
(`Appearance.objects.published()`), as only published claims are.
"""

from dataclasses import dataclass, field

from django.db.models import Count, F
from django.db.models.expressions import Window
from django.db.models.functions import RowNumber

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


def speaker_roles(speaker: Speaker) -> list[str]:
    """The roles (values) this speaker had on published episodes, in role order. One query."""
    roles = set(
        Appearance.objects.published()
        .filter(speaker=speaker)
        .values_list("role", flat=True)
        .distinct()
        .order_by()
    )
    return sorted(roles, key=ROLE_ORDER.__getitem__)


def speaker_episodes_by_role(speaker: Speaker) -> list[RoleGroup]:
    """The published episodes this speaker appeared in, by role: up to EPISODES_PER_ROLE
    of each, newest first, and each role's total. Two queries, whatever their number:
    window functions number and count each role's appearances, then the few shown are
    fetched with their episodes. Numbered with every column of their episodes and
    podcasts, a host's 4,500 appearances took 50 ms at a million claims; by id, 20 ms."""
    newest_first = [F("episode__air_date").desc(), F("episode__title"), F("episode_id")]
    shown = (
        Appearance.objects.published()
        .filter(speaker=speaker)
        .annotate(
            place=Window(RowNumber(), partition_by=F("role"), order_by=newest_first),
            role_total=Window(Count("*"), partition_by=F("role")),
        )
        .filter(place__lte=EPISODES_PER_ROLE)
        .order_by()
        .values_list("pk", "role_total")
    )
    totals = dict(shown)
    if not totals:
        return []
    appearances = (
        Appearance.objects.filter(pk__in=totals)
        .select_related("episode__podcast")
        .order_by("role", *newest_first)
    )
    groups: dict[str, RoleGroup] = {}
    for appearance in appearances:
        group = groups.setdefault(appearance.role, RoleGroup(appearance.role))
        group.members.append(appearance.episode)
        group.total = totals[appearance.pk]
    return in_role_order(groups)
