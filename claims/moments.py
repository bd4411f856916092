"""Links that open an episode at a claim's moment, where the host can start there."""

from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from episodes.web import is_web_url

YOUTUBE_HOSTS = {"youtube.com", "www.youtube.com", "m.youtube.com", "music.youtube.com", "youtu.be"}
VIMEO_HOSTS = {"vimeo.com", "www.vimeo.com"}


def moment_url(original_url, audio_url, seconds):
    """The original episode (YouTube, Vimeo) or its audio file, starting at `seconds`.

    None when neither can be opened at a moment (most podcast pages can't), and
    for any address that is not http(s).
    """
    if seconds is None:
        return None
    original_url = original_url if is_web_url(original_url or "") else ""
    audio_url = audio_url if is_web_url(audio_url or "") else ""
    original = urlsplit(original_url or "")
    host = original.hostname or ""
    if host in YOUTUBE_HOSTS:
        query = [(key, value) for key, value in parse_qsl(original.query) if key != "t"]
        return urlunsplit(original._replace(query=urlencode([*query, ("t", f"{seconds}s")])))
    if host in VIMEO_HOSTS:
        return urlunsplit(original._replace(fragment=f"t={seconds}s"))
    if audio_url:
        # A media fragment: browsers start playing an audio file there.
        return urlunsplit(urlsplit(audio_url)._replace(fragment=f"t={seconds}"))
    return None


def clock(seconds):
    """12:34, or 1:02:03 past the hour."""
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{seconds:02d}"
    return f"{minutes}:{seconds:02d}"
