"""Every row of a large queryset, in order, with a bounded number of rows in memory."""

from collections.abc import Iterator
from functools import reduce
from itertools import islice
from operator import and_, attrgetter, or_

from django.db import connections
from django.db.models import FloatField, Func, Q, QuerySet, Value


def in_batches(queryset: QuerySet, size: int) -> Iterator:
    """Every row of `queryset` in its order, about `size` rows in memory at a time.

    Normally one query, read through a server-side cursor `size` rows at a time.
    Behind PgBouncer in transaction mode (DATABASE_POOLER=transaction) Django has
    no server-side cursors, and psycopg would hold the whole result in memory:
    then one query per batch, each starting after the last row of the one before
    (keyset pagination on the queryset's ordering, made unique by the primary key).
    """
    if not connections[queryset.db].settings_dict.get("DISABLE_SERVER_SIDE_CURSORS"):
        yield from queryset.iterator(chunk_size=size)
        return
    ordering = [*(queryset.query.order_by or queryset.model._meta.ordering), "pk"]
    queryset = queryset.order_by(*ordering)
    position, last = Q(), None
    while True:
        batch = list(queryset.filter(position)[:size])
        if batch and batch[-1].pk == last:
            # A key the database compares otherwise than Python read it: never loop.
            raise RuntimeError(f"keyset pagination did not advance past {last!r}")
        yield from batch
        if len(batch) < size:
            return
        last = batch[-1].pk
        position = after(ordering, batch[-1], connections[queryset.db].vendor)


def in_lists(queryset: QuerySet, size: int) -> Iterator[list]:
    """Every row of `queryset` in its order, read as in_batches() reads them, in lists of
    `size` (the last one shorter): for work done once per batch of rows."""
    rows = in_batches(queryset, size)
    while batch := list(islice(rows, size)):
        yield batch


def after(ordering: list[str], row, vendor: str) -> Q:
    """The rows that `ordering` puts after `row`: later on the first key, or equal on
    it and later on the next, and so on. Keys are fields or annotations, with `-`
    for descending, as order_by() takes them."""
    later, same = [], []
    for key in ordering:
        name = key.removeprefix("-")
        value = comparable(attrgetter(name.replace("__", "."))(row), vendor)
        direction = "lt" if key.startswith("-") else "gt"
        if not same:
            # The first key's bound on its own as well: an index on it then starts the
            # read at the row, where the alternatives alone made each batch read every
            # row before it again (half-way through a million claims, 19 ms, not 3).
            start = Q(**{f"{name}__{direction}e": value})
        later.append(reduce(and_, [*same, Q(**{f"{name}__{direction}": value})]))
        same.append(Q(**{name: value}))
    return start & reduce(or_, later)


def comparable(value, vendor: str):
    """`value` as the database must compare it with the key it was read from.

    The one float key is a search rank, which PostgreSQL computes as `real`; psycopg
    reads it as the shortest decimal naming it, which as a double is another number
    (0.6079271 is not the real 0.60792708…): compared as a real, it is the same.
    """
    if isinstance(value, float) and vendor == "postgresql":
        return Func(
            Value(value), template="CAST(%(expressions)s AS real)", output_field=FloatField()
        )
    return value
