"""What the database itself refuses, on SQLite and PostgreSQL alike, and what Claim.clean says."""

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from claims.models import Attribution, Claim, ClaimType
from tests.factories import make_claim, make_episode, make_speaker

pytestmark = pytest.mark.django_db


def claim_fields(**fields):
    """Everything a valid identified claim needs, overridden by `fields`."""
    defaults = {
        "number": 1,
        "type": ClaimType.BELIEF,
        "excerpt": "Exact words, as they were said.",
        "attribution": Attribution.IDENTIFIED,
    }
    return {**defaults, **fields}


def assert_refused(**fields):
    """The database itself refuses the row: bulk_create skips save() and model validation."""
    with pytest.raises(IntegrityError), transaction.atomic():
        Claim.objects.bulk_create([Claim(**claim_fields(**fields))])


def test_identified_claim_without_speaker_is_rejected():
    assert_refused(episode=make_episode(), speaker=None)


def test_creating_an_identified_claim_without_speaker_raises_integrity_error():
    with pytest.raises(IntegrityError), transaction.atomic():
        Claim.objects.create(**claim_fields(episode=make_episode(), speaker=None))


def test_unresolved_claim_with_a_speaker_is_rejected():
    assert_refused(
        episode=make_episode(), speaker=make_speaker(), attribution=Attribution.UNRESOLVED
    )


def test_identified_claim_with_an_unresolved_label_is_rejected():
    assert_refused(episode=make_episode(), speaker=make_speaker(), unresolved_label="Caller 2")


def test_unresolved_claim_without_a_speaker_is_accepted():
    claim = Claim.objects.create(
        **claim_fields(
            episode=make_episode(), attribution=Attribution.UNRESOLVED, unresolved_label="Caller 2"
        )
    )

    assert Claim.objects.get(pk=claim.pk).voice == "Caller 2"


def test_empty_excerpt_is_rejected():
    assert_refused(episode=make_episode(), speaker=make_speaker(), excerpt="")


@pytest.mark.parametrize("excerpt", ["   ", "\n\t \r\n"], ids=["spaces", "tabs-and-line-breaks"])
def test_whitespace_only_excerpt_is_rejected(excerpt):
    assert_refused(episode=make_episode(), speaker=make_speaker(), excerpt=excerpt)


def test_duplicate_number_in_an_episode_is_rejected():
    claim = make_claim(number=7)

    assert_refused(episode=claim.episode, speaker=claim.speaker, number=7)


def test_same_number_in_another_episode_is_allowed():
    make_claim(number=7)

    other = make_claim(number=7)

    assert other.pk is not None


def test_claim_number_zero_is_rejected():
    assert_refused(episode=make_episode(), speaker=make_speaker(), number=0)


def field_errors(claim):
    with pytest.raises(ValidationError) as raised:
        claim.clean()
    return raised.value.message_dict


def test_clean_asks_an_identified_claim_for_its_speaker():
    claim = Claim(**claim_fields(episode=make_episode()))

    assert field_errors(claim) == {"speaker": ["An identified claim needs its speaker."]}


def test_clean_refuses_a_label_on_an_identified_claim():
    claim = Claim(**claim_fields(speaker=make_speaker(), unresolved_label="Caller 2"))

    assert field_errors(claim) == {"unresolved_label": ["Only an unresolved voice takes a label."]}


def test_clean_refuses_a_speaker_on_an_unresolved_voice():
    claim = Claim(**claim_fields(speaker=make_speaker(), attribution=Attribution.UNRESOLVED))

    assert field_errors(claim) == {
        "speaker": ["An unresolved voice has no speaker: choose 'Identified speaker'."]
    }


def test_clean_refuses_a_blank_excerpt():
    claim = Claim(**claim_fields(speaker=make_speaker(), excerpt=" \n\t "))

    assert field_errors(claim) == {"excerpt": ["The excerpt is the claim: paste the exact words."]}


def test_clean_accepts_a_valid_claim():
    claim = Claim(**claim_fields(speaker=make_speaker()))

    claim.clean()  # raises ValidationError if it finds a fault
    assert claim.voice == claim.speaker.name
