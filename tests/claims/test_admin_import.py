"""Importing a ledger file in the admin: upload, read the report, confirm."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from claims.models import Claim, ClaimRevision, PendingImport
from claims.pending import PENDING_IMPORT_HOURS
from tests.claims.ledger_files import EXAMPLES, as_json, document

pytestmark = pytest.mark.django_db

IMPORT = reverse("admin:claims_claim_import")


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    """The node's own folder for files, which a waiting upload must not need."""
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def upload(client, content, name="ledger.json"):
    return client.post(IMPORT, {"file": SimpleUploadedFile(name, content)})


def pending(response):
    """The hidden fields of the confirmation form: what the browser sends back."""
    waiting = response.context["pending"]
    return {"token": waiting.token, "name": waiting.name}


def waiting():
    return list(PendingImport.objects.values_list("uploaded_by", "token", "name"))


def test_an_editor_finds_the_import_on_the_claims_list(editor_client):
    response = editor_client.get(reverse("admin:claims_claim_changelist"))

    assert f'<a href="{IMPORT}">Import a ledger file</a>' in response.content.decode()


def test_checking_a_sound_file_shows_the_report_and_writes_nothing(editor_client):
    response = upload(editor_client, (EXAMPLES / "ledger-example.csv").read_bytes(), "ex.csv")
    html = response.content.decode()

    assert response.status_code == 200
    assert (
        "The file is sound. Created: 1 podcast, 2 speakers, 1 topic, 1 reference, 1 episode, "
        "4 claims, 1 link." in html
    )
    assert 'value="Import ex.csv"' in html
    assert Claim.objects.count() == 0


def test_confirming_imports_the_file(editor_client, editor):
    checked = upload(editor_client, as_json(document()))

    response = editor_client.post(IMPORT, pending(checked), follow=True)

    assert "Imported ledger.json. Created: 1 podcast, 2 speakers, 1 episode, 3 claims." in (
        response.content.decode()
    )
    assert Claim.objects.count() == 3
    assert set(ClaimRevision.objects.values_list("changed_by", "via")) == {
        (editor.pk, "import of ledger.json")
    }


def test_a_file_with_problems_lists_each_with_where_and_field_and_offers_no_import(
    editor_client,
):
    doc = document()
    doc["episodes"][0]["claims"][0]["type"] = "guess"
    doc["episodes"][0]["claims"][2]["number"] = 0

    response = upload(editor_client, as_json(doc))
    html = response.content.decode()

    assert "2 problems found; nothing was written." in html
    assert (
        "<tr><td>episodes[0].claims[0]</td><td>type</td><td>“guess” is not one of evaluation, "
        in html
    )
    assert (
        "<tr><td>episodes[0].claims[2]</td><td>number</td><td>claim numbers start at 1.</td></tr>"
        in html
    )
    assert 'name="token"' not in html
    assert Claim.objects.count() == 0


def test_a_broken_file_gets_a_clear_message(editor_client):
    response = upload(editor_client, b"\xff\xfe not text", "ledger.csv")

    assert "the file is not UTF-8 text" in response.content.decode()


def test_an_import_that_is_no_longer_waiting_asks_for_the_file_again(editor_client):
    response = editor_client.post(IMPORT, {"token": "stale"}, follow=True)

    assert "That import is no longer waiting: upload the file again." in (response.content.decode())
    assert Claim.objects.count() == 0


def test_staff_without_the_editors_permissions_cannot_import(client, django_user_model):
    clerk = django_user_model.objects.create_user("clerk", password="x" * 20, is_staff=True)
    clerk.user_permissions.add(Permission.objects.get(codename="view_claim"))
    client.force_login(clerk)

    assert client.get(IMPORT).status_code == 403
    assert upload(client, as_json(document())).status_code == 403
    assert Claim.objects.count() == 0


def test_an_upload_waits_in_the_database_not_in_the_session(editor_client, editor):
    checked = upload(editor_client, as_json(document()))

    assert waiting() == [(editor.pk, pending(checked)["token"], "ledger.json")]
    assert all("content" not in str(value) for value in editor_client.session.values())


def test_an_upload_writes_nothing_to_the_nodes_disk(editor_client, media_root):
    upload(editor_client, as_json(document()))

    assert list(media_root.iterdir()) == []


def test_an_upload_checked_on_one_node_is_confirmed_on_another(editor_client, editor):
    """Behind a load balancer the confirmation may reach another web node: another
    process, with its own disk, sharing only the database (and the sessions in it)."""
    checked = upload(editor_client, as_json(document()))
    other_node = Client()
    other_node.force_login(editor)

    response = other_node.post(IMPORT, pending(checked), follow=True)

    assert "Imported ledger.json." in response.content.decode()
    assert Claim.objects.count() == 3


def test_confirming_or_cancelling_deletes_the_waiting_upload(editor_client):
    editor_client.post(IMPORT, pending(upload(editor_client, as_json(document()))))
    confirmed = waiting()
    cancelled = editor_client.post(
        IMPORT, {**pending(upload(editor_client, as_json(document()))), "cancel": "Cancel"}
    )

    assert confirmed == []
    assert cancelled.status_code == 302
    assert waiting() == []


def test_a_new_upload_replaces_the_one_the_editor_left_waiting(editor_client):
    first = pending(upload(editor_client, as_json(document())))
    second = pending(upload(editor_client, as_json(document())))

    assert [token for _, token, _ in waiting()] == [second["token"]]
    assert first["token"] != second["token"]


def test_an_upload_left_waiting_past_its_time_is_no_longer_confirmable(editor_client):
    checked = upload(editor_client, as_json(document()))
    PendingImport.objects.update(
        created_at=PendingImport.objects.get().created_at
        - timedelta(hours=PENDING_IMPORT_HOURS, seconds=1)
    )

    response = editor_client.post(IMPORT, pending(checked), follow=True)

    assert "That import is no longer waiting: upload the file again." in response.content.decode()
    assert Claim.objects.count() == 0


def test_expired_uploads_of_any_editor_are_deleted_by_the_next_upload(
    editor_client, django_user_model
):
    other = django_user_model.objects.create_user("other", password="x" * 20)
    old = PendingImport.keep(other, "old.json", b"{}")
    PendingImport.objects.filter(pk=old.pk).update(
        created_at=old.created_at - timedelta(hours=PENDING_IMPORT_HOURS, seconds=1)
    )

    upload(editor_client, as_json(document()))

    assert [name for _, _, name in waiting()] == ["ledger.json"]


def test_cancelling_imports_nothing(editor_client):
    checked = upload(editor_client, as_json(document()))

    editor_client.post(IMPORT, {**pending(checked), "cancel": "Cancel"})

    assert Claim.objects.count() == 0


def test_an_editor_cannot_confirm_another_editors_upload(editor_client, django_user_model):
    checked = upload(editor_client, as_json(document()))
    other = django_user_model.objects.create_superuser("other", password="x" * 20)
    other_client = Client()
    other_client.force_login(other)

    response = other_client.post(IMPORT, pending(checked), follow=True)

    assert "That import is no longer waiting: upload the file again." in response.content.decode()
    assert Claim.objects.count() == 0


@pytest.mark.parametrize(
    "token, name",
    [
        ("../../../etc", "passwd"),
        ("0" * 32, "../../settings.py"),
        ("0" * 32, "/etc/passwd"),
        ("0" * 32, ".."),
    ],
)
def test_a_forged_token_or_name_finds_nothing(editor_client, token, name):
    upload(editor_client, as_json(document()))

    response = editor_client.post(IMPORT, {"token": token, "name": name}, follow=True)

    assert "That import is no longer waiting: upload the file again." in response.content.decode()
    assert Claim.objects.count() == 0
