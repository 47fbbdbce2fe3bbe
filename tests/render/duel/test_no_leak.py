"""No picture can show a hidden card.

By construction: render/ draws from the public views only (rules.duel.view, rules.sixcard.view;
it never sees a DuelState or a deck; tests/render/test_imports.py checks the imports).
By test: two duels that differ only in cards nobody has seen (the hidden four of each hand in
play, the undealt rest) give byte-identical pictures at every moment.
"""

from __future__ import annotations

import dataclasses
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import render
from bot.i18n import translator
from rules.cards import Card, shuffled_deck
from rules.duel import DuelState, PublicView

EN, RU = translator("en"), translator("ru")
NAMES = ("Алиса", "Bob")


def play(decks: list[tuple[Card, ...]], salts: list[bytes], moves: list[tuple[int, str]],
         start: int, first_dealer: int) -> DuelState:
    from rules.duel import parse_action

    s = DuelState.new(start, first_dealer)
    deals = iter(zip(decks, salts, strict=True))
    s.deal(*next(deals))
    for player, code in moves:
        if s.needs_deal:
            s.deal(*next(deals))
        s.apply(parse_action(code), player)
    if s.needs_deal and len(decks) > s.round:
        s.deal(*next(deals))
    return s


def random_duel(seed: int, steps: int) -> tuple[list[tuple[Card, ...]], list[bytes],
                                                 list[tuple[int, str]], int, int]:
    rng = random.Random(seed)
    start, first = rng.choice((10, 20, 50)), rng.randrange(2)
    s = DuelState.new(start, first)
    decks, salts, moves = [], [], []
    for _ in range(steps):
        if s.is_over:
            break
        if s.needs_deal:
            decks.append(shuffled_deck(rng))
            salts.append(rng.randbytes(8))
            s.deal(decks[-1], salts[-1])
            continue
        player = rng.choice(s.players_to_act)
        actions = s.legal_actions(player)
        # lean towards accepting a tiebreak, so that tiebreak deals get covered too
        action = actions[0] if rng.random() < 0.8 else rng.choice(actions)
        moves.append((player, str(action)))
        s.apply(action, player)
    return decks, salts, moves, start, first


def visible(view: PublicView) -> set[Card]:
    seen = {h.face_up for h in view.hands} | set(view.cards_out)
    for h in view.hands:
        seen |= set(h.cards or ())
    return seen


def public_part(view: PublicView) -> PublicView:
    """The view less the deal's commitment and the proofs: a hash of the deck, and decks of
    deals that are over. Pictures draw neither."""
    return dataclasses.replace(view, commitment=None, proofs=())


def pictures(view: PublicView) -> list[bytes]:
    out = [render.table(view, names=NAMES, labels=RU),
           render.table(view, names=NAMES, labels=EN, show_cards_out=False, fmt="png")]
    if view.results:
        out.append(render.reveal(view, names=NAMES, labels=EN))
    if view.is_over:
        out.append(render.result(view, names=NAMES, labels=RU))
    return out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(1, 40), shuffle=st.randoms())
def test_hidden_cards_never_change_a_picture(seed: int, steps: int,
                                             shuffle: random.Random) -> None:
    decks, salts, moves, start, first = random_duel(seed, steps)
    a = play(decks, salts, moves, start, first)
    view_a = a.public_view()
    # Move the cards nobody can see to other places in the current deal's deck.
    seen = visible(view_a)
    deck = list(decks[-1])
    hidden_at = [i for i, c in enumerate(deck) if c not in seen]
    assert len(hidden_at) >= 2
    cards = [deck[i] for i in hidden_at]
    moved = cards[1:] + cards[:1] if shuffle.random() < 0.5 else shuffle.sample(cards, len(cards))
    if moved == cards:
        moved = cards[1:] + cards[:1]
    for i, c in zip(hidden_at, moved, strict=True):
        deck[i] = c
    b = play([*decks[:-1], tuple(deck)], salts, moves, start, first)
    view_b = b.public_view()
    assert tuple(deck) != decks[-1]
    assert public_part(view_a) == public_part(view_b)
    assert pictures(view_a) == pictures(view_b)


def test_hidden_cards_really_differ_in_a_crafted_case() -> None:
    """The property above is not vacuous: the hands in play do hold different cards."""
    decks, salts, moves, start, first = random_duel(7, 2)
    a = play(decks, salts, moves, start, first)
    deck = list(decks[-1])
    deck[1], deck[40] = deck[40], deck[1]  # the second card of hand #1, and an undealt one
    b = play([tuple(deck)], salts, moves, start, first)
    assert a.hand(0) != b.hand(0)
    assert pictures(a.public_view()) == pictures(b.public_view())
