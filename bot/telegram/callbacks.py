"""What an inline button carries: the framing of callback data. It knows no game: each feature
owns its payloads (frozen dataclasses, checked when built), each kind declaring its own wire
form (`Payload`: its prefix, its fields, and itself parsed from them), and lists them in its
package's `PAYLOADS`; nothing is registered. A decoder is given the kinds it expects.

    <prefix>:<field>:<field>...     at most 64 ASCII bytes (Telegram's limit)

A prefix is a feature's own (one or two lower-case letters, never another's: `check_prefixes`,
when the application is built). Numbers are canonical decimal (no sign, no leading zeros, at
most `MAX_ID`: `number`), so every payload has exactly one encoding and
`encode(decode(data, kinds)) == data` for any data that decodes. Anything else (a forged,
truncated or foreign press) raises `CallbackDataError`, a ValueError, and nothing more. Button
data never holds a card: only ids, versions and positions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import ClassVar, Protocol, Self, TypeVar

from telegram import Update
from telegram.ext import CallbackQueryHandler
from telegram.ext._utils.types import CCT, HandlerCallback

__all__ = [
    "MAX_BYTES", "MAX_ID", "CallbackDataError", "Payload", "check_number", "check_prefixes",
    "decode", "encode", "handler", "number", "pattern",
]

MAX_BYTES = 64  # Telegram's limit for callback_data
MAX_ID = 2**63 - 1  # SQLite INTEGER

_NUMBER = re.compile(r"0|[1-9][0-9]{0,18}")
_PREFIX = re.compile(r"[a-z]{1,2}")


class CallbackDataError(ValueError):
    """Callback data that is not a payload this bot makes."""


class Payload(Protocol):
    """A feature's kind of button payload, written `PREFIX:fields...`: its fields, and the
    payload from its fields (raising CallbackDataError for fields no button carries)."""

    PREFIX: ClassVar[str]

    def fields(self) -> Sequence[str]: ...

    @classmethod
    def parse(cls, fields: list[str]) -> Self: ...


P = TypeVar("P", bound=Payload)


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


def check_prefixes(kinds: Iterable[type[Payload]]) -> None:
    """The application's kinds of payload, each once, under a prefix of its own: a prefix
    malformed or taken twice is a programming error (ValueError)."""
    seen: dict[str, type[Payload]] = {}
    for kind in kinds:
        prefix = _prefix(kind)
        if prefix in seen:
            raise ValueError(f"callback prefix {prefix!r} of {kind.__name__} is "
                             f"{seen[prefix].__name__}'s already")
        seen[prefix] = kind


def _prefix(kind: type) -> str:
    prefix = getattr(kind, "PREFIX", None)
    if not isinstance(prefix, str):
        raise TypeError(f"not a payload: {kind.__name__}")
    if not _PREFIX.fullmatch(prefix):
        raise ValueError(f"a prefix is one or two lower-case letters: {prefix!r}")
    return prefix


def pattern(kind: type[Payload]) -> str:
    """The handler's pattern for a kind's presses."""
    return rf"^{_prefix(kind)}:"


def handler(kind: type[Payload], callback: HandlerCallback[Update, CCT, None],
            ) -> CallbackQueryHandler[CCT, None]:
    """The handler of a kind's presses: its prefix written nowhere else."""
    return CallbackQueryHandler(callback, pattern=pattern(kind))


def encode(payload: Payload) -> str:
    """The callback_data string for a payload (validated when the payload was built)."""
    data = ":".join((_prefix(type(payload)), *payload.fields()))
    if not data.isascii() or len(data) > MAX_BYTES:  # the payloads' bounds keep it in
        raise CallbackDataError(f"callback data over {MAX_BYTES} ASCII bytes")
    return data


def decode(data: object, kinds: Iterable[type[P]]) -> P:
    """The payload a button carries, of one of the `kinds` the caller expects;
    CallbackDataError for anything that is not one."""
    if not isinstance(data, str):
        raise CallbackDataError("callback data is not text")
    if len(data) > MAX_BYTES or not data.isascii():
        raise CallbackDataError("callback data is not ASCII of at most 64 bytes")
    prefix, *fields = data.split(":")
    for kind in kinds:
        if prefix == kind.PREFIX:
            return kind.parse(fields)
    raise CallbackDataError("unknown callback data prefix")
