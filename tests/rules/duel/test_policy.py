"""The move made for a player who ran out of time: a choice among the legal actions, from what
the table shows (the clock and its counts are the shell's: tests/bot/test_timers.py)."""

from __future__ import annotations

from typing import Any

from rules.duel import Bet, DuelState, Surrender, TiebreakAnswer
from rules.duel.policy import FORFEIT_AFTER, Kind, safe_bet, timeout_move
from tests.rules.duel.helpers import SALT, bets, deck_with

# Face-up cards: K, 4, Q, 2, 9, A.
DECK = deck_with("Ks 7c 8d 9h Jd", "4h 5c 6d 8s Tc", "Qd 2h 3s 7d 9s", "2s 3h 4d 6c 8c",
                 "9c Th Jc Qs 5h", "Ah 6h 7s Td 4s")
# Every bullet splits when both pass or show the same high cards (hands 4 and 5 in a bonus duel).
LEVEL = deck_with("Ks 7c 8d 9h Jd", "4h 5c 6d 8s Tc", "Qd 2h 3s 7d 9s", "2s 3h 4d 6c 8c",
                  "2c 4s 6h 9c Jh", "2d 4c 6s 9d Js")


def dealt(deck: Any = DECK) -> DuelState:
    state = DuelState.new(50, first_dealer=0)
    state.deal(deck, SALT)
    return state


def test_a_bullet_passes_on_the_lowest_face_up_card() -> None:
    state = dealt()
    move = timeout_move(state, (0, 0))
    assert move is not None and move.kind is Kind.PASS
    assert move.player == 1 and move.action == Bet(3, 1) and move.late == (1,)  # the 2♠
    state.apply(move.action, 1)
    assert safe_bet(state, 0) == Bet(1, 1)  # the dealer: the 4♥ of what is left


def test_a_bonus_duel_stakes_the_higher_face_up_card() -> None:
    state = dealt()
    bets(state, (3, 1), (1, 1), (2, 1), (0, 1))  # bullets 1 and 2 pass; left: 9♣ and A♥
    move = timeout_move(state, (0, 0))
    assert move is not None and move.kind is Kind.BONUS and move.action == Bet(5, 2)


def test_safe_bet_takes_the_leftmost_of_equal_face_up_cards() -> None:
    deck = deck_with("2s 7c 8d 9h Jd", "2h 5c 6d 8s Tc", "Qd 2c 3s 7d 9s", "2d 3h 4d 6c 8c",
                     "9c Th Jc Qs 5h", "Ah 6h 7s Td 4s")
    assert safe_bet(dealt(deck), 1) == Bet(0, 1)


def test_two_timeouts_in_a_row_lose() -> None:
    assert FORFEIT_AFTER == 2
    move = timeout_move(dealt(), (0, FORFEIT_AFTER - 1))
    assert move is not None and move.kind is Kind.FORFEIT
    assert move.action == Surrender("timeout") and move.player == 1
    other = timeout_move(dealt(), (FORFEIT_AFTER - 1, 0))  # the other player's count
    assert other is not None and other.kind is Kind.PASS


def test_the_clock_never_moves_for_nobody() -> None:
    over = dealt()
    over.apply(Surrender(), 1)
    assert timeout_move(over, (0, 0)) is None
    move = timeout_move(dealt(), (0, 1))
    assert move is not None and move.kind is Kind.FORFEIT
    assert move.action == Surrender("timeout") and move.player == 1


def test_a_tiebreak_offer_is_declined_even_after_a_timeout() -> None:
    state = dealt(LEVEL)
    bets(state, (0, 1), (1, 1), (2, 1), (3, 1), (4, 2), (5, 2))
    state.deal(LEVEL, SALT)
    bets(state, (0, 1), (1, 1), (2, 1), (3, 1), (4, 2), (5, 2))
    move = timeout_move(state, (1, 1))
    assert move is not None and move.action == TiebreakAnswer(False)
    assert move.late == (0, 1) and move.kind is Kind.DECLINE
