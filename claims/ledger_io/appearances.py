"""An episode's appearances in the ledger file: who was on it, in which role.

In JSON an episode's `appearances` is a list of {"speaker": slug, "role": role};
in a CSV episode row's `appearances` cell, one "slug role" a line. A record that
gives the list gives the episode's whole list: importing it makes the episode's
appearances exactly those (an empty list removes them); a record without it
leaves them as they are.
"""

from collections.abc import Iterable

from django.core.exceptions import ValidationError

from episodes.models import ROLE_ORDER, Appearance, Episode, Role, Speaker

ROLES = ", ".join(Role.values)


def clean_appearances(raw: object) -> list[dict]:
    """The file's appearances as [{"speaker": slug, "role": role}], or a ValidationError
    that says which entry is wrong and how."""
    if isinstance(raw, str):
        entries = [
            dict(zip(("speaker", "role"), line.split(), strict=False))
            for line in raw.splitlines()
            if line.strip()
        ]
    elif isinstance(raw, list):
        entries = raw
    else:
        raise ValidationError('must be a list of {"speaker": …, "role": …}.')
    cleaned, seen = [], set()
    for number, entry in enumerate(entries, start=1):
        cleaned.append(clean_entry(number, entry, seen))
    return cleaned


def clean_entry(number: int, entry: object, seen: set) -> dict:
    where = f"appearance {number}"
    if not isinstance(entry, dict):
        raise ValidationError(f'{where} must be an object: {{"speaker": …, "role": …}}.')
    unknown = sorted(set(entry) - {"speaker", "role"})
    if unknown:
        raise ValidationError(f"{where} has unknown fields ({', '.join(unknown)}).")
    slug, role = entry.get("speaker"), entry.get("role")
    if not isinstance(slug, str) or not slug.strip():
        raise ValidationError(f"{where} needs the speaker's slug.")
    slug = slug.strip()
    try:
        Speaker._meta.get_field("slug").run_validators(slug)
    except ValidationError:
        raise ValidationError(f"{where}: “{slug}” is not a speaker's slug.") from None
    if role not in Role.values:
        shown = role if isinstance(role, str) else "nothing"
        raise ValidationError(f"{where} (“{slug}”): the role “{shown}” is not one of {ROLES}.")
    if slug in seen:
        raise ValidationError(f"{where}: “{slug}” is listed twice; one role per episode.")
    seen.add(slug)
    return {"speaker": slug, "role": role}


def in_file_order(appearances: Iterable[dict]) -> list[dict]:
    """Roles in the pages' order (hosts, guests, others); within a role, as given."""
    return sorted(appearances, key=lambda entry: ROLE_ORDER[entry["role"]])


def same_appearances(one: list[dict], other: list[dict]) -> bool:
    """Whether two lists name the same people in the same roles, in whatever order."""

    def as_set(entries):
        return {(entry["speaker"], entry["role"]) for entry in entries}

    return as_set(one) == as_set(other)


def stored_appearances(episodes: Iterable[Episode], among=None) -> dict[int, list[dict]]:
    """{episode id: its appearances as the file writes them} for `episodes`. One query;
    `among`, a queryset of the episodes' ids, spares the database a list of thousands."""
    stored = {episode.pk: [] for episode in episodes}
    for appearance in (
        Appearance.objects.filter(episode__in=list(stored) if among is None else among)
        .select_related("speaker")
        .only("episode_id", "role", "speaker__slug")
        .order_by("pk")
    ):
        stored[appearance.episode_id].append(
            {"speaker": appearance.speaker.slug, "role": appearance.role}
        )
    return {episode_id: in_file_order(entries) for episode_id, entries in stored.items()}


def write_appearances(episodes: dict, speakers: dict, to_write: dict) -> None:
    """Make each episode's appearances exactly those planned: `to_write` maps an
    episode's key in `episodes` to its list; `speakers` maps slugs to speakers."""
    if not to_write:
        return
    changing = [episodes[key] for key in to_write]
    Appearance.objects.filter(episode__in=changing).delete()
    Appearance.objects.bulk_create(
        Appearance(
            episode=episodes[key],
            speaker=speakers[entry["speaker"]],
            role=entry["role"],
            air_date=episodes[key].air_date,
        )
        for key, entries in to_write.items()
        for entry in in_file_order(entries)
    )
