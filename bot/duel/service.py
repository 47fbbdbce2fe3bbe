"""The duel's life in storage: start it, apply a player's action once, finish it.

No Telegram here and no game rule: `rules.duel` decides, this module loads, checks who acts,
applies, deals when a deal is due, and saves by compare-and-swap (saved before anything is
shown). Presenting the outcome is `bot.duel.present`'s job; both run in the shell loop
(`bot.common.live`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace

from bot.common import live
from bot.common.game import StoredGame
from bot.common.refusal import Refusal
from bot.services import Services
from bot.storage import (
    ChallengeRecord,
    ChallengeStatus,
    Deal,
    DuelRecord,
    DuelRepo,
    DuelResult,
    DuelStatus,
    ResultReason,
    Rollback,
    UniqueViolation,
    chat_lock,
    deals_of,
)
from bot.storage.duels import STATES
from bot.storage.inline import InlineChallenge, InlineRepo
from rules.cards import shuffled_deck
from rules.duel import (
    Action,
    AlreadyAnswered,
    Dealt,
    DuelError,
    DuelFinished,
    DuelState,
    Event,
    HandsRevealed,
    IllegalBet,
    IllegalHand,
    NotYourTurn,
    Phase,
    RoundOver,
    TiebreakAnswer,
    choose_first_dealer,
)
from rules.fairness import new_salt

log = logging.getLogger(__name__)


# Why a tap changed nothing, each with its toast.
STALE = Refusal("error.stale_button")
NOT_PLAYER = Refusal("error.not_a_player")
NOT_YOUR_TURN = Refusal("error.not_your_turn")
HAND_TAKEN = Refusal("toast.hand_taken")
BAD_BET = Refusal("toast.bad_bet")
OVER = Refusal("toast.over")
ANSWERED = Refusal("toast.tiebreak_answered")

_REASONS = {
    "surrender": ResultReason.SURRENDER,
    "timeout": ResultReason.TIMEOUT,
    "tiebreak": ResultReason.TIEBREAK,
}


def _deal_if_due(svc: Services, state: DuelState) -> list[Event]:
    return state.deal(shuffled_deck(svc.rng), new_salt()) if state.needs_deal else []


def _refusal(error: DuelError) -> Refusal:
    if isinstance(error, NotYourTurn):
        return ANSWERED if isinstance(error, AlreadyAnswered) else NOT_YOUR_TURN
    if isinstance(error, IllegalHand):
        return HAND_TAKEN
    if isinstance(error, IllegalBet):
        return BAD_BET
    if isinstance(error, DuelFinished):
        return OVER
    return STALE


class DuelLoop(StoredGame[DuelRecord, DuelState, Action, Event]):
    """The duel's records as the shell loop (`bot.common.live`) needs them."""

    def games(self, svc: Services) -> DuelRepo:
        return svc.storage.duels

    def seat(self, record: DuelRecord, user_id: int) -> int | None:
        return record.player_index(user_id)

    def repeats(self, record: DuelRecord, seat: int, version: int, action: Action) -> bool:
        """The rules say which move took the duel from `version` to the saved one."""
        if version + 1 != record.version or version < 0:
            return False
        state = STATES.parsed(record.id, record.state_json)
        if version + 1 != state.version:  # the row moved without a move (abandoned)
            return False
        return state.move_at(version) == (seat, action)

    def carries_over(self, record: DuelRecord, seat: int, version: int,
                     action: Action) -> bool:
        """A tiebreak answer pressed on the offer as it was before the other player's answer
        (both tapped at once) still counts: the question has not changed."""
        if not isinstance(action, TiebreakAnswer) or not 0 <= version < record.version:
            return False
        state = STATES.parsed(record.id, record.state_json)
        if state.version != record.version or state.phase is not Phase.TIEBREAK_OFFER:
            return False
        offered = state.at(version)
        return offered.phase is Phase.TIEBREAK_OFFER and offered.round == state.round

    def apply(self, svc: Services, record: DuelRecord, seat: int,
              action: Action) -> tuple[DuelState, list[Event]] | Refusal:
        state = svc.storage.duels.fresh(record)  # the shared one stays as it is
        try:
            events = state.apply(action, seat)
        except DuelError as e:
            return _refusal(e)
        return state, events + _deal_if_due(svc, state)

    async def save(self, svc: Services, record: DuelRecord, state: DuelState,
                   events: Sequence[Event], now: int) -> DuelRecord | None:
        """The result is recorded with the save that ends the duel, the deals with the save
        that deals one or ends one (its salt): the others write the duel's row alone."""
        status = DuelStatus.FINISHED if state.is_over else DuelStatus.LIVE
        # A practice duel against the bot writes no result: the standings are people's.
        result = duel_result(record, state, now) if state.is_over and not record.practice \
            else None
        state_json = state.to_json()
        new_version = await svc.storage.duels.save(record.id, record.version, state_json,
                                                   status, now=now, result=result,
                                                   deals=_deals_moved(state, events),
                                                   practice_over=state.is_over
                                                   and record.practice,
                                                   state=state)  # shown and timed next
        if new_version is None:
            return None
        return replace(record, state_json=state_json, version=new_version, status=status,
                       updated_at=now)

    def summary(self, state: DuelState, events: Sequence[Event]) -> str:
        parts = [f"round {state.round} bullet {state.bullet} {state.phase.value}",
                 f"stacks {state.stacks[0]}/{state.stacks[1]}"]
        for e in events:
            if isinstance(e, HandsRevealed):
                r = e.result
                parts.append(f"bullet {r.number} {r.outcome.value} winner {r.winner} "
                             f"bonus {r.bonus}")
        if state.is_over:
            parts.append(f"over: winner {state.winner} ({state.end_reason})")
        return ", ".join(parts)


def _deals_moved(state: DuelState, events: Sequence[Event]) -> tuple[Deal, ...]:
    """The deals to write with a save: all the view shows when one was dealt or closed (the
    repository keeps a stored deal's row and adds its salt), else none."""
    if any(isinstance(e, Dealt | RoundOver) for e in events):
        return deals_of(state.public_view())
    return ()


GAME = DuelLoop("duel", "duel", stale=STALE, not_player=NOT_PLAYER, over=OVER)
Applied = live.Applied  # what act() returns when the action is saved


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
    try:  # under the chat's lock: no other worker starts a duel of theirs here meanwhile
        async with storage.transaction(lock=chat_lock(challenge.chat_id)):
            for player in (challenge.challenger_id, acceptor_id):
                if await storage.duels.live_for_user_in_chat(challenge.chat_id, player):
                    raise Rollback
            record = await storage.duels.create(
                challenge.chat_id, challenge.thread_id, (challenge.challenger_id, acceptor_id),
                state.to_json(), now, deals=deals_of(state.public_view()),
            )
            won = await storage.challenges.transition(
                challenge.id, challenge.version, ChallengeStatus.ACCEPTED, duel_id=record.id
            )
            if not won:
                raise Rollback
            # a tournament's pairing played through this challenge now has its duel
            await storage.tournaments.link_duel(challenge.id, record.id)
    except Rollback:
        return None
    log.info("duel %d started in chat %d: %d vs %d, stack %d, player %d deals",
             record.id, record.chat_id, *record.players, challenge.stack, state.dealer)
    return record


async def start_inline_duel(
    svc: Services, challenge: InlineChallenge, acceptor_id: int
) -> DuelRecord | None:
    """Accept a challenge posted through inline mode and create its duel, shown on the
    challenge's message and kept in the pair's chat (bot.storage.inline), in one transaction;
    None if it was settled meanwhile or the two have a live duel already (one per pair)."""
    state = DuelState.new(challenge.stack, choose_first_dealer(svc.rng))
    _deal_if_due(svc, state)
    now = svc.clock()
    storage = svc.storage
    inline = storage.of(InlineRepo)
    players = (challenge.challenger_id, acceptor_id)
    chat = await inline.pair_chat(*players)
    try:
        async with storage.transaction(lock=chat_lock(chat)):
            if await storage.duels.live_for_user_in_chat(chat, challenge.challenger_id):
                raise Rollback
            record = await storage.duels.create(
                chat, None, players, state.to_json(), now, deals=deals_of(state.public_view()),
                inline_message_id=challenge.inline_message_id)
            if not await inline.settle(challenge.inline_message_id, ChallengeStatus.ACCEPTED,
                                       record.id):
                raise Rollback
    except (Rollback, UniqueViolation):
        return None
    log.info("inline duel %d started: %d vs %d, stack %d, player %d deals", record.id,
             *players, challenge.stack, state.dealer)
    return record


async def act(
    svc: Services, duel_id: int, version: int | None, user_id: int, action: Action
) -> live.Applied[DuelRecord, DuelState, Event] | Refusal:
    """Apply `action` for `user_id` if `version` is still current (None: whatever is current,
    for commands such as /surrender). Saved before it returns."""
    return await live.act(GAME, svc, duel_id, version, user_id, action)


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


# --- a chat's end (bot.common.chats asks every game) -------------------------------------


async def forget_chat(svc: Services, chat_id: int) -> str:
    """The bot left the chat: its live duels are closed without counting, its challenges."""
    duels = await svc.storage.duels.abandon_chat(chat_id, now=svc.clock())
    await svc.storage.timers.prune()  # their turn timers (no present() ends them)
    challenges = await svc.storage.challenges.expire_chat(chat_id)
    return f"{len(duels)} live duel(s) abandoned, {challenges} challenge(s) closed"
