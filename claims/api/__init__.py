"""The public, read-only JSON API under /api/v1/ (Django REST framework).

It reads through the same gates as the pages: Claim.objects.published() for
everything listed and counted, on_record() for a claim's permalink.
"""
