"""The practice hint (bot.duel.hints): the three best moves of the player to act, best first,
the first the move `hard` would make with the same random source; the same whatever the
hidden cards (public view only); nothing when it is not the player's move or there is no
choice; the text names each hand, its face-up card, the stake and a chance in percent."""

from __future__ import annotations

import random
import re

from bot.duel.hints import hint_text
from bot.i18n import translator
from rules.cards import Card, shuffled_deck
from rules.duel import Bet, DuelState, ai
from rules.duel.advice import hint as hint_of
from rules.fairness import new_salt


def _state(seed: int, steps: int, swap: tuple[int, int] | None = None) -> DuelState:
    rng = random.Random(seed)
    deck: list[Card] = list(shuffled_deck(rng))
    if swap is not None:  # two hidden cards (never a face-up card: positions 5k are)
        i, j = swap
        deck[i], deck[j] = deck[j], deck[i]
    state = DuelState.new(50, seed % 2)
    state.deal(tuple(deck), new_salt(random.Random(0)))
    for _ in range(steps):
        player = state.players_to_act[0]
        state.apply(rng.choice(state.legal_actions(player)), player)
    return state


def test_the_hint_is_the_best_three_and_hard_plays_the_first() -> None:
    for seed, steps in ((1, 0), (2, 1)):
        view = _state(seed, steps).public_view()
        player = view.to_act[0]
        moves = hint_of(view, player, random.Random(seed))
        assert len(moves) == 3
        chances = [c for _, c in moves]
        assert chances == sorted(chances, reverse=True) and all(0 <= c <= 1 for c in chances)
        assert len({b for b, _ in moves}) == 3
        assert ai.choose(view, player, "hard", random.Random(seed)) == moves[0][0]


def test_the_hint_never_reads_a_hidden_card() -> None:
    state = _state(3, 1)
    other = _state(3, 1, swap=(1, 23))  # hidden cards of hands 1 and 5, unrevealed yet
    assert other.deck != state.deck
    player = state.players_to_act[0]
    assert hint_of(state.public_view(), player, random.Random(9)) == hint_of(
        other.public_view(), player, random.Random(9))


def test_no_hint_out_of_turn() -> None:
    view = _state(4, 0).public_view()
    assert hint_of(view, 1 - view.to_act[0], random.Random(0)) == []


def test_the_hint_text() -> None:
    view = _state(5, 0).public_view()
    moves = [(Bet(2, 2), 0.546), (Bet(0, 1), 0.5), (Bet(5, 2), 0.001)]
    lines = str(hint_text(translator("en"), view, moves)).splitlines()
    card = view.hands[2].face_up.display
    assert lines[0].startswith("💡 <b>Hint</b>, bullet 1:")
    assert lines[1] == f"1. #3 {card} · Play 2: 55%"
    assert re.fullmatch(r"2\. #1 \S+ · Pass 1: 50%", lines[2])
    assert lines[3].endswith(" · Play 2: 0%")
    ru = str(hint_text(translator("ru"), view, moves)).splitlines()
    assert ru[1] == f"1. №3 {card} · Игра 2: 55%" and ru[2].endswith("Пас 1: 50%")
