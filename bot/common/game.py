"""What every game's press comes to, before anything is shown: a game's records and rules as
the shell loop needs them (`Game`), and `act`, which checks a press and applies it once.

    act      is the user a player? the same press again on the move it just made (answered
             quietly)? is it live? is the version the pressed one?
             -> apply (the rules decide) -> save by compare-and-swap (saved before shown)

No game here; `bot.common.live` runs it for every game.
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from bot.common.refusal import Refusal
from bot.services import Services
from bot.storage import ChatMessage, LiveGames, LiveRecord

log = logging.getLogger(__name__)


# A press repeating the move just made from it (a double tap): answered with no toast.
REPEATED = Refusal("repeated", quiet=True)


class Record(Protocol):
    """A game as stored: its version grows with every applied action, `shown_version` is
    what its message shows."""

    @property
    def id(self) -> int: ...
    @property
    def chat_id(self) -> int: ...
    @property
    def version(self) -> int: ...
    @property
    def status(self) -> str: ...  # "live", "finished" or "abandoned" (each game's StrEnum)
    @property
    def is_live(self) -> bool: ...
    @property
    def needs_redraw(self) -> bool: ...
    @property
    def updated_at(self) -> int: ...


R = TypeVar("R", bound=Record)
S = TypeVar("S")  # the rules' state of the game
A = TypeVar("A")  # an action of the rules
E = TypeVar("E")  # an event the rules report


@dataclass(frozen=True, slots=True)
class Applied(Generic[R, S, E]):
    record: R  # as saved
    state: S  # after the action
    events: tuple[E, ...]


class Game(ABC, Generic[R, S, A, E]):
    """A game's records and rules, as the loop needs them."""

    def __init__(self, kind: str, label: str, *, stale: Refusal, not_player: Refusal,
                 over: Refusal) -> None:
        self.kind = kind  # its records' lock is f"{kind}:{id}"
        self.label = label  # how log lines name one: "duel 7", "six-card game 3"
        self.stale = stale  # an older version's button, or not a move of this moment
        self.not_player = not_player
        self.over = over

    def finished(self, record: R) -> bool:
        """Over (played to its end or given up), rather than abandoned."""
        return record.status == "finished"

    def abandoned(self, record: R) -> bool:
        """Closed without counting (its chat went away): never shown again."""
        return record.status == "abandoned"

    def repeats(self, record: R, seat: int, version: int, action: A) -> bool:
        """Is a press of `action` by `seat` on `version` the very move that took the saved
        record from `version` to the next one (a double tap)? None are, unless the game can
        tell from its rules."""
        return False

    def carries_over(self, record: R, seat: int, version: int, action: A) -> bool:
        """May a press made on the older `version` still go through (a move that none of
        the moves since changed, such as two players answering one question at once)? The
        rules still check it. None may, unless the game can tell."""
        return False

    @abstractmethod
    async def load(self, svc: Services, record_id: int) -> R | None: ...

    @abstractmethod
    def seat(self, record: R, user_id: int) -> int | None:
        """The user's seat at the game, None for anyone else."""

    @abstractmethod
    def apply(self, svc: Services, record: R, seat: int, action: A) -> tuple[S, list[E]] | Refusal:
        """The state after `action` and what happened, or why the rules refuse it."""

    @abstractmethod
    async def save(self, svc: Services, record: R, state: S, events: Sequence[E],
                   now: int) -> R | None:
        """Save `state` (reached through `events`) if `record.version` is still the saved
        one: the record as saved, or None when a concurrent action won the race."""

    @abstractmethod
    def summary(self, state: S, events: Sequence[E]) -> str:
        """One line of what happened, with no card in it."""

    @abstractmethod
    async def lagging(self, svc: Services) -> Sequence[R]:
        """Every record whose message does not show its saved version."""

    @abstractmethod
    async def set_message(self, svc: Services, record: R, message_id: int,
                          version: int) -> bool:
        """Record that `message_id` (in the record's chat) shows `version` (False: the record
        moved on meanwhile)."""


L = TypeVar("L", bound=LiveRecord)


class StoredGame(Game[L, S, A, E]):
    """A game whose records are a `LiveGames` repository's: loading, lagging and the message
    bookkeeping are the repository's."""

    @abstractmethod
    def games(self, svc: Services) -> LiveGames[L, S]:
        """The game's records."""

    async def load(self, svc: Services, record_id: int) -> L | None:
        return await self.games(svc).get(record_id)

    async def lagging(self, svc: Services) -> Sequence[L]:
        return await self.games(svc).lagging()

    async def set_message(self, svc: Services, record: L, message_id: int,
                          version: int) -> bool:
        return await self.games(svc).set_message(
            record.id, ChatMessage(record.chat_id, message_id), version)


async def act(game: Game[R, S, A, E], svc: Services, record_id: int, version: int | None,
              user_id: int, action: A) -> Applied[R, S, E] | Refusal:
    """Apply `action` for `user_id` if `version` is still current (None: whatever is current,
    for commands such as /surrender). Saved before it returns."""
    return await act_on(game, svc, await game.load(svc, record_id), version, user_id, action)


async def act_on(game: Game[R, S, A, E], svc: Services, record: R | None, version: int | None,
                 user_id: int, action: A) -> Applied[R, S, E] | Refusal:
    """`act` on the record as just loaded (None: there is no such record)."""
    if record is None:
        return game.stale
    seat = game.seat(record, user_id)
    if seat is None:
        return game.not_player
    if version is not None and version != record.version and game.repeats(
            record, seat, version, action):
        return REPEATED  # the same tap again, on the move it has just made
    if not record.is_live:
        return game.over if game.finished(record) else game.stale
    if version is not None and version != record.version and not game.carries_over(
            record, seat, version, action):
        return game.stale
    moved = game.apply(svc, record, seat, action)
    if isinstance(moved, Refusal):
        return moved
    state, events = moved
    saved = await game.save(svc, record, state, events, svc.clock())
    if saved is None:
        return game.stale  # a concurrent tap or a replayed update won the race
    if log.isEnabledFor(logging.INFO):  # the summary is built only for a line written
        log.info("%s %d v%d: user %d (seat %d) %s -> %s", game.label, record.id,
                 saved.version, user_id, seat, action, game.summary(state, events))
    return Applied(saved, state, tuple(events))
