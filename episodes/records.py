"""What the ledger's records share: links worked out once, and saves that know what changed."""

from functools import lru_cache

from django.db import models, transaction
from django.urls import get_resolver, get_script_prefix, get_urlconf, reverse


def reverse_once(instance, viewname, **kwargs):
    """reverse(viewname, kwargs=kwargs), worked out once per instance and kwargs.

    A page of claims links to the same podcast, episode or speaker from card after
    card, and reverse() is the costly part of a link. Kept on the instance, which
    lives for one request, and keyed by the kwargs, so a changed slug gets its own URL.
    Behind that, one address per process: a page of search results holds a fresh
    instance of each claim's episode, podcast and speaker.
    """
    urls = instance.__dict__.setdefault("_reversed_urls", {})
    key = (viewname, *kwargs.items())
    if key not in urls:
        urls[key] = _shared_reverse(get_resolver(get_urlconf()), get_script_prefix(), key)
    return urls[key]


@lru_cache(maxsize=4096)
def _shared_reverse(resolver, script_prefix, key):
    # The resolver and the script prefix are in the cache key, unused here, because
    # reverse() reads them too: a reloaded URLconf (clear_url_caches() builds a new
    # resolver) or another mount point gets its own addresses, never a stale one.
    viewname, *kwargs = key
    return reverse(viewname, kwargs=dict(kwargs))


class RemembersLoadedValues(models.Model):
    """Remembers some fields as the database held them, so a save can tell what changed.

    Claims keep copies derived from an episode's title and transcript and a
    speaker's name; their post_save receivers (claims/signals.py) redo that work
    only when one of these fields really changed, not on every save.
    """

    remembered_fields: tuple[str, ...] = ()

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        # In one transaction with what its post_save receivers keep in step: a claim's
        # copy of its episode's status is the public gate, so it never lags the episode.
        with transaction.atomic(using=kwargs.get("using")):
            super().save(*args, **kwargs)
        self.remember_values()

    @classmethod
    def from_db(cls, db, field_names, values):
        instance = super().from_db(db, field_names, values)
        instance.remember_values()
        return instance

    def remember_values(self) -> None:
        # A deferred field is not in __dict__ and is not remembered.
        self._loaded = {
            name: self.__dict__[name] for name in self.remembered_fields if name in self.__dict__
        }

    def has_changed(self, name: str) -> bool:
        """Whether `name` differs from the stored value (always true for a new record)."""
        if self._state.adding or name not in self.__dict__:
            return self._state.adding
        loaded = getattr(self, "_loaded", {})
        return name not in loaded or loaded[name] != self.__dict__[name]

    def loaded_value(self, name: str):
        """`name` as it was when the record was read: None for a new record, or for a
        field the read deferred."""
        return getattr(self, "_loaded", {}).get(name)

    def refresh_from_db(self, *args, **kwargs):
        super().refresh_from_db(*args, **kwargs)
        self.remember_values()
