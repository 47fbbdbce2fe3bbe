"""A six-card game's life in storage: start it (its stake off the balance), apply the player's
action once, rebuy.

No Telegram here and no game rule: `rules.sixcard` decides and moves the chips against the
balance the game carries; this module loads, checks who acts, applies, and saves by
compare-and-swap with the chips the action moved written to the balance in the same
transaction (saved before anything is shown). Showing it is `bot.sixcard.present`'s job;
both run in the shell loop (`bot.common.live`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum

from bot.common import live
from bot.common.live import Game
from bot.common.refusal import Refusal
from bot.services import Services
from bot.storage.casino import CasinoRepo, Created, GameRecord, GameStatus, Rebuy
from rules.cards import shuffled_deck
from rules.fairness import new_salt
from rules.sixcard import CannotAfford, SixAction, SixCardError, SixCardGame, SixEvent

log = logging.getLogger(__name__)

CREATE_TRIES = 3

# Why a tap changed nothing, each with its toast.
STALE = Refusal("sixcard.toast_stale")  # an older version's button, or not a move of now
NOT_PLAYER = Refusal("sixcard.toast_not_yours")
OVER = Refusal("sixcard.toast_over")
CANNOT_AFFORD = Refusal("sixcard.toast_cannot_afford")


@dataclass(frozen=True, slots=True)
class Busy:
    """The player has a live game in this chat already."""

    record: GameRecord


@dataclass(frozen=True, slots=True)
class Unaffordable:
    need: int  # every box's ANTE and BET: what the balance must cover to start
    balance: int


class Contended(Enum):
    """The balance kept changing under us (another start racing this one): try again."""

    RETRY = "retry"


def casino(svc: Services) -> CasinoRepo:
    return svc.storage.casino


async def start_game(
    svc: Services, chat_id: int, thread_id: int | None, user_id: int, antes: tuple[int, ...]
) -> GameRecord | Busy | Unaffordable | Contended:
    """Deal a new game and take its stake from the player's balance, in one transaction."""
    repo = casino(svc)
    for _ in range(CREATE_TRIES):
        live = await repo.live_game(chat_id, user_id)
        if live is not None:
            return Busy(live)
        now = svc.clock()
        balance = await repo.balance(chat_id, user_id, now=now)
        try:
            game = SixCardGame.new(antes, balance.balance)
        except CannotAfford:
            return Unaffordable(SixCardGame.cover(antes), balance.balance)
        game.deal(shuffled_deck(svc.rng), new_salt())
        stake = game.start_balance - game.balance
        created = await repo.create_game(chat_id, thread_id, user_id, game.to_json(),
                                         stake=stake, balance_version=balance.version, now=now)
        if created is Created.BUSY:
            live = await repo.live_game(chat_id, user_id)
            if live is not None:
                return Busy(live)
            continue
        if isinstance(created, GameRecord):
            log.info("six-card game %d started in chat %d by user %d: antes %s, stake %d, "
                     "balance %d -> %d", created.id, chat_id, user_id, list(antes), stake,
                     game.start_balance, game.balance)
            return created
    return Contended.RETRY


class SixCardLoop(Game[GameRecord, SixCardGame, SixAction, SixEvent]):
    """Six-card poker's games as the shell loop (`bot.common.live`) needs them."""

    async def load(self, svc: Services, record_id: int) -> GameRecord | None:
        return await casino(svc).get_game(record_id)

    def seat(self, record: GameRecord, user_id: int) -> int | None:
        return 0 if record.user_id == user_id else None

    def repeats(self, record: GameRecord, seat: int, version: int, action: SixAction) -> bool:
        """The game's log says which action took it from `version` to the saved one (every
        save is one action: version n follows the n-th)."""
        if version < 0 or version + 1 != record.version:
            return False
        log = SixCardGame.from_json(record.state_json).log
        actions = [entry for entry in log if not entry.startswith("deal ")]
        return len(actions) == record.version and actions[version] == str(action)

    def apply(self, svc: Services, record: GameRecord, seat: int,
              action: SixAction) -> tuple[SixCardGame, list[SixEvent]] | Refusal:
        game = SixCardGame.from_json(record.state_json)
        try:
            return game, game.apply(action)
        except CannotAfford:
            return CANNOT_AFFORD
        except SixCardError:
            return STALE

    async def save(self, svc: Services, record: GameRecord, state: SixCardGame,
                   events: Sequence[SixEvent], now: int) -> GameRecord | None:
        """The chips the action moved reach the balance in the same transaction."""
        before = SixCardGame.from_json(record.state_json).balance
        net = state.money.net if state.is_over else None
        state_json = state.to_json()
        new_version = await casino(svc).save_game(record, record.version, state_json,
                                                  moved=state.balance - before,
                                                  finished_net=net, now=now)
        if new_version is None:
            return None
        status = GameStatus.FINISHED if state.is_over else GameStatus.LIVE
        return replace(record, state_json=state_json, version=new_version, status=status,
                       updated_at=now, net=net)

    def summary(self, state: SixCardGame, events: Sequence[SixEvent]) -> str:
        net = state.money.net if state.is_over else None
        return (f"{state.phase.value}, balance {state.balance}"
                + (f", over: net {net:+d}" if net is not None else ""))

    async def lagging(self, svc: Services) -> list[GameRecord]:
        return await casino(svc).lagging()

    async def set_message(self, svc: Services, record_id: int, message_id: int,
                          version: int) -> bool:
        return await casino(svc).set_message(record_id, message_id, version)


GAME = SixCardLoop("sixcard", "six-card game", stale=STALE, not_player=NOT_PLAYER, over=OVER)
Applied = live.Applied  # what act() returns when the action is saved


async def act(
    svc: Services, game_id: int, version: int, user_id: int, action: SixAction
) -> live.Applied[GameRecord, SixCardGame, SixEvent] | Refusal:
    """Apply the player's `action` if the game is live and still at `version`. The chips it
    moves reach the balance in the same transaction as the save; saved before it returns."""
    return await live.act(GAME, svc, game_id, version, user_id, action)


async def rebuy(svc: Services, chat_id: int, user_id: int) -> Rebuy:
    outcome = await casino(svc).rebuy(chat_id, user_id, now=svc.clock())
    if outcome.done:
        log.info("user %d rebought in chat %d (rebuy #%d)", user_id, chat_id,
                 outcome.balance.rebuys)
    return outcome


async def abandon(svc: Services, record: GameRecord) -> None:
    """The chat went away: close the live game without counting it and put back on the
    balance everything it took (stakes and fees)."""
    game = SixCardGame.from_json(record.state_json)
    refund = game.start_balance - game.balance
    if await casino(svc).abandon_game(record, refund=refund, now=svc.clock()):
        log.info("six-card game %d abandoned (chat %d gone): %d chips back to user %d",
                 record.id, record.chat_id, refund, record.user_id)


# --- a chat's end (bot.common.chats asks every game) -------------------------------------


async def forget_chat(svc: Services, chat_id: int) -> str:
    """The bot left the chat: its live games are closed, their stakes back on the balance."""
    games = await casino(svc).live_in_chat(chat_id)
    for game in games:
        await abandon(svc, game)
    return f"{len(games)} six-card game(s) refunded"


async def make_room(svc: Services, old_id: int, new_id: int) -> None:
    """Before the group's rows move to the supergroup: one live game per player per chat, so
    a player's game in the group is closed (refunded) when they have one there already."""
    repo = casino(svc)
    for game in await repo.live_in_chat(old_id):
        if await repo.live_game(new_id, game.user_id) is not None:
            await abandon(svc, game)
