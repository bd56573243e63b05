"""The statements of a move, written once per model and database from the models' own
metadata and then run with fresh parameters.

Applying a move reads the session row (locked) and its seats, and writes the new state,
the action log row and the seats whose clocks changed. Through the ORM, building those
statements anew for every move cost a worker more CPU than everything else it does for
the move (``bench/play_load.py``; docs/decisions/0024-cost-of-a-move.md). What
is read and written here is what the ORM would read and write: rows come back as model
instances made by ``Model.from_db`` after each field's own converters, and values go in
through each field's ``pre_save`` (``auto_now``) and ``get_db_prep_save``. The SQL is
plain enough for PostgreSQL and SQLite alike; the row lock is taken where the database
has one. As with ``QuerySet.update`` and ``bulk_update``, no model signal is sent (none
is connected to these models).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

from django.db import connections, router
from django.db.models import Model

M = TypeVar("M", bound=Model)

_SQL: dict[tuple, str] = {}


def _connection(model: type[Model], write: bool = True):
    alias = router.db_for_write(model) if write else router.db_for_read(model)
    return connections[alias]


def _sql(key: tuple, build) -> str:
    sql = _SQL.get(key)
    if sql is None:
        sql = _SQL[key] = build()
    return sql


def _column_list(connection, fields) -> str:
    return ", ".join(connection.ops.quote_name(f.column) for f in fields)


def select(
    model: type[M], where: str, params: Sequence[Any], *, order_by: str = "", lock: bool = False
) -> list[M]:
    """Rows of ``model`` whose field ``where`` equals the one parameter, as instances.

    ``order_by`` names a field; ``lock`` takes the rows' lock (``SELECT ... FOR UPDATE``)
    where the database has row locks, as ``select_for_update`` does (inside a transaction).
    """
    connection = _connection(model)
    meta = model._meta
    fields = meta.concrete_fields
    locking = lock and connection.features.has_select_for_update

    def build() -> str:
        quote = connection.ops.quote_name
        sql = (
            f"SELECT {_column_list(connection, fields)} FROM {quote(meta.db_table)} "
            f"WHERE {quote(meta.get_field(where).column)} = %s"
        )
        if order_by:
            sql += f" ORDER BY {quote(meta.get_field(order_by).column)}"
        return sql + (" FOR UPDATE" if locking else "")

    sql = _sql((model, connection.alias, "select", where, order_by, locking), build)
    converters = _converters(model, connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, list(params))
        rows = cursor.fetchall()
    out = []
    for row in rows:
        values = list(row)
        for i, expression, funcs in converters:
            value = values[i]
            for func in funcs:
                value = func(value, expression, connection)
            values[i] = value
        out.append(model.from_db(connection.alias, None, values))
    return out


_CONVERTERS: dict[tuple, list] = {}


def _converters(model: type[Model], connection) -> list:
    """(column index, expression, converters) of each field that has any, as the ORM's
    compiler applies them (backend's first, then the field's)."""
    key = (model, connection.alias)
    found = _CONVERTERS.get(key)
    if found is None:
        found = []
        for i, field in enumerate(model._meta.concrete_fields):
            expression = field.get_col(model._meta.db_table)
            funcs = [
                *connection.ops.get_db_converters(expression),
                *expression.get_db_converters(connection),
            ]
            if funcs:
                found.append((i, expression, funcs))
        _CONVERTERS[key] = found
    return found


def update(objs: Iterable[Model], fields: Sequence[str]) -> None:
    """Store ``fields`` of each of ``objs`` (one model) by primary key: ``save(update_fields=...)``
    for many rows, one statement run once per row."""
    objs = list(objs)
    if not objs:
        return
    model = type(objs[0])
    connection = _connection(model)
    meta = model._meta
    targets = [meta.get_field(name) for name in fields]

    def build() -> str:
        quote = connection.ops.quote_name
        assignments = ", ".join(f"{quote(f.column)} = %s" for f in targets)
        return f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {quote(meta.pk.column)} = %s"

    sql = _sql((model, connection.alias, "update", tuple(fields)), build)
    rows = [
        [f.get_db_prep_save(f.pre_save(obj, False), connection) for f in targets] + [obj.pk]
        for obj in objs
    ]
    with connection.cursor() as cursor:
        if len(rows) == 1:
            cursor.execute(sql, rows[0])
        else:
            cursor.executemany(sql, rows)


def insert(obj: Model) -> None:
    """Insert ``obj`` as ``save()`` would (defaults, ``auto_now_add``), without reading its
    new primary key back: for rows nothing refers to once written (the action log)."""
    model = type(obj)
    connection = _connection(model)
    meta = model._meta
    fields = [f for f in meta.concrete_fields if not f.primary_key]

    def build() -> str:
        marks = ", ".join(["%s"] * len(fields))
        return (
            f"INSERT INTO {connection.ops.quote_name(meta.db_table)} "
            f"({_column_list(connection, fields)}) VALUES ({marks})"
        )

    sql = _sql((model, connection.alias, "insert"), build)
    params = [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
