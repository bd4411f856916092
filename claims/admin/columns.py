"""Columns every list of claims in the admin shows the same way."""

from django.contrib import admin
from django.template.defaultfilters import truncatechars


class ClaimColumns:
    @admin.display(description="no.", ordering="number")
    def label(self, claim):
        return claim.label

    @admin.display(description="excerpt")
    def short_excerpt(self, claim):
        return truncatechars(claim.excerpt, 90)
