"""Corrections, not silent edits: every change kept, public claims corrected in the open."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from claims.models import Attribution, Claim, ClaimRevision, ClaimStatus, RevisionKind
from episodes.models import Status
from tests.claims.admin_forms import claim_change_form, episode_change_form
from tests.claims.ledger_files import as_json, document, failed_import, run_import
from tests.factories import make_claim, make_episode, make_speaker

pytestmark = pytest.mark.django_db

NOTE_NEEDED = (
    "Claim 01 is published: a change to its excerpt is a correction. Say what was wrong in a "
    "correction note; readers will see it with the claim."
)


@pytest.fixture
def published():
    return make_claim(
        make_episode(), make_speaker(name="Ada Example"), number=1, excerpt="The first wording."
    )


def test_changing_a_published_excerpt_without_a_note_is_refused(published):
    published.excerpt = "A quietly better wording."

    with pytest.raises(ValidationError) as refused:
        published.save()

    assert refused.value.message_dict == {"correction_note": [NOTE_NEEDED]}
    assert Claim.objects.get(pk=published.pk).excerpt == "The first wording."


@pytest.mark.parametrize("change", ["type", "speaker", "attribution"])
def test_changing_what_a_published_claim_says_or_who_said_it_needs_a_note(published, change):
    if change == "type":
        published.type = "prediction"
    elif change == "speaker":
        published.speaker = make_speaker(name="Ben Sample")
    else:
        published.attribution, published.speaker = Attribution.UNRESOLVED, None

    with pytest.raises(ValidationError, match="is a correction"):
        published.save()


def test_a_correction_with_a_note_is_saved_and_kept_in_the_history(published):
    published.excerpt = "The corrected wording."
    published.save(correction_note="The excerpt was transcribed from the wrong minute.")

    revision = published.revisions.first()
    assert (revision.kind, revision.note, revision.changes) == (
        RevisionKind.CORRECTED,
        "The excerpt was transcribed from the wrong minute.",
        {"excerpt": ["The first wording.", "The corrected wording."]},
    )


def test_the_correction_note_is_shown_on_the_permalink(client, published):
    published.excerpt = "The corrected wording."
    published.save(correction_note="The excerpt was transcribed from the wrong minute.")

    html = client.get(published.get_absolute_url()).content.decode()

    assert "“The corrected wording.”" in html
    assert (
        "(excerpt): The excerpt was transcribed from the wrong minute.</p>" in html
        and '<p class="correction"><strong>Correction</strong>, <time datetime="' in html
    )


def test_the_correction_note_is_shown_on_the_claim_card_of_the_episode_page(client, published):
    published.type = "prediction"
    published.save(correction_note="It is a prediction, not an evaluation.")

    html = client.get(published.episode.get_absolute_url()).content.decode()

    assert "(type): It is a prediction, not an evaluation.</p>" in html


def test_a_draft_is_edited_freely_and_nothing_is_shown_to_readers():
    draft = make_claim(excerpt="A first try.", status=Status.DRAFT)

    draft.excerpt = "A second try."
    draft.save()

    assert draft.revisions.first().kind == RevisionKind.EDITED
    assert draft.corrections == []


def test_a_published_claims_summary_changes_without_a_note(published):
    published.summary = "A better summary."
    published.save()

    revision = published.revisions.first()
    assert (revision.kind, revision.changes) == (
        RevisionKind.EDITED,
        {"summary": ["", "A better summary."]},
    )
    assert published.corrections == []


def test_creating_a_claim_is_the_first_entry_of_its_history(published):
    revision = published.revisions.get()

    assert revision.kind == RevisionKind.CREATED
    assert revision.changes["excerpt"] == [None, "The first wording."]
    assert revision.changes["speaker"] == [None, "Ada Example"]


def test_saving_an_unchanged_claim_adds_nothing_to_its_history(published):
    published.save()

    assert published.revisions.count() == 1


def test_a_published_claims_number_never_changes(published):
    published.number = 2

    with pytest.raises(ValidationError) as refused:
        published.save()

    assert refused.value.message_dict["number"] == [
        "Claim 01 is published: its number is part of its permalink and never changes. "
        "Retract it and add a new claim instead."
    ]


# In the admin -------------------------------------------------------------------------


def test_the_admin_refuses_a_correction_without_a_note_and_says_why(editor_client, published):
    url = reverse("admin:claims_claim_change", args=[published.pk])

    response = editor_client.post(url, claim_change_form(published, excerpt="New words."))

    assert response.status_code == 200
    assert "a change to its excerpt is a correction" in response.content.decode()
    assert Claim.objects.get(pk=published.pk).excerpt == "The first wording."


def test_the_admin_records_a_correction_with_its_editor(editor_client, editor, published):
    url = reverse("admin:claims_claim_change", args=[published.pk])

    response = editor_client.post(
        url,
        claim_change_form(
            published, excerpt="New words.", correction_note="Misheard at first listening."
        ),
    )

    assert response.status_code == 302
    revision = published.revisions.first()
    assert (revision.kind, revision.changed_by, revision.via, revision.note) == (
        RevisionKind.CORRECTED,
        editor,
        "admin",
        "Misheard at first listening.",
    )


def test_the_admin_shows_every_change_on_the_claim(editor_client, published):
    published.excerpt = "The corrected wording."
    published.save(correction_note="Misheard at first listening.")

    response = editor_client.get(reverse("admin:claims_claim_change", args=[published.pk]))
    html = response.content.decode()

    assert "History: every change to this claim" in html
    assert "<strong>excerpt</strong>: The first wording. → The corrected wording." in html
    assert "Misheard at first listening." in html


def test_publishing_from_the_claims_list_is_kept_with_who_did_it(editor_client, editor):
    draft = make_claim(status=Status.DRAFT)

    editor_client.post(
        reverse("admin:claims_claim_changelist"),
        {"action": "publish", "_selected_action": [draft.pk]},
    )

    revision = draft.revisions.first()
    assert (revision.changes, revision.changed_by) == (
        {"status": [ClaimStatus.DRAFT, ClaimStatus.PUBLISHED]},
        editor,
    )


def inline_form(published, **claim_fields):
    """The episode's change form with its one claim, as the browser sends it."""
    claim = {
        "id": published.pk,
        "episode": published.episode_id,
        "number": 1,
        "type": published.type,
        "excerpt": published.excerpt,
        "attribution": published.attribution,
        "speaker": published.speaker_id,
        "unresolved_label": "",
        "timestamp": "",
        "summary": "",
        "status": published.status,
        "correction_note": "",
        **claim_fields,
    }
    return episode_change_form(published.episode, claims=[claim])


def test_the_episode_page_takes_no_change_to_a_published_claim(editor_client, published):
    # Its published claims are a table linking to their pages: a row posted for one
    # (from a page opened while it was a draft) is refused, even with a note.
    url = reverse("admin:episodes_episode_change", args=[published.episode.pk])
    form = inline_form(published, excerpt="New words.", correction_note="Misheard at first.")

    response = editor_client.post(url, form)

    assert response.status_code == 200
    assert "was published, retracted or deleted since the page was opened" in (
        response.content.decode()
    )
    published.refresh_from_db()
    assert published.excerpt == "The first wording."
    assert published.revisions.count() == 1


def test_a_correction_made_on_the_claims_page_is_shown_to_readers(editor_client, editor, published):
    url = reverse("admin:claims_claim_change", args=[published.pk])
    form = claim_change_form(published, excerpt="New words.", correction_note="Misheard at first.")

    response = editor_client.post(url, form)

    assert response.status_code == 302
    revision = published.revisions.first()
    assert (revision.kind, revision.changed_by, revision.note) == (
        RevisionKind.CORRECTED,
        editor,
        "Misheard at first.",
    )
    published.refresh_from_db()
    assert [c.note for c in published.public_corrections] == ["Misheard at first."]


# Through an import ----------------------------------------------------------------------


def test_an_import_that_changes_a_published_excerpt_needs_a_correction_note(tmp_path):
    run_import(tmp_path, as_json(document()))
    doc = document()
    doc["episodes"][0]["claims"][0]["excerpt"] = "Quietly changed words."

    _, stderr = failed_import(tmp_path, as_json(doc))

    assert stderr.strip() == (
        "episodes[0].claims[0], correction_note: Claim 01 is published: a change to its excerpt "
        "is a correction. Say what was wrong in a correction note; readers will see it with "
        "the claim."
    )


def test_an_import_with_a_correction_note_corrects_the_claim_in_the_open(tmp_path, client):
    run_import(tmp_path, as_json(document()))
    doc = document()
    doc["episodes"][0]["claims"][0]["excerpt"] = "A quote without a source is a rumour."
    doc["episodes"][0]["claims"][0]["correction_note"] = "Trimmed to the claim itself."

    run_import(tmp_path, as_json(doc))

    claim = Claim.objects.get(number=1)
    assert claim.revisions.first().kind == RevisionKind.CORRECTED
    assert "(excerpt): Trimmed to the claim itself.</p>" in (
        client.get(claim.get_absolute_url()).content.decode()
    )
    assert ClaimRevision.objects.filter(via="import of ledger.json").count() == 4
