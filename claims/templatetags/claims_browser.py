from urllib.parse import urlencode

from django import template
from django.http import QueryDict
from django.utils.safestring import mark_safe

from claims.cards import escaped

register = template.Library()


@register.simple_tag(takes_context=True)
def facet_choices(context, name: str, rows, chosen) -> str:
    """Each of facet `name`'s rows (value, label, count) as a list item: a link that
    chooses it, keeping every other filter, or the chosen one with a link to remove it.

    Written here rather than looped over in claims/_facet.html: one search's podcast
    facet can list a hundred choices or more, and the template's lookups for each row
    cost more than all the rest of the facet. Plain strings, escaped as `{{ }}` would,
    rather than format_html, whose checks around each value took as long again.
    """
    items = []
    for value, label, count in rows:
        label, count = escaped(label), escaped(count)
        if value == chosen:
            items.append(
                f'<li><strong aria-current="true">{label}</strong> '
                f'<span class="facet-count">{count}</span> '
                f'<a href="{escaped(facet_url(context, name))}" '
                f'aria-label="Remove the {escaped(name)} filter">remove</a></li>'
            )
        else:
            items.append(
                f'<li><a href="{escaped(facet_url(context, name, value))}">{label}</a> '
                f'<span class="facet-count">{count}</span></li>'
            )
    return mark_safe("\n      ".join(items))


@register.simple_tag(takes_context=True)
def facet_url(context, name: str, value: str | None = None) -> str:
    """The current query string with facet `name` set to `value` (or removed), from page one.

    What `{% querystring name=value page=None %}` writes, which takes only literal
    parameter names (one facet partial serves many). A facet can list hundreds of
    choices, so the parameters around `name` are encoded once per facet and request,
    not once per choice.
    """
    request = context.request
    links = request.__dict__.setdefault("_facet_links", {})
    if name not in links:
        links[name] = FacetLinks(request.GET, name)
    return links[name].to(value)


class FacetLinks:
    """The query strings of one facet's choices: `query` with `name` set or removed,
    without `page`, its other parameters in their order."""

    def __init__(self, query: QueryDict, name: str):
        self.name, self.encoding = name, query.encoding
        params = query.copy()
        params.pop("page", None)
        keys = list(params)
        # A parameter already there keeps its place; a new one goes last.
        place = keys.index(name) if name in keys else len(keys)
        self.before = self._encoded(params, keys[:place])
        self.after = self._encoded(params, keys[place + 1 :])
        params.pop(name, None)
        # Removing the last parameter leaves "?", unless there were none to start with.
        self.removed = "" if not params and not query else f"?{params.urlencode()}"

    def to(self, value) -> str:
        if value is None:
            return self.removed
        chosen = self._pair(self.name, value)
        return "?" + "&".join(part for part in (self.before, chosen, self.after) if part)

    def _encoded(self, params: QueryDict, keys) -> str:
        return "&".join(self._pair(key, value) for key in keys for value in params.getlist(key))

    def _pair(self, key, value) -> str:
        # As QueryDict.urlencode() writes each pair.
        return urlencode({key.encode(self.encoding): str(value).encode(self.encoding)})
