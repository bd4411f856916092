"""The API speaks JSON only (its own module: DRF imports it while defining its views)."""

from rest_framework.negotiation import BaseContentNegotiation


class AlwaysJSON(BaseContentNegotiation):
    """JSON whatever the Accept header says: one representation per URL, so a cached
    answer suits every client and none is refused with a 406."""

    def select_parser(self, request, parsers):
        return parsers[0] if parsers else None

    def select_renderer(self, request, renderers, format_suffix=None):
        return renderers[0], renderers[0].media_type
