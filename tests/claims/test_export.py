"""manage.py export_ledger: the published ledger, in the format import_ledger reads."""

import csv
import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.db import transaction

from claims.models import Attribution, Claim
from episodes.models import Episode, Podcast, Speaker, Status
from tests.claims.ledger_files import run_export, run_import
from tests.factories import make_claim, make_episode, make_podcast, make_speaker

pytestmark = pytest.mark.django_db


def build_ledger():
    """Two fictional shows with every kind of record, drafts and a retraction among them."""
    show = make_podcast(
        name="Example Show",
        slug="example-show",
        description="A fictional show.",
        website_url="https://example.com/example-show/",
    )
    other = make_podcast(name="Sample Hour", slug="sample-hour")
    ada = make_speaker(name="Ada Example", slug="ada-example", links="https://example.com/ada/")
    ben = make_speaker(name="Ben Sample", slug="ben-sample", description="Fictional guest")
    pilot = make_episode(
        show,
        slug="pilot",
        title="Pilot",
        air_date="2026-03-01",
        audio_url="https://example.com/pilot.mp3",
        transcript="Ada Example: Prices will fall next year.\nCaller 2: Not a chance.",
    )
    make_claim(pilot, ada, number=1, excerpt="Prices will fall next year.", timestamp=12)
    make_claim(
        pilot,
        number=2,
        type="disagreement",
        excerpt="Not a chance.",
        attribution=Attribution.UNRESOLVED,
        unresolved_label="Caller 2",
    )
    make_claim(pilot, ben, number=3, excerpt="A draft, never exported.", status=Status.DRAFT)
    make_claim(pilot, ben, number=4, excerpt="Words later retracted.").retract(
        "Misattributed: the speaker was not on this episode."
    )
    second = make_episode(other, slug="second", title="Second", air_date="2026-04-01")
    make_claim(second, ben, number=5, summary="Ben's view.", excerpt="Markets are efficient.")
    make_claim(make_episode(show, slug="unaired", status=Status.DRAFT), ada, number=1)


def ledger_contents():
    """Every field of every record the public sees, the way a reader would compare them."""
    return {
        "podcasts": list(
            Podcast.objects.order_by("slug").values_list(
                "slug", "name", "description", "website_url", "feed_url"
            )
        ),
        "speakers": list(
            Speaker.objects.filter(claims__in=Claim.objects.published())
            .distinct()
            .order_by("slug")
            .values_list("slug", "name", "description", "links")
        ),
        "episodes": list(
            Episode.objects.published()
            .order_by("slug")
            .values_list(
                "podcast__slug",
                "slug",
                "title",
                "air_date",
                "original_url",
                "audio_url",
                "summary",
                "transcript__text",
                "status",
            )
        ),
        "claims": list(
            Claim.objects.published()
            .order_by("episode__slug", "number")
            .values_list(
                "episode__slug",
                "number",
                "type",
                "excerpt",
                "summary",
                "attribution",
                "speaker__slug",
                "unresolved_label",
                "timestamp",
                "status",
                "verification",
                "search_context",
            )
        ),
    }


def exported_then_emptied(*options):
    """Export a built ledger, then roll it back: the database is empty again."""
    with transaction.atomic():
        build_ledger()
        exported = run_export(*options)
        contents = ledger_contents()
        transaction.set_rollback(True)
    assert Claim.objects.count() == 0
    return exported, contents


def test_export_holds_published_claims_of_published_episodes_only(db):
    build_ledger()

    document = json.loads(run_export())

    assert [(e["podcast"], e["slug"]) for e in document["episodes"]] == [
        ("example-show", "pilot"),
        ("sample-hour", "second"),
    ]
    assert [c["number"] for c in document["episodes"][0]["claims"]] == [1, 2]
    assert [s["slug"] for s in document["speakers"]] == ["ada-example", "ben-sample"]


def test_an_exported_claim_has_every_field_of_the_format(db):
    build_ledger()

    claim = json.loads(run_export())["episodes"][0]["claims"][1]

    assert claim == {
        "number": 2,
        "type": "disagreement",
        "excerpt": "Not a chance.",
        "summary": "",
        "speaker": None,
        "unresolved_label": "Caller 2",
        "timestamp": None,
        "status": "published",
    }


@pytest.mark.parametrize("file_format", ["json", "csv"])
def test_export_then_import_into_an_empty_ledger_round_trips_exactly(tmp_path, file_format):
    exported, contents = exported_then_emptied("--format", file_format)

    run_import(tmp_path, exported.encode(), f"ledger.{file_format}")

    assert ledger_contents() == contents
    assert run_export("--format", file_format) == exported


def test_an_export_imported_again_changes_nothing(tmp_path):
    build_ledger()
    exported = run_export("--format", "csv")

    out, _ = run_import(tmp_path, exported.encode(), "ledger.csv")

    assert "Created: nothing. Updated: nothing." in out


def test_export_of_one_podcast(db):
    build_ledger()

    document = json.loads(run_export("--podcast", "sample-hour"))

    assert [p["slug"] for p in document["podcasts"]] == ["sample-hour"]
    assert [e["slug"] for e in document["episodes"]] == ["second"]
    assert [s["slug"] for s in document["speakers"]] == ["ben-sample"]


def test_export_of_one_episode(db):
    build_ledger()

    document = json.loads(run_export("--episode", "example-show/pilot"))

    assert [e["slug"] for e in document["episodes"]] == ["pilot"]
    assert [c["number"] for c in document["episodes"][0]["claims"]] == [1, 2]


def test_export_of_a_draft_episode_is_refused_with_a_clear_error(db):
    build_ledger()

    with pytest.raises(
        CommandError, match="Nothing published under episode “example-show/unaired”"
    ):
        run_export("--episode", "example-show/unaired")


def test_export_to_a_file(tmp_path, db):
    build_ledger()
    target = tmp_path / "ledger.csv"

    call_command("export_ledger", "--format", "csv", "--output", str(target), stdout=io.StringIO())

    assert target.read_text().startswith("record,podcast,episode,number,speaker,type,excerpt,")
    assert target.read_text().count("\nclaim,") == 3


def csv_round_trip(tmp_path, build):
    """Build a ledger, export it as CSV, empty the ledger, import the export; the export."""
    with transaction.atomic():
        build()
        exported = run_export("--format", "csv")
        contents = ledger_contents()
        transaction.set_rollback(True)

    run_import(tmp_path, exported.encode(), "ledger.csv")

    assert ledger_contents() == contents
    assert run_export("--format", "csv") == exported
    return exported


def test_a_csv_export_with_a_two_megabyte_transcript_imports_back(tmp_path):
    transcript = "Ada Example: " + "every word on the record " * 90_000

    def build():
        episode = make_episode(slug="long", transcript=transcript)
        make_claim(episode, make_speaker(name="Ada Example"), excerpt="every word on the record")

    exported = csv_round_trip(tmp_path, build)

    assert len(transcript) > 2_000_000
    assert transcript in exported


FORMULAS = ("=1+1", "+1 more", "-- a dash", "@everyone", "\tTabbed", "\rReturned")


def test_csv_export_writes_no_cell_a_spreadsheet_would_run_and_imports_back_exactly(tmp_path):
    def build():
        episode = make_episode(slug="formulas", title='=HYPERLINK("https://example.com")')
        speaker = make_speaker(name="Ada Example", description="+44 for Example Labs")
        for number, excerpt in enumerate(FORMULAS, start=1):
            make_claim(episode, speaker, number=number, excerpt=excerpt)
        make_claim(episode, speaker, number=7, excerpt="'Tis a quote.", summary="''Twas.")

    exported = csv_round_trip(tmp_path, build)

    cells = [cell for row in csv.reader(io.StringIO(exported)) for cell in row]
    assert not [cell for cell in cells if cell.startswith(("=", "+", "-", "@", "\t", "\r"))]
    assert "'=1+1" in cells
    assert "''Tis a quote." in cells
