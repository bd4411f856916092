"""An episode's draft claims, each a few lines of labelled fields (admin/claims/claim/_draft_rows.html)."""

from django import template
from django.forms.utils import flatatt
from django.utils.html import format_html, format_html_join
from django.utils.text import capfirst

register = template.Library()


@register.simple_tag
def draft_fields(inline_admin_form):
    """The draft's fields, line by line as its inline's fieldsets have them.

    Written here rather than in the template: eighty drafts of a dozen fields each, a
    template's look-ups per field (label, errors, widget) are most of the page's time.
    """
    lines = (
        (format_html_join("", "{}", ((cell(field),) for field in line)),)
        for fieldset in inline_admin_form
        for line in fieldset
    )
    return format_html(
        '<div class="draft-fields">{}</div>',
        format_html_join("", '\n<div class="draft-line">{}</div>', lines),
    )


def cell(field) -> str:
    """A field with its label (a checkbox's after it), its errors, or a read-only value."""
    if field.is_readonly:
        return format_html(
            '<div class="draft-field field-{}"><span class="draft-label">{}:</span> '
            '<div class="readonly">{}</div></div>',
            field.field["name"],
            capfirst(field.field["label"]),
            field.contents(),
        )
    bound = field.field
    errors = bound.errors
    if field.is_checkbox:
        labelled = format_html(
            '{} <label class="vCheckboxLabel" for="{}">{}</label>',
            bound,
            bound.id_for_label,
            bound.label,
        )
    else:
        labelled = format_html(
            "<label{}>{}:</label> {}",
            flatatt(
                {"class": "required" if bound.field.required else None, "for": bound.id_for_label}
            ),
            bound.label,
            bound,
        )
    return format_html(
        '<div class="draft-field field-{}{}">{}{}</div>',
        bound.name,
        " errors" if errors else "",
        errors if errors else "",
        labelled,
    )
