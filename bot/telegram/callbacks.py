"""Callback data: what an inline button carries, encoded in at most 64 bytes.

    d:<duel id>:<version>:<action>        a duel action, on the version the button was drawn for
        action: b<hand 0-5><chips 1|2>    bet on a hand (1 = pass, 2 = play)
                ty / tn                   tiebreak: yes / no
                sr                        surrender
    c:<challenge id>:<version>:a|d|w      accept, decline, withdraw a challenge
    x:<game id>:<version>:<action>        a six-card poker action, by its rules code:
        f fold, p play, b buy a sixth card, r0..r5 replace that card, g / n buy the dealer
        a game or not
    r:<duel id>:m|s                       a finished duel's result: rematch, standings
    s:<setting>:<value> | s:x             a chat setting, or close the settings message
        l:auto|en|ru  language    t:<seconds> turn timer (0 = off)
        k:<chips>     default stack    c:1|0 show the cards out    v:1|0 keep every reveal

Numbers are canonical decimal (no sign, no leading zeros), so every payload has exactly one
encoding and `encode(decode(data)) == data` for any data that decodes. Anything else (a forged,
truncated or foreign press) raises `CallbackDataError`, a ValueError, and nothing more. Button
data never holds a card: only ids, versions and the hand's position in the row.

To add a kind of payload: a frozen dataclass, a branch in `encode`, a prefix in `_DECODERS`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from bot.i18n import LANGUAGES
from rules.duel import Bet, Surrender, TiebreakAnswer
from rules.duel import actions as duel_actions
from rules.sixcard import Replace, SixAction, SixCardError, parse_action

MAX_BYTES = 64  # Telegram's limit for callback_data
MAX_ID = 2**63 - 1  # SQLite INTEGER
HANDS = 6

DuelAction = Bet | TiebreakAnswer | Surrender

_NUMBER = re.compile(r"0|[1-9][0-9]{0,18}")


class CallbackDataError(ValueError):
    """Callback data that is not a payload this bot makes."""


class Setting(StrEnum):
    LANGUAGE = "l"
    TIMER = "t"
    STACK = "k"
    CARDS_OUT = "c"
    REVEALS = "v"  # keep every bullet's reveal as its own message
    CLOSE = "x"


LANGUAGE_CHOICES = ("auto", *LANGUAGES)  # auto: each user's own language


class ChallengeOp(StrEnum):
    ACCEPT = "a"
    DECLINE = "d"
    WITHDRAW = "w"


class ResultOp(StrEnum):
    REMATCH = "m"
    STANDINGS = "s"


def _check_number(name: str, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_ID:
        raise CallbackDataError(f"{name} must be an integer from 0 to {MAX_ID}")


def _check_action(action: DuelAction) -> None:
    if isinstance(action, Bet):
        for value, low, high in ((action.position, 0, HANDS - 1), (action.chips, 1, 2)):
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise CallbackDataError(f"not a bet a button can carry: {action!r}")
    elif isinstance(action, TiebreakAnswer):
        if not isinstance(action.accept, bool):
            raise CallbackDataError("a tiebreak answer is True or False")
    elif not (isinstance(action, Surrender) and action.reason == "surrender"):
        # A timeout is the bot's own decision, never a button.
        raise CallbackDataError(f"not an action a button can carry: {action!r}")


@dataclass(frozen=True, slots=True)
class DuelPress:
    duel_id: int
    version: int
    action: DuelAction

    def __post_init__(self) -> None:
        _check_number("duel_id", self.duel_id)
        _check_number("version", self.version)
        _check_action(self.action)


@dataclass(frozen=True, slots=True)
class ChallengePress:
    challenge_id: int
    version: int
    op: ChallengeOp

    def __post_init__(self) -> None:
        _check_number("challenge_id", self.challenge_id)
        _check_number("version", self.version)
        if not isinstance(self.op, ChallengeOp):
            raise CallbackDataError("op must be a ChallengeOp")


@dataclass(frozen=True, slots=True)
class SettingsPress:
    """Set one of the chat's settings to `value` (a language choice, seconds, chips, a
    bool), or close the settings message (no value). Ranges are ChatSettings' to check."""

    setting: Setting
    value: str | int | bool | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.setting, Setting):
            raise CallbackDataError("setting must be a Setting")
        value = self.value
        if self.setting is Setting.LANGUAGE:
            ok = isinstance(value, str) and value in LANGUAGE_CHOICES
        elif self.setting in (Setting.TIMER, Setting.STACK):
            ok = isinstance(value, int) and not isinstance(value, bool) and (
                0 <= value <= MAX_ID)
        elif self.setting in (Setting.CARDS_OUT, Setting.REVEALS):
            ok = isinstance(value, bool)
        else:
            ok = value is None
        if not ok:
            raise CallbackDataError(f"not a value for {self.setting.name.lower()}: {value!r}")


@dataclass(frozen=True, slots=True)
class ResultPress:
    """A button of a finished duel's result."""

    duel_id: int
    op: ResultOp

    def __post_init__(self) -> None:
        _check_number("duel_id", self.duel_id)
        if not isinstance(self.op, ResultOp):
            raise CallbackDataError("op must be a ResultOp")


@dataclass(frozen=True, slots=True)
class SixCardPress:
    """An action in a six-card poker game, on the version the button was drawn for."""

    game_id: int
    version: int
    action: SixAction

    def __post_init__(self) -> None:
        _check_number("game_id", self.game_id)
        _check_number("version", self.version)
        try:
            canonical = parse_action(str(self.action))
        except SixCardError:
            canonical = None
        if canonical != self.action or (isinstance(self.action, Replace) and (
                type(self.action.index) is not int)):
            raise CallbackDataError(f"not a six-card action a button can carry: "
                                    f"{self.action!r}")


Payload = DuelPress | ChallengePress | SixCardPress | SettingsPress | ResultPress


def encode(payload: Payload) -> str:
    """The callback_data string for a payload (validated when the payload was built)."""
    if isinstance(payload, DuelPress):
        data = f"d:{payload.duel_id}:{payload.version}:{payload.action}"  # the rules' code
    elif isinstance(payload, ChallengePress):
        data = f"c:{payload.challenge_id}:{payload.version}:{payload.op.value}"
    elif isinstance(payload, SettingsPress):
        data = f"s:{payload.setting.value}"
        if payload.value is not None:
            value = payload.value
            data += f":{int(value)}" if isinstance(value, bool) else f":{value}"
    elif isinstance(payload, SixCardPress):
        data = f"x:{payload.game_id}:{payload.version}:{payload.action}"
    elif isinstance(payload, ResultPress):
        data = f"r:{payload.duel_id}:{payload.op.value}"
    else:
        raise TypeError(f"not a payload: {payload!r}")
    if len(data.encode("ascii")) > MAX_BYTES:  # cannot happen with the bounds above
        raise CallbackDataError(f"callback data over {MAX_BYTES} bytes")
    return data


def _number(text: str) -> int:
    if not _NUMBER.fullmatch(text):
        raise CallbackDataError("not a canonical number")
    value = int(text)
    if value > MAX_ID:
        raise CallbackDataError("number out of range")
    return value


def _decode_duel(fields: list[str]) -> Payload:
    if len(fields) != 3:
        raise CallbackDataError("a duel press has an id, a version and an action")
    duel_id, version, code = fields
    try:
        action = duel_actions.parse_action(code)  # the rules' own action codes
    except duel_actions.BadAction as e:
        raise CallbackDataError("unknown duel action") from e
    return DuelPress(_number(duel_id), _number(version), action)


def _decode_challenge(fields: list[str]) -> Payload:
    if len(fields) != 3:
        raise CallbackDataError("a challenge press has an id, a version and an operation")
    challenge_id, version, op = fields
    if op not in {o.value for o in ChallengeOp}:
        raise CallbackDataError("unknown challenge operation")
    return ChallengePress(_number(challenge_id), _number(version), ChallengeOp(op))


def _decode_settings(fields: list[str]) -> Payload:
    if fields == [Setting.CLOSE.value]:
        return SettingsPress(Setting.CLOSE)
    if len(fields) != 2 or fields[0] not in {s.value for s in Setting}:
        raise CallbackDataError("a settings press names a setting and a value")
    setting, text = Setting(fields[0]), fields[1]
    if setting is Setting.LANGUAGE:
        return SettingsPress(setting, text)
    if setting in (Setting.CARDS_OUT, Setting.REVEALS):
        if text not in ("0", "1"):
            raise CallbackDataError("an on/off setting is 1 or 0")
        return SettingsPress(setting, text == "1")
    return SettingsPress(setting, _number(text))


def _decode_result(fields: list[str]) -> Payload:
    if len(fields) != 2 or fields[1] not in {o.value for o in ResultOp}:
        raise CallbackDataError("a result press has a duel id and an operation")
    return ResultPress(_number(fields[0]), ResultOp(fields[1]))


def _decode_sixcard(fields: list[str]) -> Payload:
    if len(fields) != 3:
        raise CallbackDataError("a six-card press has an id, a version and an action")
    game_id, version, code = fields
    try:
        action = parse_action(code)
    except SixCardError as e:
        raise CallbackDataError("unknown six-card action") from e
    return SixCardPress(_number(game_id), _number(version), action)


_DECODERS: dict[str, Callable[[list[str]], Payload]] = {
    "d": _decode_duel,
    "c": _decode_challenge,
    "x": _decode_sixcard,
    "s": _decode_settings,
    "r": _decode_result,
}


def decode(data: object) -> Payload:
    """The payload a button carries; CallbackDataError for anything that is not one."""
    if not isinstance(data, str):
        raise CallbackDataError("callback data is not text")
    if len(data) > MAX_BYTES or not data.isascii():
        raise CallbackDataError("callback data is not ASCII of at most 64 bytes")
    prefix, *fields = data.split(":")
    decoder = _DECODERS.get(prefix)
    if decoder is None:
        raise CallbackDataError("unknown callback data prefix")
    return decoder(fields)
