"""Six-card poker's buttons, as callback data: the kind writes and parses its own fields, framed
by `bot.telegram.callbacks` (the kinds: `PAYLOADS`):

    x:<game id>:<version>:<action>        an action by its rules code, on the version the
        button was drawn for: f fold, p play, b buy a sixth card, r0..r5 replace that card,
        g / n buy the dealer a game or not

Its `meaning` gives Play and Fold their colours (bot.telegram.styles); the rest are plain.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from bot.telegram.callbacks import CallbackDataError, Payload, check_number, number
from bot.telegram.styles import Meaning
from rules.sixcard import Fold, Play, Replace, SixAction, SixCardError, parse_action


@dataclass(frozen=True, slots=True)
class SixCardPress:
    """An action in a six-card poker game, on the version the button was drawn for."""

    PREFIX: ClassVar[str] = "x"

    game_id: int
    version: int
    action: SixAction

    def __post_init__(self) -> None:
        check_number("game_id", self.game_id)
        check_number("version", self.version)
        try:
            canonical = parse_action(str(self.action))
        except SixCardError:
            canonical = None
        if canonical != self.action or (isinstance(self.action, Replace) and (
                type(self.action.index) is not int)):
            raise CallbackDataError(f"not a six-card action a button can carry: "
                                    f"{self.action!r}")

    def fields(self) -> tuple[str, ...]:
        return str(self.game_id), str(self.version), str(self.action)

    @classmethod
    def parse(cls, fields: list[str]) -> SixCardPress:
        if len(fields) != 3:
            raise CallbackDataError("a six-card press has an id, a version and an action")
        game_id, version, code = fields
        try:
            action = parse_action(code)
        except SixCardError as e:
            raise CallbackDataError("unknown six-card action") from e
        return cls(number(game_id), number(version), action)

    @property
    def record_id(self) -> int:  # as bot.common.live.Live.handler reads a press
        return self.game_id

    @property
    def meaning(self) -> Meaning | None:
        if isinstance(self.action, Play):
            return Meaning.PROCEED
        return Meaning.FOLD if isinstance(self.action, Fold) else None


PAYLOADS: tuple[type[Payload], ...] = (SixCardPress,)
