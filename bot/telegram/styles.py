"""A button's colour, by what it means: one table, so a colour says the same everywhere.

Bot API 9.4's `style` of an inline button is "danger" (red), "success" (green) or "primary"
(blue); omitted, the app's own colour. Each feature's payload says what its button means
(`meaning`, None for most), and `STYLES` alone says which colour that meaning has:

    PROCEED    primary   the one button that goes on: six-card's Play, a tournament's Start
    ACCEPT     success   yes to another player: a challenge, a tiebreak, a tournament's sign-up
    AGAIN      success   the same players once more: a finished duel's Rematch
    DECLINE    danger    no to another player: a challenge, a tiebreak
    WITHDRAW   danger    taking one's own offer back: a challenge, a place in a sign-up
    CANCEL     danger    calling a tournament off
    FOLD       danger    giving a six-card box up
    SURRENDER  danger    giving a duel up

Everything else has no colour: a choice among equals (the duel's hands, six-card's cards to
replace, the practice levels, the settings, the standings' scopes, a tournament's pairings)
stays plain, since colouring one of them would be advice and colouring all of them says
nothing. A button with no payload (a link, a copy button) has no colour either.

Every button with callback data is made by `button`, so its colour comes from here
(`tests/bot/telegram/test_styles.py` checks every keyboard the bot builds against this table).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum, StrEnum
from types import MappingProxyType
from typing import Final, Protocol

from telegram import InlineKeyboardButton

from bot.telegram import callbacks
from bot.telegram.callbacks import Payload

__all__ = ["STYLES", "Meaning", "Style", "Styled", "button", "style_of"]


class Style(StrEnum):
    """The Bot API's button styles (InlineKeyboardButton.style)."""

    PRIMARY = "primary"  # blue
    SUCCESS = "success"  # green
    DANGER = "danger"  # red


class Meaning(Enum):
    """What a button does, in words every feature shares: only the meanings with a colour."""

    PROCEED = "proceed"
    ACCEPT = "accept"
    AGAIN = "again"
    DECLINE = "decline"
    WITHDRAW = "withdraw"
    CANCEL = "cancel"
    FOLD = "fold"
    SURRENDER = "surrender"


STYLES: Final[Mapping[Meaning, Style]] = MappingProxyType({
    Meaning.PROCEED: Style.PRIMARY,
    Meaning.ACCEPT: Style.SUCCESS,
    Meaning.AGAIN: Style.SUCCESS,
    Meaning.DECLINE: Style.DANGER,
    Meaning.WITHDRAW: Style.DANGER,
    Meaning.CANCEL: Style.DANGER,
    Meaning.FOLD: Style.DANGER,
    Meaning.SURRENDER: Style.DANGER,
})


class Styled(Payload, Protocol):
    """A payload that says what its button means (None: nothing with a colour)."""

    @property
    def meaning(self) -> Meaning | None: ...


def style_of(payload: Styled) -> Style | None:
    meaning = payload.meaning
    return None if meaning is None else STYLES[meaning]


def button(text: str, payload: Styled) -> InlineKeyboardButton:
    """The inline button that sends `payload`, in its meaning's colour."""
    style = style_of(payload)
    return InlineKeyboardButton(text, callback_data=callbacks.encode(payload),
                                style=None if style is None else style.value)
