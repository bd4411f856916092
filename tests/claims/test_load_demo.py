"""load_demo can be run again and again: it updates the demo ledger in place."""

import io

import pytest
from django.core.management import call_command

from claims.management.commands.load_demo import DEMO_DIR, DEMO_FILES
from claims.models import Claim, ClaimRevision
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

    assert "Demo ledger ready: 36 published claims in 5 published episodes." in out.getvalue()


def test_load_demo_writes_through_the_importer_and_its_history(demo):
    vias = set(ClaimRevision.objects.values_list("via", flat=True))

    assert vias == {"import of reference_episode.json", "import of example_show.json"}


@pytest.mark.parametrize("name", DEMO_FILES)
def test_the_demo_files_are_ledger_files_the_import_command_reads(db, name):
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
