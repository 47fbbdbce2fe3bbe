"""The duel's public view tells its shape: whether a deal is a tiebreak, and how many bullets the
regular rounds have, so nothing that shows it counts rounds itself."""

from __future__ import annotations

from rules.duel import BULLETS_PER_ROUND, ROUNDS, DuelState, TiebreakAnswer
from tests.rules.duel.helpers import SALT, bets, deck_with

LEVEL = deck_with("2c 4s 6h 9c Jh", "2d 4c 6s 9d Js", "3c 5s 7h Tc Qh", "3d 5c 7s Td Qs",
                  "4h 8c Th Kc 2h", "4d 8d Ts Kd 2s")  # every bullet splits or both pass


def test_the_regular_rounds_are_not_tiebreaks_and_a_deal_after_them_is() -> None:
    state = DuelState.new(50, first_dealer=0)
    for round_ in (1, 2):
        state.deal(LEVEL, SALT)
        view = state.public_view()
        assert view.round == round_ and not view.is_tiebreak
        assert view.rounds == ROUNDS == 2 and view.max_bullets == ROUNDS * BULLETS_PER_ROUND == 6
        bets(state, (0, 1), (1, 1), (2, 1), (3, 1), (4, 2), (5, 2))
    offer = state.public_view()
    assert not offer.is_tiebreak and offer.bullet == offer.max_bullets
    state.apply(TiebreakAnswer(True), 0)
    state.apply(TiebreakAnswer(True), 1)
    state.deal(LEVEL, SALT)
    view = state.public_view()
    assert view.is_tiebreak and view.round == 3 and view.bullet == 7 > view.max_bullets
    assert [view.is_tiebreak_round(r.round) for r in view.results] == [False] * 6
    assert view.is_tiebreak_round(3) and view.is_tiebreak_round(4)
    assert not view.is_tiebreak_round(1) and not view.is_tiebreak_round(2)
    bets(state, (4, 2), (5, 2))
    after = state.public_view()
    assert after.is_tiebreak and after.is_tiebreak_round(after.results[-1].round)
