import pytest
from django.conf import settings
from django.contrib.auth import get_user_model

LOGIN = f"/{settings.ADMIN_URL}login/"


@pytest.fixture
def editor_account(db, settings):
    # The production hasher is slow on purpose; these tests sign in dozens of times.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return get_user_model().objects.create_user("ada", password="the-right-password", is_staff=True)


def sign_in(client, password, address="192.0.2.10", username="ada"):
    return client.post(LOGIN, {"username": username, "password": password}, REMOTE_ADDR=address)


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


def test_one_address_trying_many_usernames_is_locked_out(client, editor_account):
    # One password sprayed over many accounts: each account sees only one failure.
    for n in range(settings.ADDRESS_FAILURE_LIMIT - 1):
        assert sign_in(client, "Summer2026!", username=f"user{n}").status_code == 200
    assert sign_in(client, "Summer2026!", username="one-more").status_code == 429
    response = sign_in(client, "the-right-password")
    assert response.status_code == 429
    assert "Too many failed sign-ins" in response.content.decode()
    assert sign_in(client, "the-right-password", address="198.51.100.20").status_code == 302


def test_an_address_below_its_limit_may_still_sign_in(client, editor_account):
    for n in range(settings.ADDRESS_FAILURE_LIMIT - 1):
        sign_in(client, "a-typo", username=f"user{n}")
    assert sign_in(client, "the-right-password").status_code == 302
