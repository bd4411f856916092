"""Named references: /references/, each reference's page, and the permalink's list."""

import datetime
import re

import pytest
from django.db import IntegrityError, transaction

from claims import reference_pages
from claims.models import Attribution, ClaimReference, Reference, Role
from claims.references import KEPT_NAMERS
from claims.templatetags.references import named_by
from episodes.models import Episode, Speaker, Status
from tests.claims.plans import plan
from tests.factories import (
    make_claim,
    make_episode,
    make_ledger,
    make_podcast,
    make_prediction,
    make_speaker,
    resolve,
)

pytestmark = pytest.mark.django_db


def reference(title="The Careful Deploy", slug="the-careful-deploy", **fields):
    fields = {"kind": "book", "creator": "Ada Example", **fields}
    return Reference.objects.create(title=title, slug=slug, **fields)


def named(claim, ref, role=Role.RECOMMENDS):
    ClaimReference.objects.create(claim=claim, reference=ref, role=role)
    return claim


def test_recommended_by_counts_distinct_people(client):
    book = reference()
    ada, ben, cy = (make_speaker() for _ in range(3))
    # Ada recommends it twice: she is one person.
    for speaker in (ada, ada, ben, cy):
        named(make_claim(speaker=speaker), book)
    named(make_claim(speaker=ben), book, Role.MENTIONS)

    html = client.get("/references/").content.decode()

    assert "Recommended by 3 people · mentioned by 1" in html


def test_unresolved_voices_are_never_counted_as_people(client):
    book = reference()
    named(make_claim(), book)
    named(make_claim(attribution=Attribution.UNRESOLVED), book)
    named(make_claim(attribution=Attribution.UNRESOLVED), book, Role.CRITICISES)

    html = client.get("/references/").content.decode()

    assert (
        "Recommended by 1 person and an unresolved voice · criticised by an unresolved voice"
        in html
    )


def test_drafts_are_not_counted(client):
    book = reference()
    named(make_claim(), book)
    named(make_claim(status=Status.DRAFT), book)
    named(make_claim(episode=make_episode(status=Status.DRAFT)), book)

    assert "Recommended by 1 person<" in client.get("/references/").content.decode()


def test_a_reference_named_only_in_drafts_is_not_listed_and_has_no_page(client):
    named(make_claim(status=Status.DRAFT), reference("Hidden Notes", "hidden-notes"))

    assert "Hidden Notes" not in client.get("/references/").content.decode()
    assert client.get("/references/hidden-notes/").status_code == 404


def test_the_list_names_the_people_who_named_it(client):
    named(make_claim(speaker=make_speaker(name="Ben Sample", slug="ben-sample")), reference())

    html = client.get("/references/").content.decode()

    assert 'Named by <a href="/speakers/ben-sample/">Ben Sample</a>' in html


def test_the_list_puts_the_most_named_first(client):
    once, twice = reference("Once", "once"), reference("Twice", "twice")
    named(make_claim(), once)
    named(make_claim(), twice)
    named(make_claim(), twice)

    html = client.get("/references/").content.decode()

    assert html.index(">Twice<") < html.index(">Once<")


def test_the_list_filters_by_kind(client):
    named(make_claim(), reference())
    named(make_claim(), reference("pytest", "pytest", kind="tool"))

    html = client.get("/references/", {"kind": "tool"}).content.decode()

    assert ">pytest<" in html and "The Careful Deploy" not in html
    assert "1 reference of kind “tool or product”" in html


def test_the_list_filters_by_role(client):
    named(make_claim(), reference())
    named(make_claim(), reference("pytest", "pytest", kind="tool"), Role.USES)

    html = client.get("/references/", {"role": "uses"}).content.decode()

    assert ">pytest<" in html and "The Careful Deploy" not in html


def test_the_list_counts_references_named_publicly_in_the_chosen_role(client):
    named(make_claim(), reference())
    tool = reference("pytest", "pytest", kind="tool")
    named(make_claim(), tool, Role.USES)
    named(make_claim(), tool, Role.MENTIONS)
    named(make_claim(status=Status.DRAFT), reference("Hidden", "hidden"), Role.USES)
    named(make_claim(episode=make_episode(status=Status.DRAFT)), reference("Off", "off"))

    every = client.get("/references/").content.decode()
    uses = client.get("/references/", {"role": "uses"}).content.decode()

    assert "2 references, most people first" in every
    assert "1 reference that someone uses, most people first" in uses


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"kind": "bogus"}, "“bogus” is not a kind of reference, so it was ignored."),
        ({"role": "loves"}, "“loves” is not a role (recommends, uses, criticises or mentions)"),
        ({"page": "x"}, "The Careful Deploy"),
    ],
)
def test_bogus_filters_are_ignored_with_a_message(client, params, message):
    named(make_claim(), reference())

    response = client.get("/references/", params)

    assert response.status_code == 200
    assert message in response.content.decode()
    assert "The Careful Deploy" in response.content.decode()


def test_the_list_is_paginated(client):
    claim = make_claim()
    for n in range(31):
        named(claim, reference(f"Book {n:02d}", f"book-{n}"))

    html = client.get("/references/", {"page": "2"}).content.decode()

    assert "Book 30" in html and "Book 00" not in html


def test_a_reference_page_shows_its_claims_by_role_with_who_said_them(client):
    book = reference(url="https://example.com/careful-deploy/")
    ada = make_speaker(name="Ada Example", slug="ada-example")
    named(named(make_claim(speaker=ada, excerpt="Read it twice."), book), book, Role.MENTIONS)
    named(make_claim(speaker=ada, excerpt="It gets rollbacks wrong."), book, Role.CRITICISES)
    named(make_claim(excerpt="Draft praise.", status=Status.DRAFT), book)

    html = client.get("/references/the-careful-deploy/").content.decode()

    assert "<h1>The Careful Deploy</h1>" in html and "By Ada Example" in html
    assert "Reference / book" in html
    assert 'href="https://example.com/careful-deploy/" rel="external noopener"' in html
    assert html.index("Recommends it") < html.index("Read it twice.")
    assert html.index("Criticises it") < html.index("It gets rollbacks wrong.")
    assert '<a href="/speakers/ada-example/">Ada Example</a>' in html
    assert "Draft praise." not in html
    assert "2 published claims name it" in html


def test_a_references_title_is_escaped(client):
    named(make_claim(), reference("<b>Bold</b> claims", "bold"))

    for url in ("/references/", "/references/bold/"):
        html = client.get(url).content.decode()
        assert "<b>Bold</b>" not in html and "&lt;b&gt;Bold&lt;/b&gt; claims" in html


def test_the_permalink_lists_its_references_with_role(client):
    book, tool = reference(), reference("pytest", "pytest", kind="tool", creator="")
    claim = named(named(make_claim(), book), tool, Role.USES)

    html = client.get(claim.get_absolute_url()).content.decode()

    assert (
        '<span class="role">Recommends</span> <a href="/references/the-careful-deploy/">'
        "The Careful Deploy</a>" in html
    )
    assert '<span class="role">Uses</span> <a href="/references/pytest/">pytest</a>' in html


def test_a_claim_names_a_reference_once_per_role():
    claim, book = make_claim(), reference()
    named(claim, book)
    named(claim, book, Role.MENTIONS)

    with pytest.raises(IntegrityError), transaction.atomic():
        named(claim, book)


def test_the_database_refuses_a_reference_address_that_is_not_web():
    with pytest.raises(IntegrityError), transaction.atomic():
        reference(url="javascript:alert(1)")


@pytest.fixture(params=[(2, 3, 2), (8, 12, 5)], ids=["small", "larger"])
def ledger(request):
    ledger = make_ledger(*request.param)
    book = reference()
    for n, claim in enumerate(ledger.episodes[0].claims.all()):
        named(claim, book, Role.values[n % 4])
    for claim in ledger.episodes[-1].claims.all():
        named(claim, reference(f"Book {claim.pk}", f"book-{claim.pk}"))
    return ledger


@pytest.mark.parametrize("params", [{}, {"role": "recommends"}, {"kind": "book", "role": "uses"}])
def test_reference_list_query_count(client, ledger, params, django_assert_num_queries):
    # the ledger's version; then, from the references' kept counts (no naming is read)
    # 1. count of references named in public claims, for the paginator
    # 2. the page of references
    # 3. the names of the people each keeps
    with django_assert_num_queries(4):
        assert client.get("/references/", params).status_code == 200


def test_reference_page_query_count(client, ledger, django_assert_num_queries):
    # the ledger's version; then
    # 1. the reference, with its kept counts (its public namings page it: none counted)
    # 2. the page of its public namings, with claim, episode, podcast and speaker
    # 3. the names of the people it keeps
    with django_assert_num_queries(4):
        assert client.get("/references/the-careful-deploy/").status_code == 200


def test_every_kind_of_card_on_a_reference_page_reads_what_it_shows_in_one_query(
    client, django_assert_num_queries
):
    book = reference()
    episode = make_episode(audio_url="https://example.com/audio.mp3")
    resolved = resolve(make_prediction(episode, horizon=datetime.date(2026, 3, 1)), "came_true")
    corrected = make_claim(episode, timestamp=75)
    corrected.excerpt = "Words as they were said."
    corrected.save(correction_note="Misheard.")
    unresolved = make_claim(episode, attribution=Attribution.UNRESOLVED)
    for claim in (resolved, corrected, unresolved):
        named(claim, book)
    # the ledger's version, the reference, the page of namings, the people it keeps
    with django_assert_num_queries(4):
        html = client.get("/references/the-careful-deploy/").content.decode()
    assert "Came true" in html and "Misheard." in html and "Unresolved voice" in html
    assert 'href="https://example.com/audio.mp3#t=75"' in html


def test_the_reference_lists_canonical_address_keeps_its_filters(client):
    named(make_claim(), reference())

    html = client.get("/references/", {"role": "recommends", "fbclid": "x"}).content.decode()

    assert '<link rel="canonical" href="http://testserver/references/?role=recommends">' in html


def test_a_claim_named_in_two_roles_is_listed_under_each_with_its_own_id(client):
    book = reference()
    claim = named(named(make_claim(excerpt="Read it, then argue."), book), book, Role.MENTIONS)

    html = client.get("/references/the-careful-deploy/").content.decode()

    assert html.count("Read it, then argue.") == 2
    assert f'id="recommends-{claim.pk}"' in html and f'id="mentions-{claim.pk}"' in html


def test_past_the_kept_few_the_pages_say_how_many_others_named_it(client):
    book = reference()
    people = [
        make_speaker(name=f"Person {n:02}", slug=f"person-{n:02}") for n in range(KEPT_NAMERS + 3)
    ]
    # Person 00 recommends it three times, Person 01 twice: they are named first.
    for speaker in [people[0], people[0], people[0], people[1], *people[1:]]:
        named(make_claim(speaker=speaker), book)
    named(make_claim(speaker=people[5]), book, Role.CRITICISES)

    listed = client.get("/references/").content.decode()
    page = client.get("/references/the-careful-deploy/").content.decode()

    assert f"Recommended by {KEPT_NAMERS + 3} people · criticised by 1" in listed
    assert listed.index(">Person 00<") < listed.index(">Person 01<") < listed.index(">Person 02<")
    assert ">Person 10<" not in listed and "and 3 others</p>" in listed
    assert "Recommended by <a" in page and "and 3 others</li>" in page
    assert 'Criticised by <a href="/speakers/person-05/">Person 05</a></li>' in page


def test_a_renamed_speaker_is_named_anew_on_the_pages(client):
    ada = make_speaker(name="Ada Example")
    named(make_claim(speaker=ada), reference())
    ada.name = "Ada Renamed"
    ada.save()

    assert ">Ada Renamed<" in client.get("/references/").content.decode()


def listed(response):
    """(role, claim id) of each card on a reference's page, in page order."""
    return [
        (role, int(pk))
        for role, pk in re.findall(
            r'<article class="claim" id="(recommends|uses|criticises|mentions)-(\d+)"',
            response.content.decode(),
        )
    ]


def test_a_reference_page_lists_by_role_then_newest_episode_then_ledger_order(client):
    book = reference()
    podcast = make_podcast()
    old, new = (make_episode(podcast, air_date=f"2026-0{m}-01") for m in (1, 2))
    # Aired the same day as `new`, made after it: listed after it.
    same_day = make_episode(podcast, air_date="2026-02-01")
    old_1, new_1, new_2 = make_claim(old), make_claim(new), make_claim(new)
    same_day_1 = make_claim(same_day)
    for claim in (same_day_1, new_2, old_1, new_1):
        named(claim, book, Role.MENTIONS)
    named(old_1, book, Role.RECOMMENDS)
    named(new_2, book, Role.CRITICISES)

    assert listed(client.get("/references/the-careful-deploy/")) == [
        ("recommends", old_1.pk),
        ("criticises", new_2.pk),
        ("mentions", new_1.pk),
        ("mentions", new_2.pk),
        ("mentions", same_day_1.pk),
        ("mentions", old_1.pk),
    ]


def test_the_pages_of_a_reference_run_on_in_the_same_order(client, monkeypatch):
    monkeypatch.setattr(reference_pages, "CLAIMS_PER_PAGE", 2)
    book = reference()
    claims = [make_claim() for _ in range(5)]
    for n, claim in enumerate(claims):
        named(claim, book, Role.USES if n % 2 else Role.RECOMMENDS)
    pages = [
        listed(client.get("/references/the-careful-deploy/", {"page": page})) for page in (1, 2, 3)
    ]

    # Recommends it: claims 4, 2, 0 (newest episode first); uses it: 3, 1.
    assert [pk for page in pages for _, pk in page] == [claims[n].pk for n in (4, 2, 0, 3, 1)]


def test_a_reference_page_reads_its_namings_in_page_order_from_an_index(client):
    book = reference()
    for claim in (make_claim(), make_claim()):
        named(claim, book)
    namings = reference_pages.public_namings([book]).in_page_order()

    page = plan(namings[: reference_pages.CLAIMS_PER_PAGE])

    # Not every naming of the reference, sorted.
    assert "claim_reference_page" in page
    assert "TEMP B-TREE" not in page and "Sort" not in page


def test_an_episode_aired_on_another_day_moves_its_claims_on_a_reference_page(client):
    book = reference()
    first, second = make_claim(), make_claim()
    named(first, book)
    named(second, book)
    episode = Episode.objects.get(pk=first.episode_id)
    episode.air_date = second.episode.air_date + datetime.timedelta(days=1)
    episode.save()

    assert listed(client.get("/references/the-careful-deploy/")) == [
        ("recommends", first.pk),
        ("recommends", second.pk),
    ]


def test_a_draft_moved_to_another_episode_is_listed_where_it_was_published(client):
    book = reference()
    older, newer = make_episode(), make_episode()
    listed_first = named(make_claim(older), book)
    draft = named(make_claim(newer, status=Status.DRAFT), book)
    draft.episode, draft.number = older, 7
    draft.save()
    draft.status = Status.PUBLISHED
    draft.save()

    assert listed(client.get("/references/the-careful-deploy/")) == [
        ("recommends", listed_first.pk),
        ("recommends", draft.pk),
    ]


@pytest.mark.parametrize(
    ("names", "others", "said"),
    [
        (["Ada"], 0, "Ada"),
        (["Ada", "Ben"], 0, "Ada and Ben"),
        (["Ada", "Ben", "Cy <3>"], 0, "Ada, Ben and Cy <3>"),
        (["Ada", "Ben"], 1, "Ada, Ben and 1 other"),
        (["Ada"], 398, "Ada and 398 others"),
    ],
)
def test_the_people_who_named_a_reference_are_listed_in_words(names, others, said):
    people = [Speaker(name=name, slug=f"person-{i}") for i, name in enumerate(names)]

    written = named_by(people, others)

    assert re.sub(r"<[^>]*>", "", written).replace("&lt;", "<").replace("&gt;", ">") == said
    assert re.findall(r'href="([^"]*)"', written) == [p.get_absolute_url() for p in people]
    assert "<3>" not in written
