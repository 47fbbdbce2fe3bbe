"""The duel's life in storage: start it, apply a player's action once, finish it.

No Telegram here and no game rule: `rules.duel` decides, this module loads, checks who acts,
applies, deals when a deal is due, and saves by compare-and-swap (saved before anything is
shown). Presenting the outcome is `bot.present`'s job.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from enum import Enum

from bot.services import Services
from bot.sixcard import game as sixcard_game
from bot.storage import (
    ChallengeRecord,
    ChallengeStatus,
    DuelRecord,
    DuelResult,
    DuelStatus,
    ResultReason,
    Rollback,
)
from bot.storage.migrate import ChatMove, move_chat
from rules.cards import shuffled_deck
from rules.duel import (
    Action,
    DuelError,
    DuelFinished,
    DuelState,
    Event,
    HandsRevealed,
    IllegalBet,
    IllegalHand,
    NotYourTurn,
    choose_first_dealer,
)
from rules.fairness import new_salt

log = logging.getLogger(__name__)


class Refusal(Enum):
    """Why a tap changed nothing (each has a toast: bot.handlers.common)."""

    STALE = "stale"
    NOT_PLAYER = "not_player"
    NOT_YOUR_TURN = "not_your_turn"
    HAND_TAKEN = "hand_taken"
    BAD_BET = "bad_bet"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Applied:
    record: DuelRecord  # as saved
    after: DuelState
    events: tuple[Event, ...]


_REASONS = {
    "surrender": ResultReason.SURRENDER,
    "timeout": ResultReason.TIMEOUT,
    "tiebreak": ResultReason.TIEBREAK,
}


def _deal_if_due(svc: Services, state: DuelState) -> list[Event]:
    return state.deal(shuffled_deck(svc.rng), new_salt()) if state.needs_deal else []


async def start_duel(
    svc: Services, challenge: ChallengeRecord, acceptor_id: int
) -> DuelRecord | None:
    """Accept a pending challenge and create its duel in one transaction; None if the
    challenge was settled meanwhile (someone else accepted, it expired...) or either player
    got into another live duel in this chat (one live duel per player per chat)."""
    state = DuelState.new(challenge.stack, choose_first_dealer(svc.rng))
    _deal_if_due(svc, state)
    now = svc.clock()
    storage = svc.storage
    try:
        async with storage.db.transaction():
            for player in (challenge.challenger_id, acceptor_id):
                if await storage.duels.live_for_user_in_chat(challenge.chat_id, player):
                    raise Rollback
            record = await storage.duels.create(
                challenge.chat_id, challenge.thread_id, (challenge.challenger_id, acceptor_id),
                state.to_json(), now,
            )
            won = await storage.challenges.transition(
                challenge.id, challenge.version, ChallengeStatus.ACCEPTED, duel_id=record.id
            )
            if not won:
                raise Rollback
    except Rollback:
        return None
    log.info("duel %d started in chat %d: %d vs %d, stack %d, player %d deals",
             record.id, record.chat_id, *record.players, challenge.stack, state.dealer)
    return record


def _refusal(error: DuelError) -> Refusal:
    if isinstance(error, NotYourTurn):
        return Refusal.NOT_YOUR_TURN
    if isinstance(error, IllegalHand):
        return Refusal.HAND_TAKEN
    if isinstance(error, IllegalBet):
        return Refusal.BAD_BET
    if isinstance(error, DuelFinished):
        return Refusal.OVER
    return Refusal.STALE


async def act(
    svc: Services, duel_id: int, version: int | None, user_id: int, action: Action
) -> Applied | Refusal:
    """Apply `action` for `user_id` if `version` is still current (None: whatever is current,
    for commands such as /surrender). Saved before it returns."""
    record = await svc.storage.duels.get(duel_id)
    if record is None:
        return Refusal.STALE
    player = record.player_index(user_id)
    if player is None:
        return Refusal.NOT_PLAYER
    if not record.is_live:
        return Refusal.OVER if record.status is DuelStatus.FINISHED else Refusal.STALE
    if version is not None and version != record.version:
        return Refusal.STALE
    state = DuelState.from_json(record.state_json)
    try:
        events = state.apply(action, player)
    except DuelError as e:
        return _refusal(e)
    events += _deal_if_due(svc, state)
    now = svc.clock()
    status = DuelStatus.FINISHED if state.is_over else DuelStatus.LIVE
    result = duel_result(record, state, now) if state.is_over else None
    new_version = await svc.storage.duels.save(
        record.id, record.version, state.to_json(), status, now=now, result=result
    )
    if new_version is None:
        return Refusal.STALE  # a concurrent tap or a replayed update won the race
    saved = replace(record, state_json=state.to_json(), version=new_version, status=status,
                    updated_at=now)
    log.info("duel %d v%d: player %d (user %d) %s -> %s", record.id, new_version, player,
             user_id, action, _summary(state, events))
    return Applied(saved, state, tuple(events))


def _summary(state: DuelState, events: list[Event]) -> str:
    """One line of what happened, with no card in it."""
    parts = [f"round {state.round} bullet {state.bullet} {state.phase.value}",
             f"stacks {state.stacks[0]}/{state.stacks[1]}"]
    for e in events:
        if isinstance(e, HandsRevealed):
            r = e.result
            parts.append(f"bullet {r.number} {r.outcome.value} winner {r.winner} bonus {r.bonus}")
    if state.is_over:
        parts.append(f"over: winner {state.winner} ({state.end_reason})")
    return ", ".join(parts)


def duel_result(record: DuelRecord, state: DuelState, now: int) -> DuelResult:
    best: list[int | None] = [None, None]
    bonus = [0, 0]
    for r in state.results:
        for p in (0, 1):
            strength = r.values[p].strength
            current = best[p]
            best[p] = strength if current is None else max(current, strength)
        if r.winner is not None:
            bonus[r.winner] += r.bonus
    winner = None if state.winner is None else record.players[state.winner]
    return DuelResult(
        duel_id=record.id, chat_id=record.chat_id, players=record.players,
        final_stacks=(state.stacks[0], state.stacks[1]), start_stack=state.start_stack,
        winner_id=winner, reason=_REASONS.get(state.end_reason or "", ResultReason.NORMAL),
        best_hands=(best[0], best[1]), bonus_chips=(bonus[0], bonus[1]),
        bullets=len(state.results), finished_at=now,
    )


async def forget_chat(svc: Services, chat_id: int) -> None:
    """The bot left the chat (or was thrown out: Telegram said so, see
    `bot.telegram.send.ChatGone`, or a my_chat_member update did): its live duels, challenges
    and six-card games are closed without counting. Nothing short of that closes them: a
    refused send only waits."""
    now = svc.clock()
    await svc.storage.chats.mark_left(chat_id, now=now)
    duels = await svc.storage.duels.abandon_chat(chat_id, now=now)
    challenges = await svc.storage.challenges.expire_chat(chat_id)
    games = await sixcard_game.casino(svc).live_in_chat(chat_id)
    for game in games:  # six-card games too: their stakes go back to the balance
        await sixcard_game.abandon(svc, game)
    log.info("left chat %d: %d live duel(s) abandoned, %d challenge(s) closed, %d six-card "
             "game(s) refunded", chat_id, len(duels), challenges, len(games))


async def migrate_chat(svc: Services, old_id: int, new_id: int) -> ChatMove:
    """The group `old_id` became the supergroup `new_id`: every row of it moves there in one
    transaction (`bot.storage.migrate`), and the memory of both ids is dropped. Idempotent:
    Telegram's second signal finds nothing left to move. The live games it returns have no
    message any more; the caller (or the sync job) shows them in the new chat."""
    repo = sixcard_game.casino(svc)
    async with svc.storage.db.transaction():
        for game in await repo.live_in_chat(old_id):
            if await repo.live_game(new_id, game.user_id) is not None:
                await sixcard_game.abandon(svc, game)  # one live game per player per chat
        moved = await move_chat(svc.storage.db, old_id, new_id, now=svc.clock())
    svc.forget_chats(old_id, new_id)
    if moved.moved:
        log.info("chat %d became supergroup %d: %d row(s) moved, %d live duel(s) and %d "
                 "six-card game(s) to show again, %d challenge(s) expired, %d balance(s) "
                 "merged", old_id, new_id, moved.rows, len(moved.live_duels),
                 len(moved.live_games), moved.expired_challenges, moved.merged_balances)
    return moved
