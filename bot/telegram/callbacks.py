"""What an inline button carries: the framing of callback data, and the registry of the
features' payloads. It knows no game: each feature owns its payloads (frozen dataclasses,
checked when built) and registers its prefix and codec here once (`register`).

    <prefix>:<field>:<field>...     at most 64 ASCII bytes (Telegram's limit)

A prefix is a feature's own (one or two lower-case letters, never another's). Numbers are
canonical decimal (no sign, no leading zeros, at most `MAX_ID`: `number`), so every payload
has exactly one encoding and `encode(decode(data)) == data` for any data that decodes.
Anything else (a forged, truncated or foreign press) raises `CallbackDataError`, a ValueError,
and nothing more. Button data never holds a card: only ids, versions and positions.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from telegram import Update
from telegram.ext import CallbackQueryHandler
from telegram.ext._utils.types import CCT, HandlerCallback

__all__ = [
    "MAX_BYTES", "MAX_ID", "CallbackDataError", "Codec", "check_number", "decode", "encode",
    "handler", "number", "pattern", "register",
]

MAX_BYTES = 64  # Telegram's limit for callback_data
MAX_ID = 2**63 - 1  # SQLite INTEGER

_NUMBER = re.compile(r"0|[1-9][0-9]{0,18}")
_PREFIX = re.compile(r"[a-z]{1,2}")

T = TypeVar("T")


class CallbackDataError(ValueError):
    """Callback data that is not a payload this bot makes."""


def check_number(name: str, value: object) -> None:
    """A payload's number field, checked when the payload is built."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_ID:
        raise CallbackDataError(f"{name} must be an integer from 0 to {MAX_ID}")


def number(text: str) -> int:
    """A number field as decoded: canonical decimal from 0 to MAX_ID."""
    if not _NUMBER.fullmatch(text):
        raise CallbackDataError("not a canonical number")
    value = int(text)
    if value > MAX_ID:
        raise CallbackDataError("number out of range")
    return value


@dataclass(frozen=True, slots=True)
class Codec(Generic[T]):
    """How one kind of payload is written: its prefix, its fields from a payload, and the
    payload from its fields (raising CallbackDataError for fields no button carries)."""

    prefix: str
    kind: type[T]
    fields: Callable[[T], Sequence[str]]
    parse: Callable[[list[str]], T]


_BY_PREFIX: dict[str, Codec[Any]] = {}
_BY_KIND: dict[type, Codec[Any]] = {}


def register(prefix: str, kind: type[T], fields: Callable[[T], Sequence[str]],
             parse: Callable[[list[str]], T]) -> Codec[T]:
    """A feature's kind of payload, once, at import: a prefix taken or a kind registered twice
    is a programming error."""
    if not _PREFIX.fullmatch(prefix):
        raise ValueError(f"a prefix is one or two lower-case letters: {prefix!r}")
    if prefix in _BY_PREFIX or kind in _BY_KIND:
        raise ValueError(f"callback prefix {prefix!r} or {kind.__name__} registered already")
    codec = Codec(prefix, kind, fields, parse)
    _BY_PREFIX[prefix] = _BY_KIND[kind] = codec
    return codec


def pattern(kind: type) -> str:
    """The handler's pattern for a registered kind's presses."""
    return rf"^{_codec(kind).prefix}:"


def handler(kind: type, callback: HandlerCallback[Update, CCT, None],
            ) -> CallbackQueryHandler[CCT, None]:
    """The handler of a registered kind's presses: its prefix written nowhere else."""
    return CallbackQueryHandler(callback, pattern=pattern(kind))


def _codec(kind: type) -> Codec[Any]:
    codec = _BY_KIND.get(kind)
    if codec is None:
        raise TypeError(f"not a registered payload: {kind.__name__}")
    return codec


def encode(payload: object) -> str:
    """The callback_data string for a payload (validated when the payload was built)."""
    codec = _codec(type(payload))
    data = ":".join((codec.prefix, *codec.fields(payload)))
    if not data.isascii() or len(data) > MAX_BYTES:  # the payloads' bounds keep it in
        raise CallbackDataError(f"callback data over {MAX_BYTES} ASCII bytes")
    return data


def decode(data: object) -> object:
    """The payload a button carries; CallbackDataError for anything that is not one."""
    if not isinstance(data, str):
        raise CallbackDataError("callback data is not text")
    if len(data) > MAX_BYTES or not data.isascii():
        raise CallbackDataError("callback data is not ASCII of at most 64 bytes")
    prefix, *fields = data.split(":")
    codec = _BY_PREFIX.get(prefix)
    if codec is None:
        raise CallbackDataError("unknown callback data prefix")
    payload: object = codec.parse(fields)
    return payload
