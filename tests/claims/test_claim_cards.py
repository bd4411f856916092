"""The claim card's own template tags (claims/templatetags/claim_cards.py)."""

import datetime

import pytest
from django.template import Context, Template
from django.utils import timezone

DATE_FILTER = Template("""<time datetime="{{ day|date:'Y-m-d' }}">{{ day|date:"j F Y" }}</time>""")
TIME_ELEMENT = Template("{% load claim_cards %}{{ day|time_element }}")


@pytest.mark.parametrize(
    "day",
    [
        datetime.date(2026, 9, 3),
        datetime.date(987, 1, 31),
        # Late on the 2nd in UTC is the 3rd in Auckland: the reader's local date.
        datetime.datetime(2026, 9, 2, 20, 0, tzinfo=datetime.UTC),
    ],
)
def test_a_cards_date_is_written_as_the_date_filter_writes_it(day):
    with timezone.override("Pacific/Auckland"):
        expected = DATE_FILTER.render(Context({"day": day}))
        assert TIME_ELEMENT.render(Context({"day": day})) == expected


def test_a_datetime_shows_its_local_date():
    day = datetime.datetime(2026, 9, 2, 20, 0, tzinfo=datetime.UTC)

    with timezone.override("Pacific/Auckland"):
        html = TIME_ELEMENT.render(Context({"day": day}))

    assert html == '<time datetime="2026-09-03">3 September 2026</time>'
