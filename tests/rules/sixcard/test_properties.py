"""Six-card poker invariants over random legal play (hypothesis): the chips reconcile exactly,
the balance never goes negative, the running balance over the boxes ends at the final one,
every game ends, there is always a legal action before the end, no hidden card shows before
its time, and the log replays to the same game."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.cards import Card, shuffled_deck
from rules.fairness import new_salt
from rules.sixcard import (
    HAND,
    Accounting,
    BoxSettled,
    BoxState,
    GameOver,
    SixCardGame,
    SixCardView,
    SixEvent,
    SixPhase,
    view_json,
)


@st.composite
def setups(draw: st.DrawFn) -> tuple[tuple[int, ...], int]:
    """1-3 antes (1..100, often small so fees and bets bite) and a balance from the least that
    can start (every box's ANTE and BET) up to a little more than the whole game could need."""
    ante = st.one_of(st.integers(1, 5), st.integers(1, 100))
    antes = tuple(draw(st.lists(ante, min_size=1, max_size=3)))
    least = SixCardGame.cover(antes)
    return antes, least + draw(st.integers(0, 6 * max(antes)))


def hidden_cards(g: SixCardGame) -> set[Card]:
    """The cards the player may not see now: the dealer's hole cards before the reveal, the
    boxes not yet shown, and the deck (until the game is over)."""
    if g.is_over:
        return set()
    hidden = set(g.deck[g.drawn :])
    if not g.dealer_revealed:
        hidden |= set(g.dealer[: HAND - 1])
    for box in g.boxes:
        if box.state is BoxState.HIDDEN:
            hidden |= set(box.cards)
    return hidden


def shown_cards(view: SixCardView) -> set[Card]:
    cards = {view.dealer_up} if view.dealer_up else set()
    cards |= set(view.dealer_cards or ()) | set(view.dealer_first_cards or ())
    for box in view.boxes:
        cards |= set(box.cards or ()) | set(box.discards)
    if view.dealer_replacement:
        cards |= {view.dealer_replacement.dropped, view.dealer_replacement.drawn}
    return cards


@settings(max_examples=300, deadline=None)
@given(setup=setups(), seed=st.integers(0, 2**32 - 1), salted=st.booleans())
def test_random_games_keep_every_invariant(
    setup: tuple[tuple[int, ...], int], seed: int, salted: bool
) -> None:
    antes, balance = setup
    rng = random.Random(seed)
    g = SixCardGame.new(antes, balance)
    events: list[SixEvent] = g.deal(shuffled_deck(rng), new_salt(rng) if salted else None)
    steps = 0
    while not g.is_over:
        steps += 1
        # at most: buy, replace and play on boxes 1 and 2, then three dealer-game answers
        assert steps <= 9, "the game does not end"
        legal = g.legal_actions()
        assert legal, "no legal action before the end"
        view = g.public_view()
        assert view.legal == tuple(str(a) for a in legal)
        hidden = hidden_cards(g)
        assert not (shown_cards(view) & hidden)
        text = view_json(view)
        assert not any(f'"{c}"' in text for c in hidden)
        assert (view.dealer_backs == 4) == (view.phase is SixPhase.DECIDING)
        events += g.apply(rng.choice(legal))
        m = g.money
        assert g.balance == balance - m.staked - m.fees + m.returned + m.won
        assert g.balance >= 0
    assert g.legal_actions() == [] and g.public_view().legal == ()
    over = events[-1]
    assert isinstance(over, GameOver) and over.balance == g.balance
    assert over.start_balance - over.totals.paid_in + over.totals.paid_out == over.balance
    settlements = [e.settlement for e in events if isinstance(e, BoxSettled)]
    assert [s.box for s in settlements] == list(range(len(antes)))
    total = Accounting()
    for s in settlements:
        total = total.plus(s.money)
        assert s.money.net == s.money.returned + s.money.won - s.money.staked - s.money.fees
    assert total == over.totals and sum(s.net for s in settlements) == over.net
    # The running balance: from the start, through each box's net, fees included, to the end.
    view = g.public_view()
    after = balance
    for run, s, box in zip(view.running, settlements, view.boxes, strict=True):
        after += s.net
        assert (run.box, run.net, run.fees, run.balance) == (s.box, s.net, box.fees, after)
        assert run.fees == s.money.fees
    assert view.running[-1].balance == g.balance
    assert SixCardGame.from_json(g.to_json()) == g
