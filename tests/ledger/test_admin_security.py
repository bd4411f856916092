import pytest
from django.conf import settings
from django.contrib.auth import get_user_model

LOGIN = f"/{settings.ADMIN_URL}login/"


@pytest.fixture
def editor_account(db):
    return get_user_model().objects.create_user("ada", password="the-right-password", is_staff=True)


def sign_in(client, password, address="192.0.2.10"):
    return client.post(LOGIN, {"username": "ada", "password": password}, REMOTE_ADDR=address)


def test_the_right_password_signs_in(client, editor_account):
    response = sign_in(client, "the-right-password")
    assert response.status_code == 302


def test_repeated_wrong_passwords_lock_the_account_even_for_the_right_one(client, editor_account):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert sign_in(client, "a-wrong-guess").status_code == 200  # the form, with its error
    assert sign_in(client, "a-wrong-guess").status_code == 429
    response = sign_in(client, "the-right-password")
    assert response.status_code == 429
    assert "Too many failed sign-ins" in response.content.decode()


def test_a_lockout_does_not_lock_the_same_account_from_another_address(client, editor_account):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        sign_in(client, "a-wrong-guess", address="192.0.2.10")
    assert sign_in(client, "the-right-password", address="198.51.100.20").status_code == 302
