"""Retraction: a published claim leaves the public record but keeps its number and permalink."""

import re

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError
from django.urls import reverse

from claims.models import Claim, ClaimStatus, RevisionKind
from episodes.models import Episode, Status
from tests.claims.ledger_files import as_json, document, failed_import, run_import
from tests.factories import make_claim, make_episode, make_podcast, make_speaker

pytestmark = pytest.mark.django_db

REASON = "Misattributed: Ben Sample was not on this episode."


@pytest.fixture
def ledger(db):
    """One episode: a claim by Ada that stays, and one by Ben that is retracted."""
    episode = make_episode(
        podcast=make_podcast(name="Example Show", slug="example-show"), title="Pilot"
    )
    ada = make_speaker(name="Ada Example", slug="ada-example")
    ben = make_speaker(name="Ben Sample", slug="ben-sample")
    kept = make_claim(episode, ada, number=1, type="belief", excerpt="Zeppelins are coming back.")
    retracted = make_claim(
        episode, ben, number=2, type="prediction", excerpt="Zeppelins will carry freight by 2030."
    )
    retracted.retract(REASON)
    return {"episode": episode, "ada": ada, "ben": ben, "kept": kept, "retracted": retracted}


def numbers_shown(html):
    return re.findall(r'class="claim-number"[^>]*>(\d+)</a>', html)


def test_retracting_keeps_the_number_and_records_when_and_why(ledger):
    claim = Claim.objects.get(pk=ledger["retracted"].pk)

    assert (claim.number, claim.status, claim.retraction_reason) == (
        2,
        ClaimStatus.RETRACTED,
        REASON,
    )
    assert claim.retracted_at is not None
    assert claim.revisions.first().kind == RevisionKind.RETRACTED


def test_the_permalink_shows_the_retraction_and_its_reason_instead_of_the_claim(client, ledger):
    response = client.get(ledger["retracted"].get_absolute_url())
    html = response.content.decode()

    assert response.status_code == 200
    assert "<title>Claim 02 (retracted) · Pilot · Evidence Ledger</title>" in html
    assert f"</time>. {REASON}</p>" in html
    assert "Zeppelins will carry freight" not in html
    assert "/speakers/ben-sample/" not in html


def test_the_episode_page_leaves_the_retracted_claim_out_of_its_ledger_and_counts(client, ledger):
    html = client.get(ledger["episode"].get_absolute_url()).content.decode()

    assert numbers_shown(html) == ["01"]
    assert "<span>1 published claim</span>" in html
    assert "<span>1 attributable person</span>" in html
    assert "Zeppelins will carry freight" not in html


def test_the_speakers_page_of_a_retracted_claim_is_gone_when_it_was_their_only_one(client, ledger):
    assert client.get(ledger["ben"].get_absolute_url()).status_code == 404
    assert "Ben Sample" not in client.get(reverse("episodes:speaker_list")).content.decode()


def test_the_claims_browser_leaves_the_retracted_claim_out(client, ledger):
    html = client.get(reverse("claims:claim_list")).content.decode()

    assert numbers_shown(html) == ["01"]
    assert "1 published claim" in html


def test_search_does_not_find_a_retracted_claim(client, ledger):
    html = client.get(reverse("claims:claim_list"), {"q": "zeppelins"}).content.decode()

    assert numbers_shown(html) == ["01"]
    assert "freight" not in html


def test_facets_do_not_count_a_retracted_claim(client, ledger):
    html = client.get(reverse("claims:claim_list")).content.decode()

    assert 'id="type-belief"' in html and 'id="type-prediction"' not in html
    assert "?speaker=ada-example" in html and "?speaker=ben-sample" not in html


def test_the_home_page_counts_leave_a_retracted_claim_out(client, ledger):
    html = client.get(reverse("home")).content.decode()

    assert "<strong>1</strong> published claim</li>" in html
    assert "<strong>1</strong> attributable person</li>" in html


def test_retracting_needs_a_reason(ledger):
    with pytest.raises(ValidationError, match="Say why the claim is retracted"):
        ledger["kept"].retract("   ")


def test_the_database_refuses_a_retraction_without_a_reason(ledger):
    with pytest.raises(IntegrityError), transaction.atomic():
        Claim.objects.filter(pk=ledger["kept"].pk).update(status=ClaimStatus.RETRACTED)


def test_only_a_published_claim_can_be_retracted():
    draft = make_claim(status=Status.DRAFT)

    with pytest.raises(ValidationError, match="Only a published claim can be retracted"):
        draft.retract(REASON)


def test_a_retracted_claim_cannot_be_changed(ledger):
    claim = Claim.objects.get(pk=ledger["retracted"].pk)
    claim.status = ClaimStatus.PUBLISHED

    with pytest.raises(ValidationError, match="was retracted: it is kept as it was"):
        claim.save()


@pytest.mark.parametrize("which", ["kept", "retracted"])
def test_published_and_retracted_claims_are_never_deleted(ledger, which):
    with pytest.raises(ProtectedError, match="only drafts are deleted"):
        ledger[which].delete()

    assert Claim.objects.filter(pk=ledger[which].pk).exists()


def test_deleting_claims_in_bulk_spares_nothing_on_the_record(ledger):
    with pytest.raises(ProtectedError):
        Claim.objects.all().delete()

    assert Claim.objects.count() == 2


def test_a_draft_can_be_deleted():
    draft = make_claim(status=Status.DRAFT)

    draft.delete()

    assert not Claim.objects.filter(pk=draft.pk).exists()


def test_an_episode_with_a_retracted_claim_cannot_be_deleted(ledger):
    episode = ledger["episode"]
    ledger["kept"].retract("Said as a joke; the host said so at once.")

    with pytest.raises(ProtectedError):
        episode.delete()

    assert Episode.objects.filter(pk=episode.pk).exists()


# In the admin -------------------------------------------------------------------------


def test_the_retract_action_asks_for_a_reason(editor_client, ledger):
    response = editor_client.post(
        reverse("admin:claims_claim_changelist"),
        {"action": "retract", "_selected_action": [ledger["kept"].pk]},
    )

    assert response.status_code == 200
    assert "A retracted claim keeps its number and its permalink" in response.content.decode()
    assert Claim.objects.get(pk=ledger["kept"].pk).status == ClaimStatus.PUBLISHED


def test_the_retract_action_retracts_with_the_reason_given(editor_client, editor, ledger):
    response = editor_client.post(
        reverse("admin:claims_claim_changelist"),
        {
            "action": "retract",
            "_selected_action": [ledger["kept"].pk],
            "reason": "The guest asked us to check it; the recording says otherwise.",
        },
        follow=True,
    )

    assert "Retracted 1 claim(s)." in response.content.decode()
    claim = Claim.objects.get(pk=ledger["kept"].pk)
    assert claim.status == ClaimStatus.RETRACTED
    assert claim.revisions.first().changed_by == editor


def test_a_claim_is_retracted_from_its_change_page(editor_client, ledger):
    url = reverse("admin:claims_claim_retract", args=[ledger["kept"].pk])

    response = editor_client.post(url, {"reason": "Quoted out of context."})

    assert response.status_code == 302
    assert Claim.objects.get(pk=ledger["kept"].pk).retraction_reason == "Quoted out of context."


def test_the_change_page_of_a_published_claim_offers_to_retract_it(editor_client, ledger):
    response = editor_client.get(reverse("admin:claims_claim_change", args=[ledger["kept"].pk]))

    assert reverse("admin:claims_claim_retract", args=[ledger["kept"].pk]) in (
        response.content.decode()
    )


def test_a_retracted_claim_cannot_be_deleted_from_the_admin(editor_client, ledger):
    url = reverse("admin:claims_claim_delete", args=[ledger["retracted"].pk])

    assert editor_client.post(url, {"post": "yes"}).status_code == 403
    assert Claim.objects.filter(pk=ledger["retracted"].pk).exists()


def test_reimporting_a_file_that_still_holds_a_retracted_claim_says_it_was_retracted(
    tmp_path,
):
    run_import(tmp_path, as_json(document()))
    Claim.objects.get(number=1).retract(REASON)

    _, stderr = failed_import(tmp_path, as_json(document()))

    assert stderr.strip() == (
        "episodes[0].claims[0]: Claim 01 was retracted: it is kept as it was and cannot be changed."
    )


@pytest.fixture
def published(db):
    return make_claim(make_episode(), make_speaker(name="Ada Example"), number=1)


def test_a_published_claim_is_never_sent_back_to_draft(published):
    published.status = ClaimStatus.DRAFT

    with pytest.raises(ValidationError) as refused:
        published.save()

    assert refused.value.message_dict == {
        "status": [
            "Claim 01 is published: it leaves the public record only by retraction, which "
            "keeps its number and permalink. Retract it instead of making it a draft."
        ]
    }
    assert Claim.objects.get(pk=published.pk).status == ClaimStatus.PUBLISHED


def test_publishing_in_bulk_leaves_published_and_retracted_claims_as_they_are(published):
    draft = make_claim(published.episode, number=2, status=ClaimStatus.DRAFT)
    retracted = make_claim(published.episode, number=3)
    retracted.retract("Misattributed.")

    moved = Claim.objects.all().publish(via="admin")

    assert moved == [draft.pk]
    statuses = dict(Claim.objects.values_list("number", "status"))
    assert statuses == {1: "published", 2: "published", 3: "retracted"}
    assert draft.revisions.first().changes == {"status": ["draft", "published"]}


def test_an_import_cannot_send_a_published_claim_back_to_draft(tmp_path):
    run_import(tmp_path, as_json(document()))
    doc = document()
    doc["episodes"][0]["claims"][0]["status"] = "draft"

    _, stderr = failed_import(tmp_path, as_json(doc))

    assert stderr.strip() == (
        "episodes[0].claims[0], status: Claim 01 is published: it leaves the public record "
        "only by retraction, which keeps its number and permalink. Retract it instead of "
        "making it a draft."
    )
    assert Claim.objects.get(number=1).status == ClaimStatus.PUBLISHED
