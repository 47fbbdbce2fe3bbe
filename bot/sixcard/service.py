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
from bot.common.game import StoredGame
from bot.common.refusal import Refusal
from bot.services import Services
from bot.storage import GameStatus
from bot.storage.balances import Rebuy
from bot.storage.sixcard import STATES, Created, SixCardRecord, SixCardRepo
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

    record: SixCardRecord


@dataclass(frozen=True, slots=True)
class Unaffordable:
    need: int  # every box's ANTE and BET: what the balance must cover to start
    balance: int


class Contended(Enum):
    """The balance kept changing under us (another start racing this one): try again."""

    RETRY = "retry"


def games(svc: Services) -> SixCardRepo:
    return svc.storage.sixcard


async def start_game(
    svc: Services, chat_id: int, thread_id: int | None, user_id: int, antes: tuple[int, ...]
) -> SixCardRecord | Busy | Unaffordable | Contended:
    """Deal a new game and take its stake from the player's balance, in one transaction."""
    repo = games(svc)
    for _ in range(CREATE_TRIES):
        live = await repo.live_game(chat_id, user_id)
        if live is not None:
            return Busy(live)
        now = svc.clock()
        balance = await svc.storage.balances.balance(chat_id, user_id, now=now)
        try:
            game = SixCardGame.new(antes, balance.balance)
        except CannotAfford:
            return Unaffordable(SixCardGame.cover(antes), balance.balance)
        game.deal(shuffled_deck(svc.rng), new_salt())
        stake = game.start_balance - game.balance
        created = await repo.create(chat_id, thread_id, user_id, game.to_json(), stake=stake,
                                    balance_version=balance.version, now=now, state=game)
        if created is Created.BUSY:
            live = await repo.live_game(chat_id, user_id)
            if live is not None:
                return Busy(live)
            continue
        if isinstance(created, SixCardRecord):
            log.info("six-card game %d started in chat %d by user %d: antes %s, stake %d, "
                     "balance %d -> %d", created.id, chat_id, user_id, list(antes), stake,
                     game.start_balance, game.balance)
            return created
    return Contended.RETRY


class SixCardLoop(StoredGame[SixCardRecord, SixCardGame, SixAction, SixEvent]):
    """Six-card poker's games as the shell loop (`bot.common.live`) needs them."""

    def games(self, svc: Services) -> SixCardRepo:
        return games(svc)

    def seat(self, record: SixCardRecord, user_id: int) -> int | None:
        return 0 if record.user_id == user_id else None

    def repeats(self, record: SixCardRecord, seat: int, version: int,
                action: SixAction) -> bool:
        """The game's log says which action took it from `version` to the saved one (every
        save is one action: version n follows the n-th)."""
        if version < 0 or version + 1 != record.version:
            return False
        log = STATES.parsed(record.id, record.state_json).log
        actions = [entry for entry in log if not entry.startswith("deal ")]
        return len(actions) == record.version and actions[version] == str(action)

    def apply(self, svc: Services, record: SixCardRecord, seat: int,
              action: SixAction) -> tuple[SixCardGame, list[SixEvent]] | Refusal:
        game = games(svc).fresh(record)  # the shared one stays as it is
        try:
            return game, game.apply(action)
        except CannotAfford:
            return CANNOT_AFFORD
        except SixCardError:
            return STALE

    async def save(self, svc: Services, record: SixCardRecord, state: SixCardGame,
                   events: Sequence[SixEvent], now: int) -> SixCardRecord | None:
        """The chips the action moved reach the balance in the same transaction."""
        repo = games(svc)
        before = repo.state(record).balance
        net = state.money.net if state.is_over else None
        state_json = state.to_json()
        new_version = await repo.save_game(record, record.version, state_json,
                                           moved=state.balance - before, finished_net=net,
                                           now=now, state=state)  # shown next
        if new_version is None:
            return None
        status = GameStatus.FINISHED if state.is_over else GameStatus.LIVE
        return replace(record, state_json=state_json, version=new_version, status=status,
                       updated_at=now, net=net)

    def summary(self, state: SixCardGame, events: Sequence[SixEvent]) -> str:
        net = state.money.net if state.is_over else None
        return (f"{state.phase.value}, balance {state.balance}"
                + (f", over: net {net:+d}" if net is not None else ""))


GAME = SixCardLoop("sixcard", "six-card game", stale=STALE, not_player=NOT_PLAYER, over=OVER)
Applied = live.Applied  # what act() returns when the action is saved


async def act(
    svc: Services, game_id: int, version: int, user_id: int, action: SixAction
) -> live.Applied[SixCardRecord, SixCardGame, SixEvent] | Refusal:
    """Apply the player's `action` if the game is live and still at `version`. The chips it
    moves reach the balance in the same transaction as the save; saved before it returns."""
    return await live.act(GAME, svc, game_id, version, user_id, action)


async def rebuy(svc: Services, chat_id: int, user_id: int) -> Rebuy:
    outcome = await svc.storage.balances.rebuy(chat_id, user_id, now=svc.clock())
    if outcome.done:
        log.info("user %d rebought in chat %d (rebuy #%d)", user_id, chat_id,
                 outcome.balance.rebuys)
    return outcome


async def abandon(svc: Services, record: SixCardRecord) -> None:
    """The chat went away: close the live game without counting it and put back on the
    balance everything it took (stakes and fees)."""
    game = games(svc).state(record)
    refund = game.start_balance - game.balance
    if await games(svc).abandon_game(record, refund=refund, now=svc.clock()):
        log.info("six-card game %d abandoned (chat %d gone): %d chips back to user %d",
                 record.id, record.chat_id, refund, record.user_id)


# --- a chat's end (bot.common.chats asks every game) -------------------------------------


async def forget_chat(svc: Services, chat_id: int) -> str:
    """The bot left the chat: its live games are closed, their stakes back on the balance."""
    live = await games(svc).live_in_chat(chat_id)
    for game in live:
        await abandon(svc, game)
    return f"{len(live)} six-card game(s) refunded"


async def make_room(svc: Services, old_id: int, new_id: int) -> None:
    """Before the group's rows move to the supergroup: one live game per player per chat, so
    a player's game in the group is closed (refunded) when they have one there already."""
    repo = games(svc)
    for game in await repo.live_in_chat(old_id):
        if await repo.live_game(new_id, game.user_id) is not None:
            await abandon(svc, game)
