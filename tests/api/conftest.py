import pytest

from claims.api.throttles import APIThrottle, DownloadThrottle


@pytest.fixture(autouse=True)
def unthrottled(monkeypatch):
    """Tests ask far faster than any reader: only the rate-limit tests set a limit."""
    for throttle in (APIThrottle, DownloadThrottle):
        monkeypatch.setattr(throttle, "rate", "1000000/minute", raising=False)
