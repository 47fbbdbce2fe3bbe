"""Helpers to build crafted decks and play duels in tests."""

from __future__ import annotations

import random

from rules.cards import CARDS, Card, parse_cards, shuffled_deck
from rules.duel import Action, Bet, BetPlaced, DuelState, Event
from rules.fairness import new_salt

SALT = bytes(range(16))


def deck_with(*hands: str) -> tuple[Card, ...]:
    """A deck whose first hands are the given ones ("As Kd 7h 2c 3d", first card face up);
    the remaining cards follow in index order."""
    head: list[Card] = []
    for h in hands:
        cards = parse_cards(h)
        assert len(cards) == 5, h
        head.extend(cards)
    assert len(set(head)) == len(head), "a card is used twice"
    rest = [c for c in CARDS if c not in set(head)]
    return (*head, *rest)


def bets(state: DuelState, *moves: tuple[int, int]) -> list[Event]:
    """Play moves (position, chips) in turn order; the events. A move the rules placed
    themselves (the dealer's forced bet in a bonus duel) is checked to be the one placed,
    not played: it is no one's to play."""
    events: list[Event] = []
    placed: tuple[int, int] | None = None  # the forced bet the last move brought
    for position, chips in moves:
        if placed == (position, chips):
            placed = None
            continue
        new = state.apply(Bet(position, chips), state.players_to_act[0])
        events += new
        placed = next(((e.position, e.chips) for e in new
                       if isinstance(e, BetPlaced) and e.forced), None)
    return events


def random_play(state: DuelState, rng: random.Random, max_steps: int = 500) -> list[Action]:
    played: list[Action] = []
    for _ in range(max_steps):
        if state.is_over:
            break
        if state.needs_deal:
            state.deal(shuffled_deck(rng), new_salt(rng))
            continue
        player = rng.choice(state.players_to_act)
        action = rng.choice(state.legal_actions(player))
        state.apply(action, player)
        played.append(action)
    return played
