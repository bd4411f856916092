"""load_demo can be run again and again: it updates the demo ledger in place."""

import io
import json

import pytest
from django.core.management import call_command

from claims.management.commands.load_demo import DEMO_DIR, DEMO_FILES
from claims.models import Claim, ClaimRevision, RevisionKind
from episodes.models import Episode, Podcast, Speaker


def reference_claims():
    return Claim.objects.filter(
        episode__podcast__slug="the-cognitive-revolution",
        episode__slug="the-rl-fine-tuning-playbook",
    )


def record_counts():
    return {model.__name__: model.objects.count() for model in (Podcast, Episode, Speaker, Claim)}


def test_load_demo_loads_the_nineteen_reference_claims_at_their_numbers(demo):
    numbers = list(reference_claims().order_by("number").values_list("number", flat=True))

    assert numbers == [1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15, 17, 18, 19, 21, 22]
    assert reference_claims().published().count() == 19


def test_load_demo_twice_keeps_nineteen_claims_on_the_reference_episode(demo):
    call_command("load_demo", stdout=io.StringIO())

    assert reference_claims().count() == 19


def test_load_demo_twice_duplicates_nothing(demo):
    before = record_counts()

    call_command("load_demo", stdout=io.StringIO())

    assert record_counts() == before


def test_load_demo_reports_what_is_public(db):
    out = io.StringIO()

    call_command("load_demo", stdout=out)

    assert "Demo ledger ready: 37 published claims in 5 published episodes." in out.getvalue()


def test_load_demo_writes_through_the_importer_and_its_history(demo):
    vias = set(ClaimRevision.objects.values_list("via", flat=True))

    assert vias == {
        "import of reference_episode.json",
        "import of example_show.json",
        "import of example_show_later.json",
    }


@pytest.mark.parametrize("name", DEMO_FILES)
def test_the_demo_files_are_ledger_files_the_import_command_reads(db, name):
    # Each file builds on the ones before it, as an editor's imports would.
    for earlier in DEMO_FILES[: DEMO_FILES.index(name)]:
        call_command("import_ledger", DEMO_DIR / earlier, stdout=io.StringIO())
    out = io.StringIO()

    call_command("import_ledger", DEMO_DIR / name, "--dry-run", stdout=out)

    assert "Nothing would be written: this was a dry run." in out.getvalue()


def test_the_demo_shows_topics_and_references(client, demo):
    topics = client.get("/topics/").content.decode()
    references = client.get("/references/").content.decode()

    assert '<a href="/topics/testing/">Testing</a>' in topics
    assert "Recommended by 2 people · mentioned by 1" in references
    assert "Used by 1 person · criticised by an unresolved voice" in references
    # Named only in a draft claim.
    assert "Dates Are Promises" not in references


def test_the_demo_shows_a_host_guests_and_a_guest_without_claims(client, demo):
    html = client.get("/episodes/example-show/roadmap-without-dates/").content.decode()
    cleo = Speaker.objects.get(slug="cleo-placeholder")

    assert '<span class="cast-role">Host:</span> <a href="/speakers/ada-example/">' in html
    assert '<a href="/speakers/cleo-placeholder/">Cleo Placeholder</a></p>' in html
    assert not cleo.claims.exists()
    assert client.get(cleo.get_absolute_url()).status_code == 200


ROADMAP = "/episodes/example-show/roadmap-without-dates/"
CORRECTION_NOTE = (
    "The excerpt added “along”, which Ada Example does not say; it now quotes the "
    "transcript word for word."
)


def roadmap_claim(number):
    return Claim.objects.get(episode__slug="roadmap-without-dates", number=number)


def ledger_state():
    """Every claim as stored, and every revision: what a second load must leave alone."""
    claims = Claim.objects.order_by("pk").values_list(
        "pk", "excerpt", "status", "corrections", "retracted_at", "updated_at"
    )
    revisions = ClaimRevision.objects.order_by("pk").values_list("pk", "kind", "created_at")
    return list(claims), list(revisions)


def test_the_demo_corrects_a_claim_in_public(client, demo):
    claim = roadmap_claim(4)
    revisions = list(claim.revisions.order_by("pk").values_list("kind", "changes", "note"))
    html = client.get(f"{ROADMAP}claims/4/").content.decode()

    assert claim.excerpt == "The people doing the work find out what it costs as they go."
    assert [(c.note, c.fields) for c in claim.public_corrections] == [
        (CORRECTION_NOTE, ("excerpt",))
    ]
    assert revisions[-1] == (
        RevisionKind.CORRECTED,
        {
            "excerpt": [
                "The people doing the work find out what it costs as they go along.",
                "The people doing the work find out what it costs as they go.",
            ]
        },
        CORRECTION_NOTE,
    )
    assert "(excerpt): The excerpt added “along”, which Ada Example does not say" in html


def test_the_demo_retracts_a_claim_in_public(client, demo):
    claim = roadmap_claim(5)
    html = client.get(f"{ROADMAP}claims/5/").content.decode()

    assert claim.status == "retracted"
    assert claim.retracted_at is not None
    assert claim.revisions.filter(kind=RevisionKind.RETRACTED).count() == 1
    assert "Ben Sample is explaining the monthly list he has just promised" in html
    assert "A list of what happened is harder to argue with" not in html


def test_the_corrections_log_lists_the_demos_retraction_then_its_correction(client, demo):
    html = client.get("/corrections/").content.decode()

    assert "2 corrections and retractions" in html
    retraction = html.index(
        f'Retraction</span> <span aria-hidden="true">·</span> <a href="{ROADMAP}claims/5/">'
    )
    correction = html.index(
        f'Correction</span> <span aria-hidden="true">·</span> <a href="{ROADMAP}claims/4/">'
    )
    assert retraction < correction


def test_the_api_shows_the_demos_correction_and_retraction(client, demo):
    corrected = client.get(f"/api/v1/claims/{roadmap_claim(4).pk}/").json()
    retracted = client.get(f"/api/v1/claims/{roadmap_claim(5).pk}/").json()

    assert [c["note"] for c in corrected["corrections"]] == [CORRECTION_NOTE]
    assert retracted["status"] == "retracted"
    assert retracted["retraction"]["reason"].startswith("Ben Sample is explaining")


def test_the_episode_download_carries_the_demos_correction_note(client, demo):
    response = client.get(f"{ROADMAP}claims.json")
    rows = json.loads(b"".join(response.streaming_content))["claims"]

    assert [row["corrections"] for row in rows if row["number"] == 4] == [CORRECTION_NOTE]
    assert 5 not in [row["number"] for row in rows]


def test_load_demo_twice_changes_nothing_neither_undoing_nor_repeating_the_correction(demo):
    before = ledger_state()

    call_command("load_demo", stdout=io.StringIO())

    assert ledger_state() == before
    assert len(roadmap_claim(4).corrections) == 1
