"""Widgets written without a template each: the episode page's draft rows have a dozen each.

Django renders a widget through its template, and a select's every option through one
more: eighty drafts are some two thousand renders, most of the page's time. This
renderer writes the plain widgets (inputs, text areas, selects) as those templates
would, straight from the widget's context, and leaves any other template to Django.
"""

from django.forms.renderers import DjangoTemplates
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

WIDGETS = "django/forms/widgets/"
# The templates that only include input.html.
INPUTS = {
    f"{WIDGETS}{name}.html"
    for name in ("input", "text", "number", "hidden", "checkbox", "email", "url", "password")
}


def attributes(attrs) -> str:
    """As attrs.html: a True attribute bare, a False one left out, the others quoted."""
    return "".join(
        f" {name}" if value is True else f' {name}="{conditional_escape(value)}"'
        for name, value in attrs.items()
        if value is not False
    )


def option(widget) -> str:
    label = conditional_escape(widget["label"])
    return f'<option value="{conditional_escape(widget["value"])}"{attributes(widget["attrs"])}>{label}</option>'


def select(widget) -> str:
    parts = [f'<select name="{conditional_escape(widget["name"])}"{attributes(widget["attrs"])}>']
    for group_name, options, _index in widget["optgroups"]:
        if group_name:
            parts.append(f'<optgroup label="{conditional_escape(group_name)}">')
        parts.extend(option(choice) for choice in options)
        if group_name:
            parts.append("</optgroup>")
    parts.append("</select>")
    return "".join(parts)


def textarea(widget) -> str:
    value = conditional_escape(widget["value"]) if widget["value"] else ""
    return f'<textarea name="{conditional_escape(widget["name"])}"{attributes(widget["attrs"])}>\n{value}</textarea>'


def plain_input(widget) -> str:
    value = "" if widget["value"] is None else f' value="{conditional_escape(widget["value"])}"'
    name = conditional_escape(widget["name"])
    return f'<input type="{widget["type"]}" name="{name}"{value}{attributes(widget["attrs"])}>'


class PlainWidgetRenderer(DjangoTemplates):
    """Django's template renderer, but for the plain widgets, written in Python."""

    def render(self, template_name, context, request=None):
        if template_name in INPUTS:
            return mark_safe(plain_input(context["widget"]))
        if template_name == f"{WIDGETS}select.html":
            return mark_safe(select(context["widget"]))
        if template_name == f"{WIDGETS}textarea.html":
            return mark_safe(textarea(context["widget"]))
        return super().render(template_name, context, request=request)
