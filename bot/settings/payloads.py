"""The settings message's buttons, as callback data: the kind writes and parses its own fields,
framed by `bot.telegram.callbacks` (the kinds: `PAYLOADS`):

    s:<setting>:<value> | s:x             a chat setting, or close the settings message
        l:auto|en|ru|ptbr...  language (its code in lower case, no "_")
        t:<seconds>   turn timer (0 = off)
        k:<chips>     default stack    c:1|0 show the cards out    v:1|0 keep every reveal
        n:0|m|q       the standings' season: none, month, quarter (no word: "month" holds "th")
        r:1|0         a new season's ratings: reset to a newcomer's (1) or carried on (0)
        d:1|0         the four-colour deck (1) or the classic two colours (0)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from bot.i18n import LANGUAGES
from bot.telegram.callbacks import MAX_ID, CallbackDataError, Payload, number
from bot.telegram.styles import Meaning


class Setting(StrEnum):
    LANGUAGE = "l"
    TIMER = "t"
    STACK = "k"
    CARDS_OUT = "c"
    REVEALS = "v"  # keep every bullet's reveal as its own message
    SEASON = "n"  # the standings' season: none, month, quarter
    SEASON_RESET = "r"  # a season's ratings start afresh (True) or carry on (False)
    NUDGES = "u"  # a private chat's: told of one's turn in a duel anywhere (inline mode)
    DECK = "d"  # the pictures' cards in four colours (True) or two (False)
    CLOSE = "x"


LANGUAGE_CHOICES = ("auto", *LANGUAGES)  # auto: each user's own language
SEASON_CHOICES = ("none", "month", "quarter")  # bot.stats.seasons.KINDS
_SEASON_CODES = {"none": "0", "month": "m", "quarter": "q"}
_ON_OFF = (Setting.CARDS_OUT, Setting.REVEALS, Setting.SEASON_RESET, Setting.DECK,
           Setting.NUDGES)


@dataclass(frozen=True, slots=True)
class SettingsPress:
    """Set one of the chat's settings to `value` (a language choice, seconds, chips, a
    bool), or close the settings message (no value). Ranges are ChatSettings' to check."""

    PREFIX: ClassVar[str] = "s"

    setting: Setting
    value: str | int | bool | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.setting, Setting):
            raise CallbackDataError("setting must be a Setting")
        value = self.value
        if self.setting is Setting.LANGUAGE:
            ok = isinstance(value, str) and value in LANGUAGE_CHOICES
        elif self.setting is Setting.SEASON:
            ok = isinstance(value, str) and value in SEASON_CHOICES
        elif self.setting in (Setting.TIMER, Setting.STACK):
            ok = isinstance(value, int) and not isinstance(value, bool) and (
                0 <= value <= MAX_ID)
        elif self.setting in _ON_OFF:
            ok = isinstance(value, bool)
        else:
            ok = value is None
        if not ok:
            raise CallbackDataError(f"not a value for {self.setting.name.lower()}: {value!r}")

    def fields(self) -> tuple[str, ...]:
        value = self.value
        if value is None:
            return (self.setting.value,)
        if self.setting is Setting.SEASON:
            value = _SEASON_CODES[str(value)]
        if self.setting is Setting.LANGUAGE:
            value = _language_code(str(value))
        return self.setting.value, str(int(value)) if isinstance(value, bool) else str(value)

    @classmethod
    def parse(cls, fields: list[str]) -> SettingsPress:
        if fields == [Setting.CLOSE.value]:
            return cls(Setting.CLOSE)
        if len(fields) != 2 or fields[0] not in {s.value for s in Setting}:
            raise CallbackDataError("a settings press names a setting and a value")
        setting, text = Setting(fields[0]), fields[1]
        if setting is Setting.LANGUAGE:
            choice = next((c for c in LANGUAGE_CHOICES if _language_code(c) == text), None)
            if choice is None:
                raise CallbackDataError(f"no language {text!r}")
            return cls(setting, choice)
        if setting is Setting.SEASON:
            kind = next((k for k, code in _SEASON_CODES.items() if code == text), None)
            if kind is None:
                raise CallbackDataError("a season is 0, m or q")
            return cls(setting, kind)
        if setting in _ON_OFF:
            if text not in ("0", "1"):
                raise CallbackDataError("an on/off setting is 1 or 0")
            return cls(setting, text == "1")
        return cls(setting, number(text))

    @property
    def meaning(self) -> Meaning | None:  # choices among equals, and Done: no colour
        return None


def _language_code(choice: str) -> str:
    """A language choice in the payloads' alphabet: "pt_BR" -> "ptbr"."""
    return choice.replace("_", "").lower()


PAYLOADS: tuple[type[Payload], ...] = (SettingsPress,)
