"""The one shell loop with a made-up game in memory: what `act` checks before it applies, the
compare-and-swap, a press loaded once and vetted by the screen's messages, presenting through
a chat that is gone, and the resync's grace."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, cast

import pytest
from telegram import Bot, Chat, MaybeInaccessibleMessage, Message

from bot.common import live
from bot.common.refusal import Refusal
from bot.services import Services
from bot.storage.engines import ENGINES
from bot.telegram import send

STALE, NOT_PLAYER, OVER, ODD = (Refusal("t.stale"), Refusal("t.not_player"), Refusal("t.over"),
                                Refusal("t.odd"))


@dataclass(frozen=True)
class Rec:
    id: int
    chat_id: int
    version: int
    status: str
    shown_version: int | None
    updated_at: int
    player: int
    total: int

    @property
    def is_live(self) -> bool:
        return self.status == "live"

    @property
    def needs_redraw(self) -> bool:
        return self.shown_version != self.version


class Counter(live.Game[Rec, int, int, str]):
    """Adds the action to a total; an odd action is refused; 10 or more ends it."""

    def __init__(self) -> None:
        super().__init__("counter", "counter", stale=STALE, not_player=NOT_PLAYER, over=OVER)
        self.rows: dict[int, Rec] = {}
        self.race = False  # the next save loses its compare-and-swap
        self.loads = 0

    async def load(self, svc: Services, record_id: int) -> Rec | None:
        self.loads += 1
        return self.rows.get(record_id)

    def seat(self, record: Rec, user_id: int) -> int | None:
        return 0 if user_id == record.player else None

    def repeats(self, record: Rec, seat: int, version: int, action: int) -> bool:
        """The last action made the total: the version before it, with the same action."""
        return version + 1 == record.version and record.total == action

    def apply(self, svc: Services, record: Rec, seat: int,
              action: int) -> tuple[int, list[str]] | Refusal:
        return ODD if action % 2 else (record.total + action, [f"+{action}"])

    async def save(self, svc: Services, record: Rec, state: int, events: Sequence[str],
                   now: int) -> Rec | None:
        if self.race or self.rows[record.id].version != record.version:
            return None
        saved = replace(record, version=record.version + 1, total=state, updated_at=now,
                        status="finished" if state >= 10 else "live")
        self.rows[record.id] = saved
        return saved

    def summary(self, state: int, events: Sequence[str]) -> str:
        return f"total {state}"

    async def lagging(self, svc: Services) -> list[Rec]:
        return [r for r in self.rows.values() if r.needs_redraw]

    async def set_message(self, svc: Services, record: Rec, message_id: int,
                          version: int) -> bool:
        self.rows[record.id] = replace(self.rows[record.id], shown_version=version)
        return True


@dataclass
class Screen(live.Screen[Rec]):
    shown: list[tuple[int, int]] = field(default_factory=list)
    gone_ids: list[int] = field(default_factory=list)
    presented_ids: list[int] = field(default_factory=list)
    fail: type[Exception] | None = None
    live_message: int | None = None  # the message it keeps as live (None: it keeps none)
    retired: list[int | None] = field(default_factory=list)

    async def show(self, svc: Services, bot: Bot, record: Rec, note: str | None = None) -> None:
        if self.fail is send.ChatGone:
            raise send.ChatGone(record.chat_id)
        self.shown.append((record.id, record.version))

    async def gone(self, svc: Services, record: Rec) -> None:
        self.gone_ids.append(record.id)

    async def presented(self, svc: Services, record: Rec) -> None:
        self.presented_ids.append(record.id)

    async def pressed_on(self, svc: Services, bot: Bot, record: Rec,
                         message: MaybeInaccessibleMessage | None,
                         version: int) -> tuple[Rec, bool]:
        pressed = message.message_id if message is not None else None
        return record, self.live_message not in (None, pressed)

    async def retire(self, svc: Services, bot: Bot, record: Rec,
                     message: MaybeInaccessibleMessage | None, version: int) -> None:
        self.retired.append(message.message_id if message is not None else None)


class Query:
    """A press on message `message_id` (None: no message), and its answers."""

    def __init__(self, message_id: int | None) -> None:
        self.message = None if message_id is None else Message(
            message_id, datetime.now(UTC), Chat(-5, "group"))
        self.answers: list[str | None] = []

    async def answer(self, text: str | None = None) -> None:
        self.answers.append(text)


class Tr:
    def t(self, key: str, **kwargs: object) -> str:
        return key


@pytest.fixture
def loop() -> live.Live[Rec, int, int, str]:
    game = Counter()
    game.rows[1] = Rec(1, -5, 3, "live", 3, 100, player=7, total=0)
    return live.Live(game, Screen())


class _Engine:
    def __init__(self, engine: str) -> None:
        self.engine = engine
        self.can = ENGINES[engine].can


def svc(now: int = 100, engine: str = "sqlite") -> Services:
    """Services without a database (the game's repositories are the test's); `engine` says
    which one the bot would run on."""
    return Services(storage=cast(Any, _Engine(engine)), clock=lambda: now)


async def test_act_checks_the_record_the_player_the_state_and_the_version(
        loop: live.Live[Rec, int, int, str]) -> None:
    s = svc()
    assert await live.act(loop.game, s, 99, 3, 7, 2) == STALE  # no such record
    assert await live.act(loop.game, s, 1, 3, 8, 2) == NOT_PLAYER
    assert await live.act(loop.game, s, 1, 2, 7, 2) == STALE  # an older version's button
    assert await live.act(loop.game, s, 1, 3, 7, 1) == ODD  # the rules' own refusal
    applied = await live.act(loop.game, s, 1, 3, 7, 4)
    assert isinstance(applied, live.Applied) and applied.record.version == 4
    assert (applied.state, applied.events) == (4, ("+4",))
    assert await live.act(loop.game, s, 1, None, 7, 6) != STALE  # None: whatever is current
    assert await live.act(loop.game, s, 1, None, 7, 2) == OVER  # 10 reached: finished
    loop.game.rows[1] = replace(loop.game.rows[1], status="abandoned")
    assert await live.act(loop.game, s, 1, None, 7, 2) == STALE  # abandoned is not "over"


async def test_the_same_press_again_on_the_move_it_made_is_quiet(
        loop: live.Live[Rec, int, int, str]) -> None:
    s = svc()
    assert isinstance(await live.act(loop.game, s, 1, 3, 7, 4), live.Applied)  # v3 -> v4, total 4
    again = await live.act(loop.game, s, 1, 3, 7, 4)
    assert again == live.REPEATED and isinstance(again, Refusal) and again.quiet
    assert loop.game.rows[1].version == 4  # applied once
    assert await live.act(loop.game, s, 1, 3, 7, 2) == STALE  # another action on that version
    assert await live.act(loop.game, s, 1, 2, 7, 4) == STALE  # not the version right before
    assert await live.act(loop.game, s, 1, 3, 8, 4) == NOT_PLAYER  # someone else's is never quiet
    assert isinstance(await live.act(loop.game, s, 1, 4, 7, 6), live.Applied)  # total 10: finished
    assert await live.act(loop.game, s, 1, 4, 7, 6) != live.REPEATED  # total 10 is not the action 6
    assert not STALE.quiet


async def test_a_lost_compare_and_swap_is_stale(loop: live.Live[Rec, int, int, str]) -> None:
    game = cast(Counter, loop.game)
    game.race = True
    assert await live.act(loop.game, svc(), 1, 3, 7, 2) == STALE
    assert game.rows[1].version == 3 and game.rows[1].total == 0


async def _press(loop: live.Live[Rec, int, int, str], message_id: int | None, version: int,
                 user_id: int, action: int) -> list[str | None]:
    query = Query(message_id)
    await loop.press(svc(), cast(Bot, None), cast(Any, query), cast(Any, Tr()), user_id, 1,
                     version, action)
    return query.answers


async def test_a_press_loads_its_record_once_then_acts_and_shows(
        loop: live.Live[Rec, int, int, str]) -> None:
    game, screen = cast(Counter, loop.game), cast(Screen, loop.screen)
    assert await _press(loop, 40, 3, 7, 4) == [None]  # answered quietly, saved, shown
    assert game.loads == 1 and game.rows[1].total == 4 and screen.shown == [(1, 4)]
    assert await _press(loop, 40, 3, 7, 4) == [None]  # the same tap again: quiet
    assert await _press(loop, 40, 3, 7, 2) == ["t.stale"]  # an older version's button
    assert await _press(loop, 40, 4, 8, 2) == ["t.not_player"]
    assert game.loads == 4 and game.rows[1].version == 4 and screen.shown == [(1, 4)]


async def test_a_press_on_an_old_copy_moves_nothing_and_retires_it(
        loop: live.Live[Rec, int, int, str]) -> None:
    game, screen = cast(Counter, loop.game), cast(Screen, loop.screen)
    screen.live_message = 41
    assert await _press(loop, 40, 3, 7, 4) == ["t.stale"]  # a live record's old copy
    assert game.rows[1].version == 3 and screen.retired == [40] and screen.shown == []
    assert await _press(loop, 40, 3, 8, 4) == ["t.not_player"]  # not a player's: not retired
    assert screen.retired == [40]
    assert await _press(loop, 41, 3, 7, 4) == [None]  # the live message: acted on
    assert game.rows[1].version == 4 and screen.shown == [(1, 4)]
    assert await _press(loop, 40, 3, 7, 4) == [None]  # that move, tapped on the old copy
    assert screen.retired == [40] and game.rows[1].version == 4
    assert await _press(loop, 41, 4, 7, 6) == [None]  # total 10: finished
    assert await _press(loop, 40, 4, 7, 2) == ["t.over"]  # an old copy of a finished one
    assert screen.retired == [40] and game.loads == 6  # one load per press


async def test_present_hands_a_gone_chat_to_the_screen_then_follows(
        loop: live.Live[Rec, int, int, str]) -> None:
    screen = cast(Screen, loop.screen)
    screen.fail = send.ChatGone
    await loop.present(svc(), cast(Bot, None), loop.game.rows[1])
    assert (screen.shown, screen.gone_ids, screen.presented_ids) == ([], [1], [1])


async def test_resync_redraws_what_lags_after_its_grace(
        loop: live.Live[Rec, int, int, str]) -> None:
    screen = cast(Screen, loop.screen)
    game = cast(Counter, loop.game)
    game.rows[1] = replace(game.rows[1], version=5, updated_at=98)
    assert await loop.resync(svc(100), cast(Bot, None), grace=5) == 0  # saved 2 s ago
    assert await loop.resync(svc(103), cast(Bot, None), grace=5) == 1
    assert screen.shown == [(1, 5)]
    game.rows[1] = replace(game.rows[1], updated_at=200)  # (a clock that stepped back)
    assert await loop.resync(svc(100), cast(Bot, None)) == 1  # at start: whatever the grace
    # ... but beside other workers (PostgreSQL), a save this recent is theirs to show.
    game.rows[1] = replace(game.rows[1], version=6, updated_at=98)
    assert await loop.resync(svc(100, "postgresql"), cast(Bot, None)) == 0
    assert await loop.resync(svc(110, "postgresql"), cast(Bot, None)) == 1
