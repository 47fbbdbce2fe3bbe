"""A six-card game's life in storage: start it (its stake off the balance), apply the player's
action once, rebuy.

No Telegram here and no game rule: `rules.sixcard` decides and moves the chips against the
balance the game carries; this module loads, checks who acts, applies, and saves by
compare-and-swap with the chips the action moved written to the balance in the same
transaction (saved before anything is shown). Showing it is `bot.sixcard.present`'s job.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from enum import Enum

from bot.services import Services
from bot.storage.casino import CasinoRepo, Created, GameRecord, GameStatus, Rebuy
from rules.cards import shuffled_deck
from rules.fairness import new_salt
from rules.sixcard import CannotAfford, SixAction, SixCardError, SixCardGame, SixEvent

log = logging.getLogger(__name__)

CREATE_TRIES = 3


class Refusal(Enum):
    """Why a tap changed nothing (each has a toast: bot.handlers.sixcard)."""

    STALE = "stale"  # an older version's button, or not a move of this moment
    NOT_PLAYER = "not_player"
    OVER = "over"
    CANNOT_AFFORD = "cannot_afford"


@dataclass(frozen=True, slots=True)
class Applied:
    record: GameRecord  # as saved
    game: SixCardGame
    events: tuple[SixEvent, ...]


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
    return CasinoRepo(svc.storage.db)


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


async def act(
    svc: Services, game_id: int, version: int, user_id: int, action: SixAction
) -> Applied | Refusal:
    """Apply the player's `action` if the game is live and still at `version`. The chips it
    moves reach the balance in the same transaction as the save; saved before it returns."""
    repo = casino(svc)
    record = await repo.get_game(game_id)
    if record is None:
        return Refusal.STALE
    if record.user_id != user_id:
        return Refusal.NOT_PLAYER
    if not record.is_live:
        return Refusal.OVER if record.status is GameStatus.FINISHED else Refusal.STALE
    if version != record.version:
        return Refusal.STALE
    game = SixCardGame.from_json(record.state_json)
    before = game.balance
    try:
        events = game.apply(action)
    except CannotAfford:
        return Refusal.CANNOT_AFFORD
    except SixCardError:
        return Refusal.STALE
    now = svc.clock()
    net = game.money.net if game.is_over else None
    state_json = game.to_json()
    new_version = await repo.save_game(record, record.version, state_json,
                                       moved=game.balance - before, finished_net=net, now=now)
    if new_version is None:
        return Refusal.STALE  # a concurrent tap or a replayed update won the race
    status = GameStatus.FINISHED if game.is_over else GameStatus.LIVE
    saved = replace(record, state_json=state_json, version=new_version, status=status,
                    updated_at=now, net=net)
    log.info("six-card game %d v%d: user %d %s -> %s, balance %d%s", game_id, new_version,
             user_id, action, game.phase.value, game.balance,
             f", over: net {net:+d}" if net is not None else "")
    return Applied(saved, game, tuple(events))


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
