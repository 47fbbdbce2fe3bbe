"""What an inline button can carry: the payloads of `bot.telegram.callbacks` (the codec), each
checked when it is built, so an encoded payload is always one the bot itself would make."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from bot.i18n import LANGUAGES
from rules.duel import Bet, Surrender, TiebreakAnswer
from rules.sixcard import Replace, SixAction, SixCardError, parse_action

MAX_BYTES = 64  # Telegram's limit for callback_data
MAX_ID = 2**63 - 1  # SQLite INTEGER
HANDS = 6

DuelAction = Bet | TiebreakAnswer | Surrender

NUMBER = re.compile(r"0|[1-9][0-9]{0,18}")


class CallbackDataError(ValueError):
    """Callback data that is not a payload this bot makes."""


class Setting(StrEnum):
    LANGUAGE = "l"
    TIMER = "t"
    STACK = "k"
    CARDS_OUT = "c"
    REVEALS = "v"  # keep every bullet's reveal as its own message
    SEASON = "n"  # the standings' season: none, month, quarter
    SEASON_RESET = "r"  # a season's ratings start afresh (True) or carry on (False)
    CLOSE = "x"


LANGUAGE_CHOICES = ("auto", *LANGUAGES)  # auto: each user's own language
SEASON_CHOICES = ("none", "month", "quarter")  # bot.stats.seasons.KINDS


class ChallengeOp(StrEnum):
    ACCEPT = "a"
    DECLINE = "d"
    WITHDRAW = "w"


class AiLevel(StrEnum):
    """The bot's levels in a practice duel (`rules.duel.ai`), by their one-letter codes."""

    EASY = "e"
    NORMAL = "n"
    HARD = "h"

    @property
    def level(self) -> str:
        return self.name.lower()


class BoardScope(StrEnum):
    """Which results a chat's standings board counts (bot.stats.seasons)."""

    SEASON = "n"  # the current season
    LAST = "l"  # the season before it
    ALL = "a"  # all time


class TournamentOp(StrEnum):
    JOIN = "j"
    LEAVE = "l"
    START = "s"
    CANCEL = "x"
    MATCH = "m"  # play the pairing `match` of the schedule


class ResultOp(StrEnum):
    REMATCH = "m"
    STANDINGS = "s"
    REVIEW = "v"


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
        elif self.setting is Setting.SEASON:
            ok = isinstance(value, str) and value in SEASON_CHOICES
        elif self.setting in (Setting.TIMER, Setting.STACK):
            ok = isinstance(value, int) and not isinstance(value, bool) and (
                0 <= value <= MAX_ID)
        elif self.setting in (Setting.CARDS_OUT, Setting.REVEALS, Setting.SEASON_RESET):
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
class BoardPress:
    """Show the standings of the pressed message's chat for a scope, to whoever pressed."""

    scope: BoardScope

    def __post_init__(self) -> None:
        if not isinstance(self.scope, BoardScope):
            raise CallbackDataError("scope must be a BoardScope")


@dataclass(frozen=True, slots=True)
class PracticePress:
    """A level for a practice duel against the bot, pressed by the user who asked for it."""

    user_id: int
    level: AiLevel
    stack: int

    def __post_init__(self) -> None:
        _check_number("user_id", self.user_id)
        _check_number("stack", self.stack)
        if not isinstance(self.level, AiLevel):
            raise CallbackDataError("level must be an AiLevel")


@dataclass(frozen=True, slots=True)
class OddsPress:
    """Show the odds of a practice duel's table now."""

    duel_id: int

    def __post_init__(self) -> None:
        _check_number("duel_id", self.duel_id)


@dataclass(frozen=True, slots=True)
class HintPress:
    """Show the best moves for the player to act in a practice duel now."""

    duel_id: int

    def __post_init__(self) -> None:
        _check_number("duel_id", self.duel_id)


@dataclass(frozen=True, slots=True)
class TournamentPress:
    """A tournament's sign-up button, or a scheduled pairing's "play" (with its index)."""

    tournament_id: int
    op: TournamentOp
    match: int | None = None

    def __post_init__(self) -> None:
        _check_number("tournament_id", self.tournament_id)
        if not isinstance(self.op, TournamentOp):
            raise CallbackDataError("op must be a TournamentOp")
        if self.op is TournamentOp.MATCH:
            if self.match is None:
                raise CallbackDataError("a match press names the pairing")
            _check_number("match", self.match)
        elif self.match is not None:
            raise CallbackDataError("only a match press names a pairing")


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


Payload = (DuelPress | ChallengePress | SixCardPress | SettingsPress | ResultPress
           | PracticePress | OddsPress | HintPress | BoardPress | TournamentPress)
