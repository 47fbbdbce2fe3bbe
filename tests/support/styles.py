"""Is every button coloured as `bot.telegram.styles` says? For a keyboard as the bot builds it
(an `InlineKeyboardMarkup`) and as the fake Bot API holds it (its JSON, every version)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from telegram import InlineKeyboardMarkup

from bot import app as application
from bot.telegram import callbacks
from bot.telegram.styles import STYLES, Style, Styled

from .fakeapi.model import FakeMessage

KINDS = tuple(p for f in application.FEATURES for p in f.PAYLOADS)  # every feature's
JSON = dict[str, Any]


def buttons_of(markup: InlineKeyboardMarkup | JSON | None) -> list[JSON]:
    """A keyboard's buttons as Telegram is sent them (JSON), row after row."""
    if markup is None:
        return []
    data = markup.to_dict() if isinstance(markup, InlineKeyboardMarkup) else markup
    return [b for row in data.get("inline_keyboard", []) for b in row]


def expected_style(button: JSON) -> str | None:
    """The table's colour for a button: its payload's meaning's, none for a button without
    callback data (a link, a copy button)."""
    data = button.get("callback_data")
    if data is None:
        return None
    payload = callbacks.decode(data, KINDS)
    assert hasattr(payload, "meaning"), f"{type(payload).__name__} says nothing of its meaning"
    meaning = cast(Styled, payload).meaning
    return None if meaning is None else STYLES[meaning].value


def miscoloured(buttons: Iterable[JSON]) -> list[str]:
    """The buttons whose colour is not the table's (or not one the Bot API has), described."""
    wrong = []
    known = {s.value for s in Style}
    for b in buttons:
        style, expected = b.get("style"), expected_style(b)
        if style != expected or (style is not None and style not in known):
            wrong.append(f"{b['text']!r} ({b.get('callback_data')}): {style}, "
                         f"the table says {expected}")
    return wrong


def every_button(messages: Iterable[FakeMessage]) -> list[JSON]:
    """The buttons of every version of the messages (as sent, as edited, as now)."""
    out: list[JSON] = []
    for m in messages:
        for version in [*m.history, {"reply_markup": m.reply_markup}]:
            out += buttons_of(version.get("reply_markup"))
    return out
