"""The duel's log: its saved form (byte for byte, as the database holds it), and what it tells of
the past: `version`, `at(version)`, `actors_since(version)` and `move_at(version)`."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.cards import shuffled_deck
from rules.duel import Bet, DuelState, Surrender, TiebreakAnswer
from rules.duel.log import ActEntry, DealEntry, DuelLog
from rules.fairness import deck_text, new_salt
from tests.rules.duel.helpers import SALT, bets, deck_with

DECK = deck_with("Ks 7c 8d 9h Jd", "4h 5c 6d 8s Tc", "Qd 2h 3s 7d 9s", "2s 3h 4d 6c 8c",
                 "9c Th Jc Qs 5h", "Ah 6h 7s Td 4s")


def test_the_saved_form_is_the_log_as_json() -> None:
    state = DuelState.new(50, first_dealer=0)
    state.deal(DECK, SALT)
    state.apply(Bet(3, 1), 1)
    state.apply(Surrender(), 0)
    assert state.to_json() == (
        '{"v":2,"start_stack":50,"first_dealer":0,"log":[["deal","' + deck_text(DECK)
        + '","' + SALT.hex() + '"],["act",1,"b31"],["act",0,"sr"]]}'
    )
    log = DuelLog.from_json(state.to_json())
    assert log == state.log and log.entries == (
        DealEntry(deck_text(DECK), SALT.hex()), ActEntry(1, "b31"), ActEntry(0, "sr"))
    assert log.to_json() == state.to_json()


def _dealt() -> DuelState:
    state = DuelState.new(50, first_dealer=0)
    state.deal(DECK, SALT)
    return state


def test_version_counts_the_actions_not_the_deals() -> None:
    state = _dealt()
    assert state.version == 0
    bets(state, (3, 1), (1, 1), (2, 1), (0, 1), (5, 2), (4, 2))  # round 1
    # Five actions: the dealer's last hand (4) in the bonus duel is placed by the rules.
    assert state.version == 5 and state.needs_deal
    state.deal(DECK, SALT)
    assert state.version == 5 and len(state.log.entries) == 7


def test_at_a_version_is_the_duel_as_it_was_then_with_the_deal_that_followed() -> None:
    state = _dealt()
    snapshots = [state.to_json()]
    for pos, chips in ((3, 1), (1, 1), (2, 1), (0, 1), (5, 2), (4, 2), (1, 2)):
        state.apply(Bet(pos, chips), state.players_to_act[0])
        if state.needs_deal:  # the bot deals before it saves the version
            state.deal(DECK, SALT)
        snapshots.append(state.to_json())
    for version, saved in enumerate(snapshots):
        past = state.at(version)
        assert past.to_json() == saved and past.version == version
        assert past == DuelState.from_json(saved) and past is not state
    assert state.at(6).round == 2 and not state.at(6).needs_deal  # round 2 was dealt at once
    assert state.at(state.version) == state


def test_actors_since_names_the_player_of_each_later_action() -> None:
    state = _dealt()
    bets(state, (3, 1), (1, 1))  # player 1 (the opponent) then player 0
    state.apply(Surrender(), 1)
    assert state.actors_since(0) == [1, 0, 1]
    assert state.actors_since(2) == [1]
    assert state.actors_since(3) == []


def test_move_at_is_the_player_and_action_that_made_the_next_version() -> None:
    state = _dealt()
    bets(state, (3, 1), (1, 2))  # player 1 (the opponent) then player 0
    state.apply(Surrender(), 1)
    assert [state.move_at(v) for v in range(3)] == [(1, Bet(3, 1)), (0, Bet(1, 2)),
                                                   (1, Surrender())]
    assert state.at(2).move_at(1) == (0, Bet(1, 2))
    for version in (-1, 3):  # no action after the last version, nor before the first
        with pytest.raises(ValueError, match="version"):
            state.move_at(version)


def test_a_tiebreak_offer_answered_by_both_is_two_actions() -> None:
    state = DuelState.new(50, first_dealer=0)
    level = deck_with("2c 4s 6h 9c Jh", "2d 4c 6s 9d Js", "3c 5s 7h Tc Qh", "3d 5c 7s Td Qs",
                      "4h 8c Th Kc 2h", "4d 8d Ts Kd 2s")
    for _ in range(2):
        state.deal(level, SALT)
        bets(state, (0, 1), (1, 1), (2, 1), (3, 1), (4, 2), (5, 2))
    state.apply(TiebreakAnswer(True), 1)
    state.apply(TiebreakAnswer(True), 0)
    assert state.version == 12 and state.actors_since(10) == [1, 0]
    assert state.at(11).players_to_act == (0,)


@pytest.mark.parametrize("version", [-1, 3])
def test_a_version_the_duel_never_had_is_refused(version: int) -> None:
    state = _dealt()
    bets(state, (3, 1), (1, 1))
    with pytest.raises(ValueError, match="version"):
        state.at(version)
    with pytest.raises(ValueError, match="version"):
        state.actors_since(version)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_version_of_a_random_duel_is_found_again(seed: int) -> None:
    rng = random.Random(seed)
    state = DuelState.new(rng.choice([3, 10, 50]), rng.randrange(2))
    state.deal(shuffled_deck(rng), new_salt(rng))
    snapshots, actors, moves = [state.to_json()], [], []
    while not state.is_over:
        player = rng.choice(state.players_to_act)
        action = rng.choice(state.legal_actions(player))
        state.apply(action, player)
        actors.append(player)
        moves.append((player, action))
        if state.needs_deal:
            state.deal(shuffled_deck(rng), new_salt(rng))
        snapshots.append(state.to_json())
    assert state.version == len(actors)
    for version, saved in enumerate(snapshots):
        assert state.at(version).to_json() == saved
        assert state.actors_since(version) == actors[version:]
    assert [state.move_at(v) for v in range(state.version)] == moves


def test_a_format_1_log_replays_with_the_dealers_forced_bet_as_its_own_action() -> None:
    """Duels begun before format 2 logged the dealer's only hand in a bonus duel as a tap:
    they replay as they were played, and go on asking for that tap."""
    old = DuelState(50, first_dealer=0, forced_moves=False)
    old.deal(DECK, SALT)
    bets(old, (3, 1), (1, 1), (2, 1), (0, 1), (5, 2))
    assert old.players_to_act == (0,) and old.legal_actions() == [Bet(4, 2)]
    old.apply(Bet(4, 2), 0)
    assert old.version == 6 and old.needs_deal
    text = old.to_json()
    assert text.startswith('{"v":1,')
    again = DuelState.from_json(text)
    assert again == old and again.results == old.results and not again.log.forced_moves
    new = _dealt()
    bets(new, (3, 1), (1, 1), (2, 1), (0, 1), (5, 2))
    assert new.results[-1] == old.results[-1] and new.version == 5
