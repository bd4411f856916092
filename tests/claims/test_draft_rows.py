"""An episode's drafts on its admin page: light rows of labelled fields, their widgets
written without a template each, as Django's templates would write them."""

import re

import pytest
from django import forms
from django.test.html import parse_html
from django.urls import reverse

from claims.admin.widgets import PlainWidgetRenderer
from claims.models import ClaimStatus
from tests.factories import make_claim, make_episode

WIDGETS = {
    "text with attributes": (
        forms.TextInput(attrs={"size": 14, "required": True, "disabled": False}),
        "Caller <2> & “friends”",
    ),
    "empty text": (forms.TextInput(), None),
    "number": (forms.NumberInput(attrs={"min": 0}), 3723),
    "hidden": (forms.HiddenInput(), 7),
    "checkbox ticked": (forms.CheckboxInput(attrs={"aria-describedby": "help"}), True),
    "checkbox not ticked": (forms.CheckboxInput(), False),
    "text area": (forms.Textarea(attrs={"rows": 3}), "Line one\n<b>not bold</b> & more"),
    "empty text area": (forms.Textarea(), ""),
    "select": (
        forms.Select(choices=[("", "---------"), ("a&b", "A & B"), ("c", "<C>")]),
        "a&b",
    ),
    "select in groups": (
        forms.Select(choices=[("Early", [("1", "One"), ("2", "Two")]), ("3", "Three")]),
        "2",
    ),
    "multiple select": (forms.SelectMultiple(choices=[("1", "One"), ("2", "Two")]), ["1", "2"]),
}


@pytest.mark.parametrize(("widget", "value"), WIDGETS.values(), ids=WIDGETS.keys())
def test_plain_widgets_are_written_as_djangos_templates_write_them(widget, value):
    plain = widget.render(
        "claims-0-field", value, {"id": "id_claims-0-field"}, PlainWidgetRenderer()
    )

    assert parse_html(plain) == parse_html(
        widget.render("claims-0-field", value, {"id": "id_claims-0-field"})
    )


def drafts_page(client, drafts):
    episode = make_episode()
    episode.save_transcript("Ada: We moved everything to GRPO last spring.", [[1, 0]])
    for number in range(1, drafts + 1):
        make_claim(episode, number=number, excerpt="We moved", status=ClaimStatus.DRAFT)
    url = reverse("admin:episodes_episode_change", args=[episode.pk])
    return client.get(url).content.decode()


def test_each_draft_has_its_fields_labelled(editor_client):
    html = drafts_page(editor_client, 3)

    # The three drafts, the blank claim after them and the template of one more.
    for row in ("0", "1", "2", "3", "__prefix__"):
        for name, label in (("number", "Number"), ("type", "Type"), ("speaker", "Speaker")):
            assert f'for="id_claims-{row}-{name}">{label}:</label>' in html
        assert f'id="id_claims-{row}-speaker" class="admin-autocomplete"' in html


def test_the_drafts_help_is_said_once_and_each_row_points_to_it(editor_client):
    html = drafts_page(editor_client, 3)

    help_text = "Publish although the excerpt was not found in the episode's transcript."
    assert html.count(help_text.replace("'", "&#x27;")) == 1
    assert '<p id="claims-help-publish_unverified">' in html
    assert html.count('aria-describedby="claims-help-publish_unverified"') == 5


def test_a_drafts_speaker_has_no_links_of_its_own_but_the_drafts_one_to_add_a_speaker(
    editor_client,
):
    html = drafts_page(editor_client, 3)

    assert not re.search(r'id="(add|change|delete|view)_id_claims-\d+-speaker"', html)
    assert html.count(f'href="{reverse("admin:episodes_speaker_add")}" target="_blank"') == 1
