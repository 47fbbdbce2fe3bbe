"""A saved state is parsed once (shown with a duel's): the same state for the same JSON, a move
applied to a fresh copy, the last two of each game kept, however many games there are; and a
repository's save keeps the state it saved."""

from __future__ import annotations

import random

import pytest

from bot.storage import DuelStatus, Storage
from bot.storage.states import SIZE, States
from rules.cards import shuffled_deck
from rules.duel import Bet, DuelState


@pytest.fixture
def states() -> States[DuelState]:
    return States(DuelState.from_json, DuelState.copy)


def at(states: States[DuelState], duel_id: int, state: DuelState, version: int) -> DuelState:
    """What `DuelRepo.at` finds, without a database."""
    found = states.find(duel_id, lambda s: s.version == version)
    return found if found is not None else state.at(version)


def a_duel(seed: int) -> DuelState:
    state = DuelState.new(40, 0)
    state.deal(shuffled_deck(random.Random(seed)), bytes(16))
    return state


def moved(state: DuelState) -> DuelState:
    """A fresh parse of `state` with its next player's first bet applied."""
    later = DuelState.from_json(state.to_json())
    player = later.players_to_act[0]
    later.apply(next(a for a in later.legal_actions(player) if isinstance(a, Bet)), player)
    return later


def test_the_same_json_is_parsed_once_and_reads_as_the_rules_parse_it(
        states: States[DuelState]) -> None:
    text = a_duel(1).to_json()
    first = states.parsed(1, text)
    assert first == DuelState.from_json(text)
    assert states.parsed(1, text) is first  # not replayed again


def test_a_state_kept_after_its_save_is_what_its_readers_get(states: States[DuelState]) -> None:
    state = moved(a_duel(2))
    text = state.to_json()
    states.kept(7, text, state)
    assert states.parsed(7, text) is state
    assert DuelState.from_json(text) == state  # the key says what the state is


def test_the_version_a_message_shows_is_the_one_kept_at_its_save(
        states: States[DuelState]) -> None:
    state = a_duel(3)
    states.kept(8, state.to_json(), state)
    later = moved(state)
    states.kept(8, later.to_json(), later)  # the next save: the one before is still kept
    assert at(states, 8, later, state.version) is state  # not rebuilt
    assert later.at(state.version) == state  # what it stands for
    assert at(states, 9, later, state.version) == state  # another duel's: rebuilt


def test_each_duel_keeps_its_last_two_however_many_duels_play_between(
        states: States[DuelState]) -> None:
    # Every duel saved once, then each saved again after all the others (a tap each, round
    # the table): each tap's reads still find the duel's own states.
    first = {duel: a_duel(100 + duel) for duel in range(1000)}
    for duel, state in first.items():
        states.kept(duel, state.to_json(), state)
    second = {duel: moved(state) for duel, state in first.items()}
    for duel, state in second.items():
        assert states.parsed(duel, first[duel].to_json()) is first[duel]
        states.kept(duel, state.to_json(), state)
    for duel, state in second.items():
        assert states.parsed(duel, state.to_json()) is state
        assert at(states, duel, state, first[duel].version) is first[duel]
    third = moved(second[0])
    states.kept(0, third.to_json(), third)
    assert states.parsed(0, first[0].to_json()) is not first[0]  # the third pushed it out
    assert states.parsed(0, first[0].to_json()) == first[0]


def test_only_so_many_duels_are_kept(states: States[DuelState]) -> None:
    texts = [a_duel(5000 + i).to_json() for i in range(SIZE + 5)]
    kept = [states.parsed(10_000 + i, t) for i, t in enumerate(texts)]
    assert states.parsed(10_000 + len(texts) - 1, texts[-1]) is kept[-1]
    assert states.parsed(10_000, texts[0]) is not kept[0]  # the least recent, pushed out
    assert states.parsed(10_000, texts[0]) == kept[0]


def test_a_fresh_state_is_a_copy_the_shared_one_does_not_see_the_move(
        states: States[DuelState]) -> None:
    state = a_duel(6)
    text = state.to_json()
    fresh = states.fresh(3, text)
    assert fresh == states.parsed(3, text) and fresh is not states.parsed(3, text)
    player = fresh.players_to_act[0]
    fresh.apply(next(a for a in fresh.legal_actions(player) if isinstance(a, Bet)), player)
    assert states.parsed(3, text) == DuelState.from_json(text)  # the shared one as it was


async def test_a_save_keeps_the_state_it_saved_and_a_lost_one_keeps_nothing(
        store: Storage) -> None:
    state = a_duel(7)
    record = await store.duels.create(-1, None, (1, 2), state.to_json(), 1000)
    shown = store.duels.state(record)  # read (its message is drawn from it)
    later = moved(shown)
    assert await store.duels.save(record.id, 0, later.to_json(), now=1001, state=later) == 1
    saved = await store.duels.get(record.id)
    assert saved is not None and store.duels.state(saved) is later
    assert store.duels.at(saved, later, 0) is shown  # what its message shows, not rebuilt
    lost = moved(later)
    assert await store.duels.save(record.id, 0, lost.to_json(), DuelStatus.LIVE, now=1002,
                                  state=lost) is None
    assert store.duels.states.find(record.id, lambda s: s is lost) is None
