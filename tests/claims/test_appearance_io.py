"""Appearances in the ledger file: exported with their episode, imported back exactly."""

import json

import pytest
from django.db import transaction

from episodes.models import Appearance, Role, Speaker, Status
from tests.claims.ledger_files import (
    as_csv,
    as_json,
    document,
    failed_import,
    run_export,
    run_import,
)
from tests.factories import make_appearance, make_claim, make_episode, make_podcast, make_speaker

pytestmark = pytest.mark.django_db


def build_cast():
    """An episode with a host, a guest who has claims and a guest who has none; a draft
    episode with a guest of its own."""
    show = make_podcast(name="Example Show", slug="example-show")
    ada = make_speaker(name="Ada Example", slug="ada-example")
    ben = make_speaker(name="Ben Sample", slug="ben-sample")
    cleo = make_speaker(name="Cleo Placeholder", slug="cleo-placeholder")
    pilot = make_episode(show, slug="pilot", title="Pilot")
    make_claim(pilot, ben, number=1)
    make_appearance(pilot, cleo, Role.GUEST)
    make_appearance(pilot, ben, Role.GUEST)
    make_appearance(pilot, ada, Role.HOST)
    draft = make_episode(show, slug="unaired", status=Status.DRAFT)
    make_appearance(draft, make_speaker(name="Di Nobody", slug="di-nobody"), Role.GUEST)


def appearances():
    return sorted(Appearance.objects.values_list("episode__slug", "speaker__slug", "role"))


def test_an_episode_exports_its_appearances_hosts_first_then_guests_as_entered():
    build_cast()

    [pilot] = json.loads(run_export())["episodes"]

    assert pilot["appearances"] == [
        {"speaker": "ada-example", "role": "host"},
        {"speaker": "cleo-placeholder", "role": "guest"},
        {"speaker": "ben-sample", "role": "guest"},
    ]


def test_export_names_a_speaker_who_only_appeared_and_not_one_on_a_draft_episode():
    build_cast()

    speakers = json.loads(run_export())["speakers"]

    assert [s["slug"] for s in speakers] == ["ada-example", "ben-sample", "cleo-placeholder"]


@pytest.mark.parametrize("file_format", ["json", "csv"])
def test_appearances_round_trip_exactly_through_an_empty_ledger(tmp_path, file_format):
    with transaction.atomic():
        build_cast()
        exported = run_export("--format", file_format)
        before = [row for row in appearances() if row[0] == "pilot"]
        transaction.set_rollback(True)
    assert not Appearance.objects.exists()

    run_import(tmp_path, exported.encode(), f"ledger.{file_format}")

    assert appearances() == before
    assert run_export("--format", file_format) == exported


def test_an_export_imported_again_changes_no_appearance(tmp_path):
    build_cast()
    exported = run_export()
    ids = sorted(Appearance.objects.values_list("pk", flat=True))

    out, _ = run_import(tmp_path, exported.encode())

    assert "Updated: nothing." in out
    assert sorted(Appearance.objects.values_list("pk", flat=True)) == ids


def test_a_files_list_of_appearances_replaces_the_episodes_list(tmp_path):
    doc = document()
    doc["episodes"][0]["appearances"] = [
        {"speaker": "ada-example", "role": "host"},
        {"speaker": "ben-sample", "role": "guest"},
    ]
    run_import(tmp_path, as_json(doc))
    doc["episodes"][0]["appearances"] = [{"speaker": "ben-sample", "role": "host"}]

    out, _ = run_import(tmp_path, as_json(doc))

    assert "episode example-show/pilot: appearances" in out
    assert appearances() == [("pilot", "ben-sample", "host")]


def test_an_episode_without_an_appearances_list_keeps_its_appearances(tmp_path):
    doc = document()
    doc["episodes"][0]["appearances"] = [{"speaker": "ada-example", "role": "host"}]
    run_import(tmp_path, as_json(doc))
    del doc["episodes"][0]["appearances"]

    run_import(tmp_path, as_json(doc))

    assert appearances() == [("pilot", "ada-example", "host")]


def test_an_unknown_speaker_in_appearances_is_reported_on_its_episode(tmp_path):
    doc = document()
    doc["episodes"][0]["appearances"] = [{"speaker": "nobody-known", "role": "guest"}]

    _, error = failed_import(tmp_path, as_json(doc))

    assert (
        "episodes[0], appearances: no speaker “nobody-known” in this file or in the ledger."
        in error
    )
    assert not Speaker.objects.exists()


def test_a_bad_role_is_reported_with_the_roles_there_are(tmp_path):
    doc = document()
    doc["episodes"][0]["appearances"] = [
        {"speaker": "ada-example", "role": "host"},
        {"speaker": "ben-sample", "role": "co-host"},
    ]

    _, error = failed_import(tmp_path, as_json(doc))

    assert (
        "episodes[0], appearances: appearance 2 (“ben-sample”): the role “co-host” is not "
        "one of host, guest, other." in error
    )


def test_a_speaker_listed_twice_is_refused(tmp_path):
    doc = document()
    doc["episodes"][0]["appearances"] = [
        {"speaker": "ada-example", "role": "host"},
        {"speaker": "ada-example", "role": "guest"},
    ]

    _, error = failed_import(tmp_path, as_json(doc))

    assert "appearance 2: “ada-example” is listed twice; one role per episode." in error


def test_a_bad_role_in_a_csv_cell_is_reported_on_its_row(tmp_path):
    doc = document()
    doc["episodes"][0]["appearances"] = [{"speaker": "ada-example", "role": "host"}]
    content = as_csv(doc).replace(b"ada-example host", b"ada-example presenter")

    _, error = failed_import(tmp_path, content, "ledger.csv")

    assert (
        "row 5, appearances: appearance 1 (“ada-example”): the role “presenter” is not one of "
        "host, guest, other." in error
    )


def test_appearances_that_are_not_a_list_are_refused(tmp_path):
    doc = document()
    doc["episodes"][0]["appearances"] = {"speaker": "ada-example", "role": "host"}

    _, error = failed_import(tmp_path, as_json(doc))

    assert "episodes[0], appearances: must be a single value, not a list or an object." in error
