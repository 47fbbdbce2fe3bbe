"""Playing a duel to a chosen end through the fake Bot API.

The test is omniscient where players are not: it reads the live duel's deck from the bot's
database (through the bot's repositories), tries every way to play the deal on copies of the
state (rules.duel), and taps the buttons of the plan that gives the stacks it wants: level
stacks for a draw or a tiebreak offer, a decisive tiebreak bullet. Only legal taps are made,
through the buttons.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import permutations

from bot.storage import Storage
from rules.duel import Bet, DuelState

from .driver import Table, actor, duel_keyboard, live_duel_message, mentioned_ids, tap
from .fakeapi import FakeTelegramAPI
from .fakeapi.model import FakeMessage

Move = tuple[int, Bet]  # player (0, 1 of the state), bet
Plan = list[Move]
BULLET_BETS = ((1, 1), (2, 1), (1, 2), (2, 2))  # (opponent, dealer) in bullets 1-2


async def live_state(storage: Storage, chat_id: int) -> tuple[tuple[int, int], DuelState]:
    """The players (user ids of player 0 and 1) and state of the chat's newest live duel."""
    live = await storage.duels.live_in_chat(chat_id)
    assert live, "no live duel"
    return live[-1].players, DuelState.from_json(live[-1].state_json)


def _plans(state: DuelState) -> Iterator[Plan]:
    """Every plan for the deal just dealt: bullets 1-2 with any bets on the hands outside the
    bonus pair, then any pair of hands for the bonus duel (the dealer's hand in it is placed
    by the rules). A tiebreak deal is a single bonus duel, the dealer choosing among five."""
    opp, dlr = state.opponent, state.dealer
    for x, y in permutations(range(6), 2):
        if state.is_tiebreak:
            yield [(opp, Bet(x, 2)), (dlr, Bet(y, 2))]
            continue
        rest = [p for p in range(6) if p not in (x, y)]
        for first in BULLET_BETS:
            for second in BULLET_BETS:
                yield [(opp, Bet(rest[0], first[0])), (dlr, Bet(rest[1], first[1])),
                       (opp, Bet(rest[2], second[0])), (dlr, Bet(rest[3], second[1])),
                       (opp, Bet(x, 2))]  # the dealer gets y


def _after(state: DuelState, plan: Plan) -> DuelState:
    s = DuelState.from_json(state.to_json())
    for player, bet in plan:
        s.apply(bet, player)
    return s


def best_plan(state: DuelState, score: Callable[[DuelState], int]) -> Plan:
    """The plan for this deal whose end scores lowest."""
    return min(_plans(state), key=lambda plan: score(_after(state, plan)))


def level(s: DuelState) -> int:
    return abs(s.stacks[0] - s.stacks[1])


def decisive(s: DuelState) -> int:
    return 0 if s.stacks[0] != s.stacks[1] else 1


async def _answer_offer(api: FakeTelegramAPI, table: Table, m: FakeMessage,
                        accept: bool) -> None:
    waiting = set(mentioned_ids(m))  # the offer mentions those still to answer
    suffix = ":ty" if accept else ":tn"
    for p in table.players:
        if p.id not in waiting:
            continue
        await tap(api, p, m, next(d for d in duel_keyboard(m) if d.endswith(suffix)))
        if not accept:
            return
        m = live_duel_message(api, table.chat) or m


async def force(api: FakeTelegramAPI, table: Table, storage: Storage, *,
                tiebreak: bool | None, limit: int = 40) -> FakeMessage:
    """Play the live duel to level stacks after six bullets; then decline the tiebreak (a
    draw) or accept it and win the tiebreak bullet. Returns the result message; with
    `tiebreak` None, stops at the offer and returns it."""
    plans: dict[int, Plan] = {}
    for _ in range(limit):
        m = live_duel_message(api, table.chat)
        if m is None:
            break
        if any(d.endswith((":ty", ":tn")) for d in duel_keyboard(m)):
            if tiebreak is None:
                return m
            await _answer_offer(api, table, m, tiebreak)
            continue
        ids, state = await live_state(storage, table.chat.id)
        if state.round not in plans:
            assert state.bullet_in_round == 1 and not state.choices
            plans[state.round] = best_plan(state, decisive if state.is_tiebreak else level)
        player, bet = plans[state.round].pop(0)
        assert ids[player] == actor(m), "the plan and the table disagree on whose move it is"
        user = next(p for p in table.players if p.id == ids[player])
        data = next(d for d in duel_keyboard(m) if d.endswith(":" + str(bet)))
        assert await tap(api, user, m, data) is None, "a planned tap was refused"
    last = api.bot_messages(table.chat)[-1]
    assert not duel_keyboard(last), "the forced duel did not end"
    return last
