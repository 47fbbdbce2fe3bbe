"""A record from its row: each field read from the column of its name, unless given.

    record_of(ChallengeRecord, row, status=ChallengeStatus(row["status"]))

One mapper for every repository, so a new column is one new field, not one more line in
each mapper that copies a row field by field.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, TypeVar

from bot.storage.db import Row

T = TypeVar("T")

_NAMES: dict[type[Any], tuple[str, ...]] = {}


def record_of(cls: type[T], row: Row, **given: Any) -> T:
    """`cls` (a dataclass) with its fields from the row's columns of the same names, and
    from `given` for those whose column is named otherwise or needs converting."""
    names = _NAMES.get(cls)
    if names is None:
        names = _NAMES[cls] = tuple(f.name for f in fields(cls))  # type: ignore[arg-type]
    return cls(**{n: given[n] if n in given else row[n] for n in names})
