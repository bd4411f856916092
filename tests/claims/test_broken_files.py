"""Every broken file is refused with a message naming its row and field, and writes
nothing: through `manage.py import_ledger` and through the admin's upload."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils.html import escape

from claims.ledger_io import Problem
from tests.claims.broken_files import BROKEN_FILES
from tests.claims.ledger_files import as_json, document, failed_import, run_import
from tests.ledger.dumps import database_dump

pytestmark = pytest.mark.django_db

CASES = [
    pytest.param(name, content, problem, id=case) for case, name, content, problem in BROKEN_FILES
]


@pytest.fixture(autouse=True)
def ledger(tmp_path):
    """The ledger each broken file is checked against: document(), imported."""
    run_import(tmp_path, as_json(document()))


@pytest.mark.parametrize(("name", "content", "problem"), CASES)
def test_the_import_command_refuses_a_broken_file_and_writes_nothing(
    tmp_path, name, content, problem
):
    before = database_dump()

    error, stderr = failed_import(tmp_path, content, name)

    assert "nothing was written." in error
    assert stderr.splitlines()[0] == f"  {Problem(*problem)}"
    assert database_dump() == before


@pytest.mark.parametrize(("name", "content", "problem"), CASES)
def test_the_admin_refuses_a_broken_upload_and_writes_nothing(admin_client, name, content, problem):
    before = database_dump()

    response = admin_client.post(
        reverse("admin:claims_claim_import"), {"file": SimpleUploadedFile(name, content)}
    )

    where, field, message = problem
    row = (
        f"<tr><td>{escape(where or 'the file')}</td><td>{escape(field or '—')}</td>"
        f"<td>{escape(message)}</td></tr>"
    )
    html = response.content.decode()
    if not content:  # the upload form refuses an empty file before the importer sees it
        row = "The submitted file is empty."
    assert row in html
    assert 'name="token"' not in html
    assert database_dump() == before
