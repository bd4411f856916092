import pytest

from claims.browse import ClaimSearch
from claims.pagination import CappedPaginator


@pytest.fixture
def cap(monkeypatch):
    """Counts stop at 5 claims, with search text or without, and facets count the 4 most
    recently added (10,000, 1,000 and 1,000 in production), so that a handful of claims
    crosses them."""
    monkeypatch.setattr(CappedPaginator, "cap", 5)
    monkeypatch.setattr(ClaimSearch, "search_count_cap", 5)
    monkeypatch.setattr(ClaimSearch, "facet_sample", 4)
