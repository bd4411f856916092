"""The claims app's admin: every module here registers its pages when imported."""

from claims.admin import claim, episodes, predictions, reports, subjects  # noqa: F401
