"""Columns every list of claims in the admin shows the same way.

The excerpt and the episode are cut short here, to what two lines can show at
1280 px (static/ledger/admin.css clamps them to two lines): a whole paragraph in
every row would only be hidden, and read out in full by a screen reader.
"""

from django.contrib import admin
from django.template.defaultfilters import truncatechars
from django.utils.html import format_html


class ClaimColumns:
    @admin.display(description="no.", ordering="number")
    def label(self, claim):
        return claim.label

    @admin.display(description="excerpt")
    def short_excerpt(self, claim):
        return truncatechars(claim.excerpt, 140)

    @admin.display(description="episode", ordering="episode")
    def episode_short(self, claim):
        return format_html(
            '<span class="two-lines">{}</span>', truncatechars(claim.episode.title, 40)
        )
