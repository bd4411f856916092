"""One date format on every public page: "3 September 2026"."""

import datetime
import re
from html import unescape

import pytest

from tests.factories import make_claim, make_episode

pytestmark = pytest.mark.django_db

# A month whose short and long names differ, so "j M Y" would show "3 Sep 2026".
AIRED = datetime.date(2026, 9, 3)


def visible_text(response):
    html = response.content.decode()
    main = html[html.index("<main") : html.index("</main>")]
    return " ".join(unescape(re.sub(r"<[^>]*>", " ", main)).split())


@pytest.mark.parametrize(
    "page",
    [
        lambda claim: "/",
        lambda claim: "/episodes/",
        lambda claim: claim.episode.podcast.get_absolute_url(),
        lambda claim: claim.episode.get_absolute_url(),
        lambda claim: claim.speaker.get_absolute_url(),
        lambda claim: claim.get_absolute_url(),
        lambda claim: "/claims/",
    ],
    ids=["home", "episode list", "podcast", "episode", "speaker", "claim permalink", "claims"],
)
def test_every_page_shows_an_air_date_day_month_year_in_words(client, page):
    claim = make_claim(make_episode(air_date=AIRED))

    text = visible_text(client.get(page(claim)))

    assert "3 September 2026" in text
    assert "Sep 2026" not in text.replace("September 2026", "")
    assert "2026-09-03" not in text


def test_the_results_line_reads_the_air_date_range_in_words(client):
    make_claim(make_episode(air_date=AIRED))

    response = client.get("/claims/", {"aired_from": "2026-09-01", "aired_to": "2026-09-30"})

    assert "1 published claim, aired from 1 September 2026 to 30 September 2026" in (
        visible_text(response)
    )


def test_the_results_line_reads_an_open_ended_range(client):
    make_claim(make_episode(air_date=AIRED))

    assert "1 published claim, aired up to 30 September 2026" in visible_text(
        client.get("/claims/", {"aired_to": "2026-09-30"})
    )
    assert "1 published claim, aired from 1 September 2026" in visible_text(
        client.get("/claims/", {"aired_from": "2026-09-01"})
    )


def test_the_air_date_filter_reads_aired_from_to_with_date_inputs(client):
    make_claim(make_episode(air_date=AIRED))

    html = client.get("/claims/").content.decode()
    dates = html[
        html.index("<legend>Aired</legend>") : html.index(
            "</fieldset>", html.index("<legend>Aired")
        )
    ]

    assert re.findall(r'<label for="([\w-]+)">(\w+)</label>', dates) == [
        ("aired-from", "from"),
        ("aired-to", "to"),
    ]
    assert re.findall(r'<input type="(\w+)" id="([\w-]+)"', dates) == [
        ("date", "aired-from"),
        ("date", "aired-to"),
    ]
