"""Invariants over random legal play (hypothesis): chips conserved, stacks never negative,
every duel ends, a hidden card never shows, the log replays to the same duel."""

from __future__ import annotations

import random

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rules.cards import Card
from rules.duel import DuelState, Phase, PublicView, view_json
from rules.fairness import verify
from tests.rules.duel.helpers import random_play

seeds = st.integers(min_value=0, max_value=2**32 - 1)
stacks = st.sampled_from([2, 3, 5, 10, 50, 200])


def _hidden(state: DuelState) -> set[Card]:
    """Cards of the current deal that nobody may see yet."""
    if state.phase is not Phase.BULLET:
        return set()  # between deals, or over: the last deal's deck is public
    shown = {state.hand(p)[0] for p in range(6)}
    shown |= {c for p in state.revealed for c in state.hand(p)}
    return set(state.deck) - shown


def _cards_in(view: PublicView) -> set[Card]:
    """Every card the view shows of the current deal (finished deals' proofs aside)."""
    cards = set(view.cards_out)
    for h in view.hands:
        cards.add(h.face_up)
        cards |= set(h.cards or ())
    for r in view.results:
        if r.round == view.round:
            cards |= set(r.cards[0]) | set(r.cards[1])
    return cards


@settings(max_examples=150, deadline=None)
@given(seed=seeds, stack=stacks, first=st.integers(0, 1))
def test_random_duels_keep_every_invariant(seed: int, stack: int, first: int) -> None:
    rng = random.Random(seed)
    state = DuelState.new(stack, first)
    steps = 0
    while not state.is_over:
        steps += 1
        assert steps < 400, "the duel does not end"
        if state.needs_deal:
            from rules.cards import shuffled_deck
            from rules.fairness import new_salt

            state.deal(shuffled_deck(rng), new_salt(rng))
            continue
        assert state.players_to_act, "nobody may act before the end"
        for player in state.players_to_act:
            assert state.legal_actions(player), "no legal action before the end"
        view = state.public_view()
        hidden = _hidden(state)
        assert not (_cards_in(view) & hidden)
        text = view_json(view)
        if view.phase is Phase.BULLET:
            current = [p for p in view.proofs if p.round == view.round]
            assert not current, "the current deal's proof is public before its end"
        if view.results:
            text = view_json(view.__class__(**{**_fields(view), "results": (), "proofs": ()}))
        assert not any(f'"{c}"' in text for c in hidden)
        player = rng.choice(state.players_to_act)
        state.apply(rng.choice(state.legal_actions(player)), player)
        assert sum(state.stacks) == 2 * stack
        assert min(state.stacks) >= 0
    assert state.legal_actions() == [] and state.players_to_act == ()
    assert state.winner is None or state.stacks[state.winner] >= state.stacks[1 - state.winner]
    for proof in state.proofs:
        assert verify(proof.commitment, proof.salt, proof.deck)
    assert DuelState.from_json(state.to_json()) == state


def _fields(view: PublicView) -> dict[str, object]:
    return {f: getattr(view, f) for f in view.__dataclass_fields__}


@settings(max_examples=60, deadline=None)
@given(seed=seeds, cut=st.integers(0, 40))
def test_replay_of_the_log_equals_the_original_at_any_point(seed: int, cut: int) -> None:
    rng = random.Random(seed)
    state = DuelState.new(50, rng.randrange(2))
    random_play(state, rng, max_steps=cut)
    again = DuelState.from_json(state.to_json())
    assert again == state
    assert again.public_view() == state.public_view()
    assert again.stacks == state.stacks and again.phase == state.phase


@settings(max_examples=60, deadline=None)
@given(seed=seeds, a=st.integers(0, 51), b=st.integers(0, 51))
def test_swapping_two_hidden_cards_does_not_change_the_view(seed: int, a: int, b: int) -> None:
    """Two duels with the same public moves whose decks differ only in hidden cards have the
    same public view, so nothing drawn from the view can depend on a hidden card."""
    rng = random.Random(seed)
    state = DuelState.new(50, 0)
    random_play(state, rng, max_steps=rng.randrange(0, 12))
    assume(not state.is_over and not state.needs_deal)
    hidden = sorted(_hidden(state), key=lambda c: c.index)
    x, y = hidden[a % len(hidden)], hidden[b % len(hidden)]
    deck = list(state.deck)
    i, j = deck.index(x), deck.index(y)
    deck[i], deck[j] = deck[j], deck[i]
    twin = DuelState.new(50, 0)
    import json

    log = json.loads(state.to_json())["log"]
    last_deal = max(k for k, e in enumerate(log) if e[0] == "deal")
    log[last_deal][1] = "".join(str(c) for c in deck)
    twin = DuelState.from_json(json.dumps({"v": 2, "start_stack": 50, "first_dealer": 0,
                                           "log": log}))
    a_view, b_view = state.public_view(), twin.public_view()
    assert view_json(a_view).replace(a_view.commitment or "", "") == view_json(b_view).replace(
        b_view.commitment or "", ""
    )


@settings(max_examples=60, deadline=None)
@given(seed=seeds, stack=stacks, first=st.integers(0, 1))
def test_a_copy_is_the_replayed_duel_and_moves_apart_from_it(seed: int, stack: int,
                                                             first: int) -> None:
    """`copy()` gives what replaying the log gives, field by field; a move applied to the
    copy leaves the original as it was, and takes the copy where it takes a replay."""
    from rules.cards import shuffled_deck
    from rules.fairness import new_salt

    rng = random.Random(seed)
    state = DuelState.new(stack, first)
    while not state.is_over:
        if state.needs_deal:
            state.deal(shuffled_deck(rng), new_salt(rng))
            continue
        before = repr(vars(state))
        twin, replayed = state.copy(), DuelState.from_json(state.to_json())
        assert vars(twin) == vars(replayed) == vars(state)
        player = rng.choice(state.players_to_act)
        action = rng.choice(state.legal_actions(player))
        assert twin.apply(action, player) == replayed.apply(action, player)
        assert vars(twin) == vars(replayed)
        assert repr(vars(state)) == before  # the original did not move
        state = twin
