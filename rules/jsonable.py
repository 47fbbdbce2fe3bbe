"""Public views as plain JSON data, the same way for every game.

`to_jsonable(value)` turns a view (or any part of it: frozen dataclasses, tuples, enums, cards,
hand values) into lists, dicts, strings and numbers; `json_text(value)` is that as JSON text,
keys sorted, so equal views give equal texts.
"""

from __future__ import annotations

import json
from enum import StrEnum

from rules.cards import Card
from rules.hands import Category, HandValue


def to_jsonable(value: object) -> object:
    """Cards as their codes, hand values as category, strength and deciding ranks, enums as
    their values, dataclasses as objects of their fields, tuples and lists as lists."""
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, HandValue):
        return {"category": value.category.name.lower(), "strength": value.strength,
                "ranks": list(value.ranks)}
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, Category):
        return value.name.lower()
    if isinstance(value, tuple | list):
        return [to_jsonable(v) for v in value]
    if hasattr(value, "__dataclass_fields__"):
        return {f: to_jsonable(getattr(value, f)) for f in value.__dataclass_fields__}
    return value


def json_text(value: object) -> str:
    return json.dumps(to_jsonable(value), ensure_ascii=False, sort_keys=True)
