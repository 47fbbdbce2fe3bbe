"""The duel's buttons, as callback data: each kind writes and parses its own fields, framed by
`bot.telegram.callbacks` (the kinds: `PAYLOADS`):

    d:<duel id>:<version>:<action>        a duel action, on the version the button was drawn for
        action: b<hand 0-5><chips 1|2>    bet on a hand (1 = pass, 2 = play)
                ty / tn                   tiebreak: yes / no
                sr                        surrender
    c:<challenge id>:<version>:a|d|w      accept, decline, withdraw a challenge
    i:<challenger>:<stack>:<minute>:a|d|w a challenge posted through inline mode in any chat
                                          (made at that unix minute): accept, decline, withdraw
    r:<duel id>:m|s|v                     a finished duel's result: rematch, standings, review
    p:<user id>:e|n|h:<stack>             a practice duel against the bot: its level
    o:<duel id>                           a practice duel's odds
    h:<duel id>                           a practice duel's hint (the best moves now)

Each payload is checked when it is built, so an encoded payload is one the bot itself makes.
Each says what its button means (`meaning`), whose colour `bot.telegram.styles` gives.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from bot.telegram.callbacks import CallbackDataError, Payload, check_number, number
from bot.telegram.styles import Meaning
from rules.duel import HANDS, Bet, Surrender, TiebreakAnswer
from rules.duel import actions as duel_actions

DuelAction = Bet | TiebreakAnswer | Surrender


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


class ResultOp(StrEnum):
    REMATCH = "m"
    STANDINGS = "s"
    REVIEW = "v"


# What each button means, for its colour (bot.telegram.styles); a bet has none: every hand
# offered is an equal choice, and colouring one would be advice.
_CHALLENGE_MEANINGS = {ChallengeOp.ACCEPT: Meaning.ACCEPT, ChallengeOp.DECLINE: Meaning.DECLINE,
                      ChallengeOp.WITHDRAW: Meaning.WITHDRAW}
_RESULT_MEANINGS = {ResultOp.REMATCH: Meaning.AGAIN}


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
    PREFIX: ClassVar[str] = "d"

    duel_id: int
    version: int
    action: DuelAction

    def __post_init__(self) -> None:
        check_number("duel_id", self.duel_id)
        check_number("version", self.version)
        _check_action(self.action)

    def fields(self) -> tuple[str, ...]:
        return str(self.duel_id), str(self.version), str(self.action)

    @classmethod
    def parse(cls, fields: list[str]) -> DuelPress:
        if len(fields) != 3:
            raise CallbackDataError("a duel press has an id, a version and an action")
        duel_id, version, code = fields
        try:
            action = duel_actions.parse_action(code)  # the rules' own action codes
        except duel_actions.BadAction as e:
            raise CallbackDataError("unknown duel action") from e
        return cls(number(duel_id), number(version), action)

    @property
    def record_id(self) -> int:  # as bot.common.live.Live.handler reads a press
        return self.duel_id

    @property
    def meaning(self) -> Meaning | None:
        action = self.action
        if isinstance(action, TiebreakAnswer):
            return Meaning.ACCEPT if action.accept else Meaning.DECLINE
        return Meaning.SURRENDER if isinstance(action, Surrender) else None


@dataclass(frozen=True, slots=True)
class ChallengePress:
    PREFIX: ClassVar[str] = "c"

    challenge_id: int
    version: int
    op: ChallengeOp

    def __post_init__(self) -> None:
        check_number("challenge_id", self.challenge_id)
        check_number("version", self.version)
        if not isinstance(self.op, ChallengeOp):
            raise CallbackDataError("op must be a ChallengeOp")

    def fields(self) -> tuple[str, ...]:
        return str(self.challenge_id), str(self.version), self.op.value

    @classmethod
    def parse(cls, fields: list[str]) -> ChallengePress:
        if len(fields) != 3 or fields[2] not in {o.value for o in ChallengeOp}:
            raise CallbackDataError("a challenge press has an id, a version and an operation")
        return cls(number(fields[0]), number(fields[1]), ChallengeOp(fields[2]))

    @property
    def meaning(self) -> Meaning | None:
        return _CHALLENGE_MEANINGS.get(self.op)


@dataclass(frozen=True, slots=True)
class ResultPress:
    """A button of a finished duel's result."""

    PREFIX: ClassVar[str] = "r"

    duel_id: int
    op: ResultOp

    def __post_init__(self) -> None:
        check_number("duel_id", self.duel_id)
        if not isinstance(self.op, ResultOp):
            raise CallbackDataError("op must be a ResultOp")

    def fields(self) -> tuple[str, ...]:
        return str(self.duel_id), self.op.value

    @classmethod
    def parse(cls, fields: list[str]) -> ResultPress:
        if len(fields) != 2 or fields[1] not in {o.value for o in ResultOp}:
            raise CallbackDataError("a result press has a duel id and an operation")
        return cls(number(fields[0]), ResultOp(fields[1]))

    @property
    def meaning(self) -> Meaning | None:
        return _RESULT_MEANINGS.get(self.op)


@dataclass(frozen=True, slots=True)
class InlineChallengePress:
    """A button of a challenge posted through inline mode: the message is all there is of it
    until a press writes it down (bot.storage.inline), so the button carries what it is."""

    PREFIX: ClassVar[str] = "i"

    challenger_id: int
    stack: int
    minute: int  # unix minutes when it was offered
    op: ChallengeOp

    def __post_init__(self) -> None:
        for name in ("challenger_id", "stack", "minute"):
            check_number(name, getattr(self, name))
        if not isinstance(self.op, ChallengeOp):
            raise CallbackDataError("op must be a ChallengeOp")

    def fields(self) -> tuple[str, ...]:
        return str(self.challenger_id), str(self.stack), str(self.minute), self.op.value

    @classmethod
    def parse(cls, fields: list[str]) -> InlineChallengePress:
        if len(fields) != 4 or fields[3] not in {o.value for o in ChallengeOp}:
            raise CallbackDataError("an inline challenge's press has its challenger, stack,"
                                    " minute and an operation")
        return cls(number(fields[0]), number(fields[1]), number(fields[2]),
                   ChallengeOp(fields[3]))

    @property
    def meaning(self) -> Meaning | None:
        return _CHALLENGE_MEANINGS.get(self.op)


@dataclass(frozen=True, slots=True)
class PracticePress:
    """A level for a practice duel against the bot, pressed by the user who asked for it."""

    PREFIX: ClassVar[str] = "p"

    user_id: int
    level: AiLevel
    stack: int

    def __post_init__(self) -> None:
        check_number("user_id", self.user_id)
        check_number("stack", self.stack)
        if not isinstance(self.level, AiLevel):
            raise CallbackDataError("level must be an AiLevel")

    def fields(self) -> tuple[str, ...]:
        return str(self.user_id), self.level.value, str(self.stack)

    @classmethod
    def parse(cls, fields: list[str]) -> PracticePress:
        if len(fields) != 3 or fields[1] not in {lv.value for lv in AiLevel}:
            raise CallbackDataError("a practice press has a user id, a level and a stack")
        return cls(number(fields[0]), AiLevel(fields[1]), number(fields[2]))

    @property
    def meaning(self) -> Meaning | None:  # three levels, equal choices
        return None


@dataclass(frozen=True, slots=True)
class OddsPress:
    """Show the odds of a practice duel's table now."""

    PREFIX: ClassVar[str] = "o"

    duel_id: int

    def __post_init__(self) -> None:
        check_number("duel_id", self.duel_id)

    def fields(self) -> tuple[str, ...]:
        return (str(self.duel_id),)

    @classmethod
    def parse(cls, fields: list[str]) -> OddsPress:
        if len(fields) != 1:
            raise CallbackDataError("an odds press has a duel id")
        return cls(number(fields[0]))

    @property
    def meaning(self) -> Meaning | None:
        return None


@dataclass(frozen=True, slots=True)
class HintPress:
    """Show the best moves for the player to act in a practice duel now."""

    PREFIX: ClassVar[str] = "h"

    duel_id: int

    def __post_init__(self) -> None:
        check_number("duel_id", self.duel_id)

    def fields(self) -> tuple[str, ...]:
        return (str(self.duel_id),)

    @classmethod
    def parse(cls, fields: list[str]) -> HintPress:
        if len(fields) != 1:
            raise CallbackDataError("a hint press has a duel id")
        return cls(number(fields[0]))

    @property
    def meaning(self) -> Meaning | None:
        return None


# The duel's kinds of payload, each under a prefix of its own.
PAYLOADS: tuple[type[Payload], ...] = (
    DuelPress, ChallengePress, InlineChallengePress, ResultPress, PracticePress, OddsPress,
    HintPress)
