"""Browsing the ledger: episode list, speakers, podcasts and claim permalinks."""

import datetime
import re
from html import unescape

import pytest
from django.urls import reverse

from claims.models import Attribution, ClaimType
from episodes.models import Status
from episodes.podcast_choices import OFFERED
from tests.factories import make_claim, make_episode, make_podcast, make_speaker

pytestmark = pytest.mark.django_db


def visible_text(response):
    """The page's main content as a reader sees it: tags dropped, whitespace collapsed."""
    html = response.content.decode()
    main = html[html.index("<main") : html.index("</main>")]
    return " ".join(unescape(re.sub(r"<[^>]*>", " ", main)).split())


def in_order(text, *parts):
    """True when every part appears in `text`, in this order."""
    positions = [text.find(part) for part in parts]
    return -1 not in positions and positions == sorted(positions)


def aired(day):
    return datetime.date(2026, 3, day)


# All source episodes


def test_episode_lists_page_by_the_episodes_each_podcast_keeps_count_of(client):
    busy, quiet = make_podcast(name="Busy Show"), make_podcast(name="Quiet Show")
    for _ in range(26):
        make_episode(busy)
    make_episode(quiet, title="The Quiet Episode")
    make_episode(busy, title="A Draft Episode", status=Status.DRAFT)

    everything = visible_text(client.get("/episodes/", {"page": 2}))
    one_podcast = visible_text(client.get("/episodes/", {"podcast": quiet.slug}))
    podcast_page = visible_text(client.get(busy.get_absolute_url(), {"page": 2}))

    # 27 published episodes, 25 a page; the draft is in no count.
    assert "Page 2 of 2" in everything
    assert "Busy Show (26)" in visible_text(client.get("/episodes/"))
    assert "The Quiet Episode" in one_podcast
    assert "Page 1 of" not in one_podcast  # a single page: no page links at all
    assert "Page 2 of 2" in podcast_page
    assert "A Draft Episode" not in everything + podcast_page


def test_episode_list_shows_newest_first(client):
    podcast = make_podcast()
    make_episode(podcast, title="Middle Episode", air_date=aired(10))
    make_episode(podcast, title="Newest Episode", air_date=aired(20))
    make_episode(podcast, title="Oldest Episode", air_date=aired(1))

    text = visible_text(client.get("/episodes/"))

    assert in_order(text, "Newest Episode", "Middle Episode", "Oldest Episode")


def test_episode_list_shows_podcast_date_and_public_counts(client):
    episode = make_episode(
        make_podcast(name="Example Show"), title="Testing Carefully", air_date=aired(14)
    )
    ada = make_speaker(name="Ada Example")
    make_claim(episode, speaker=ada)
    make_claim(episode, speaker=ada)
    make_claim(episode, attribution=Attribution.UNRESOLVED)
    make_claim(episode, speaker=make_speaker(name="Ben Sample"), status=Status.DRAFT)

    text = visible_text(client.get("/episodes/"))

    assert "14 March 2026 Example Show Testing Carefully 3 1" in text


def test_episode_list_leaves_out_draft_episodes(client):
    make_episode(title="Published Episode")
    make_episode(title="Draft Episode", status=Status.DRAFT)

    text = visible_text(client.get("/episodes/"))

    assert "Published Episode" in text
    assert "Draft Episode" not in text
    assert "1 episode, newest first" in text


def test_episode_list_filters_by_podcast(client):
    make_episode(make_podcast(name="Example Show", slug="example-show"), title="Shown Episode")
    make_episode(make_podcast(name="Sample Hour", slug="sample-hour"), title="Other Episode")

    text = visible_text(client.get("/episodes/?podcast=example-show"))

    assert "1 episode from Example Show, newest first" in text
    assert "Shown Episode" in text
    assert "Other Episode" not in text


def test_episode_list_explains_an_unknown_podcast(client):
    make_episode(title="Some Episode")

    response = client.get("/episodes/?podcast=no-such-show")
    text = visible_text(response)

    assert response.status_code == 200
    assert "There is no podcast “no-such-show” in the ledger." in text
    assert "Some Episode" not in text


def test_episode_list_answers_a_malformed_page_number_with_the_first_page(client):
    make_episode(title="Only Episode")

    response = client.get("/episodes/?page=abc")

    assert response.status_code == 200
    assert "Only Episode" in visible_text(response)


def test_episode_list_answers_an_out_of_range_page_with_the_last_page(client):
    podcast = make_podcast()
    for day in range(1, 27):
        make_episode(podcast, title=f"Episode of day {day}", air_date=aired(day))

    response = client.get("/episodes/?page=99999")
    text = visible_text(response)

    assert response.status_code == 200
    assert "Page 2 of 2" in text
    assert "Episode of day 1 " in text
    assert "Episode of day 26" not in text


# Speakers


def test_speaker_index_lists_only_people_with_public_claims(client):
    make_claim(speaker=make_speaker(name="Ada Example"))
    make_claim(speaker=make_speaker(name="Ben Sample"), status=Status.DRAFT)
    make_claim(make_episode(status=Status.DRAFT), speaker=make_speaker(name="Cy Placeholder"))
    make_speaker(name="Di Nobody")

    text = visible_text(client.get("/speakers/"))

    assert "1 identified person" in text
    assert "Ada Example" in text
    for hidden in ("Ben Sample", "Cy Placeholder", "Di Nobody"):
        assert hidden not in text


def test_speaker_index_counts_public_claims_most_first(client):
    ada, ben = make_speaker(name="Ada Example"), make_speaker(name="Ben Sample")
    episode = make_episode()
    make_claim(episode, speaker=ada)
    make_claim(episode, speaker=ben)
    make_claim(episode, speaker=ben)
    make_claim(episode, speaker=ben, status=Status.DRAFT)

    text = visible_text(client.get("/speakers/"))

    assert "Ben Sample 2 claims · 1 episode Ada Example 1 claim · 1 episode" in text


def test_speaker_page_groups_claims_by_episode_newest_first(client):
    ada = make_speaker(name="Ada Example")
    older = make_episode(title="Older Episode", air_date=aired(1))
    newer = make_episode(title="Newer Episode", air_date=aired(20))
    make_claim(older, speaker=ada, number=1, excerpt="Old words one.")
    make_claim(newer, speaker=ada, number=2, excerpt="New words two.")
    make_claim(newer, speaker=ada, number=1, excerpt="New words one.")

    text = visible_text(client.get(ada.get_absolute_url()))

    assert "3 published claims" in text
    assert in_order(
        text,
        "Newer Episode",
        "New words one.",
        "New words two.",
        "Older Episode",
        "Old words one.",
    )


def test_speaker_page_follows_an_episode_whose_air_date_moved(client):
    ada = make_speaker(name="Ada Example")
    first = make_episode(title="First Episode", air_date=aired(1))
    second = make_episode(title="Second Episode", air_date=aired(20))
    make_claim(first, speaker=ada)
    make_claim(second, speaker=ada)

    first.air_date = aired(30)
    first.save()
    text = visible_text(client.get(ada.get_absolute_url()))

    assert in_order(text, "First Episode", "Second Episode")


def test_speaker_page_does_not_name_the_speaker_under_each_claim(client):
    ada = make_speaker(name="Ada Example")
    episode = make_episode()
    for _ in range(3):
        make_claim(episode, speaker=ada)

    text = visible_text(client.get(ada.get_absolute_url()))

    assert "Speaker Ada Example" not in text
    assert text.count("Ada Example") == 1  # the page's heading


def test_speaker_page_leaves_out_draft_claims(client):
    ada = make_speaker(name="Ada Example")
    make_claim(speaker=ada, excerpt="Published words.")
    make_claim(speaker=ada, excerpt="Draft words.", status=Status.DRAFT)
    make_claim(make_episode(status=Status.DRAFT), speaker=ada, excerpt="Words of a draft episode.")

    text = visible_text(client.get(ada.get_absolute_url()))

    assert "1 published claim" in text
    assert "Published words." in text
    assert "Draft words." not in text
    assert "Words of a draft episode." not in text


def test_speaker_page_pages_and_mixes_claims_by_the_counts_the_speaker_keeps(client):
    ada = make_speaker(name="Ada Example")
    episode = make_episode()
    for number in range(1, 27):
        claim_type = ClaimType.BELIEF if number <= 20 else ClaimType.PREDICTION
        make_claim(episode, speaker=ada, number=number, type=claim_type)
    make_claim(episode, speaker=ada, number=27, type=ClaimType.BELIEF, status=Status.DRAFT)

    first, second = (visible_text(client.get(ada.get_absolute_url(), {"page": p})) for p in (1, 2))

    assert "26 published claims" in first
    assert "Claim mix belief 20 prediction 6" in first
    # 25 a page: the second holds the 26th claim only.
    assert "number 26," in second
    assert "number 25," not in second
    assert "Page 2 of 2" in second


def test_speaker_page_counts_follow_an_episode_leaving_the_record(client):
    ada = make_speaker(name="Ada Example")
    kept, withdrawn = make_episode(), make_episode()
    make_claim(kept, speaker=ada, type=ClaimType.BELIEF)
    make_claim(withdrawn, speaker=ada, type=ClaimType.PREDICTION)

    withdrawn.status = Status.DRAFT
    withdrawn.save()
    text = visible_text(client.get(ada.get_absolute_url()))

    assert "1 published claim " in text
    assert "Claim mix belief 1 Claims by episode" in text


def test_speaker_with_only_draft_claims_answers_404(client):
    ada = make_speaker()
    make_claim(speaker=ada, status=Status.DRAFT)

    assert client.get(ada.get_absolute_url()).status_code == 404


def test_unknown_speaker_answers_404(client):
    assert client.get("/speakers/no-such-person/").status_code == 404


# Podcasts


def test_podcast_index_shows_public_episode_and_claim_counts(client):
    podcast = make_podcast(name="Example Show")
    first, second = make_episode(podcast), make_episode(podcast)
    make_claim(first)
    make_claim(first)
    make_claim(second)
    make_claim(second, status=Status.DRAFT)
    make_claim(make_episode(podcast, status=Status.DRAFT))

    text = visible_text(client.get("/podcasts/"))

    assert "Example Show" in text
    assert "2 episodes · 3 published claims" in text


def test_podcast_index_says_one_episode_and_one_claim_in_the_singular(client):
    make_claim(make_episode(make_podcast(name="Example Show")))

    text = visible_text(client.get("/podcasts/"))

    assert "1 episode · 1 published claim" in text


def test_podcast_index_shows_the_first_forty_words_of_a_description_escaped(client):
    words = [f"word{n}" for n in range(1, 46)]
    podcast = make_podcast(name="<b>Bold</b> & Co", description="<i>Talk</i> " + " ".join(words))
    make_episode(podcast)

    response = client.get("/podcasts/")
    html, text = response.content.decode(), visible_text(response)

    assert f'<a href="{podcast.get_absolute_url()}">&lt;b&gt;Bold&lt;/b&gt; &amp; Co</a>' in html
    assert "&lt;i&gt;Talk&lt;/i&gt; word1" in html
    assert " ".join(words[:39]) + " …" in text
    assert "word40" not in text


def test_podcast_index_lists_them_by_name_a_page_at_a_time(client, monkeypatch):
    monkeypatch.setattr("claims.views.PODCASTS_PER_PAGE", 2)
    for name in ("Sample Hour", "Example Show", "Another Show"):
        make_episode(make_podcast(name=name))

    first, second = (visible_text(client.get("/podcasts/", {"page": n})) for n in (1, 2))

    assert "publishers of the episodes in the ledger: 3, by name" in first
    assert first.index("Another Show") < first.index("Example Show")
    assert "Sample Hour" not in first
    assert "Sample Hour" in second and "Page 2 of 2" in second


def test_podcast_index_leaves_out_a_podcast_with_only_draft_episodes(client):
    make_episode(make_podcast(name="Example Show"))
    make_episode(make_podcast(name="Sample Hour"), status=Status.DRAFT)

    text = visible_text(client.get("/podcasts/"))

    assert "Example Show" in text
    assert "Sample Hour" not in text


def test_podcast_page_lists_its_published_episodes_newest_first(client):
    podcast = make_podcast(name="Example Show")
    make_episode(podcast, title="Older Episode", air_date=aired(1))
    make_episode(podcast, title="Newer Episode", air_date=aired(20))
    make_episode(podcast, title="Draft Episode", status=Status.DRAFT)
    make_episode(title="Another Show's Episode")

    text = visible_text(client.get(podcast.get_absolute_url()))

    assert "2 published episodes" in text
    assert in_order(text, "Newer Episode", "Older Episode")
    assert "Draft Episode" not in text
    assert "Another Show's Episode" not in text


def test_podcast_with_only_draft_episodes_answers_404(client):
    podcast = make_podcast()
    make_episode(podcast, status=Status.DRAFT)

    assert client.get(podcast.get_absolute_url()).status_code == 404


# Claim permalinks


def test_claim_permalink_shows_the_claim_and_its_citation(client):
    claim = make_claim(
        episode=make_episode(
            make_podcast(name="Example Show"), title="Testing Carefully", air_date=aired(14)
        ),
        speaker=make_speaker(name="Ada Example"),
        number=3,
        excerpt="Every outage started with a change that passed its tests.",
    )

    response = client.get(claim.get_absolute_url())
    text = visible_text(response)

    assert response.status_code == 200
    assert "Claim 03 of “Testing Carefully”" in text
    assert "“Every outage started with a change that passed its tests.”" in text
    # The cite box's APA string (claims/citations.py; tests/claims/test_citations.py has the rest).
    # (the podcast's name is in italics, which visible_text spaces out)
    assert (
        "Example, A. (2026, March 14). Testing Carefully [Podcast episode]. In Example Show" in text
    )
    assert "Evidence Ledger (Claim 03). http://testserver" + claim.get_absolute_url() in text


def test_claim_permalink_is_the_address_the_urlconf_gives_it(client):
    # Claim.get_absolute_url builds on its episode's address instead of reversing.
    claim = make_claim(
        episode=make_episode(make_podcast(slug="example-show"), slug="testing-carefully"), number=12
    )

    assert claim.get_absolute_url() == reverse(
        "claims:claim_detail",
        kwargs={"podcast_slug": "example-show", "episode_slug": "testing-carefully", "number": 12},
    )
    assert client.get(claim.get_absolute_url()).status_code == 200


def test_draft_claim_has_no_permalink(client):
    claim = make_claim(status=Status.DRAFT)

    assert client.get(claim.get_absolute_url()).status_code == 404


def test_claim_of_a_draft_episode_has_no_permalink(client):
    claim = make_claim(episode=make_episode(status=Status.DRAFT))

    assert client.get(claim.get_absolute_url()).status_code == 404


def test_episode_list_filter_selects_the_chosen_podcast_and_escapes_names(client):
    chosen = make_podcast(name="Loud <b>Talk</b> & Clear", slug="loud")
    make_episode(chosen, status=Status.PUBLISHED)
    make_episode(make_podcast(name="Quiet Show", slug="quiet"), status=Status.PUBLISHED)

    html = client.get("/episodes/", {"podcast": "loud"}).content.decode()

    choices = html[html.index('<select id="podcast-filter"') : html.index("</select>")]
    assert re.findall(r'<option value="([^"]*)"( selected)?>([^<]*)</option>', choices) == [
        ("", "", "All podcasts"),
        ("loud", " selected", "Loud &lt;b&gt;Talk&lt;/b&gt; &amp; Clear (1)"),
        ("quiet", "", "Quiet Show (1)"),
    ]


def test_episode_list_offers_the_podcasts_with_most_episodes_and_links_every_podcast(client):
    for number in range(OFFERED):
        podcast = make_podcast(name=f"Busy {number:02}", slug=f"busy-{number:02}")
        make_episode(podcast)
        make_episode(podcast)
    make_episode(make_podcast(name="Quiet Show", slug="quiet"))

    everything = client.get("/episodes/").content.decode()
    quiet = client.get("/episodes/", {"podcast": "quiet"}).content.decode()

    offered = re.findall(r'<option value="([^"]+)"', everything)
    assert offered == [f"busy-{number:02}" for number in range(OFFERED)]
    assert "101 episodes, newest first" in visible_text(client.get("/episodes/"))
    assert "The podcasts with the most episodes: all 51 are on" in everything
    assert '<a href="/podcasts/">the podcasts’ page</a>' in everything
    assert 'aria-describedby="podcast-filter-hint"' in everything
    # Chosen, a podcast outside the largest is offered too, and its episodes listed.
    assert '<option value="quiet" selected>Quiet Show (1)</option>' in quiet
    assert len(re.findall(r'<option value="[^"]+"', quiet)) == OFFERED + 1
    assert "1 episode from Quiet Show, newest first" in visible_text(
        client.get("/episodes/", {"podcast": "quiet"})
    )


def test_episode_list_offering_every_podcast_says_nothing_of_others(client):
    make_episode(make_podcast(name="Only Show"))

    html = client.get("/episodes/").content.decode()

    assert "podcasts with the most episodes" not in html
    assert "aria-describedby" not in html[html.index("<select") : html.index("</select>")]
