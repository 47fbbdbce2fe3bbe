"""A saved duel state is parsed once: the same state for the same JSON, a move applied to a
fresh parse, the last two of each duel kept, however many duels there are."""

from __future__ import annotations

import random

from bot.duel import states
from rules.cards import shuffled_deck
from rules.duel import Bet, DuelState


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


def test_the_same_json_is_parsed_once_and_reads_as_the_rules_parse_it() -> None:
    text = a_duel(1).to_json()
    first = states.parsed(1, text)
    assert first == DuelState.from_json(text)
    assert states.parsed(1, text) is first  # not replayed again


def test_a_state_kept_after_its_save_is_what_its_readers_get() -> None:
    state = moved(a_duel(2))
    text = state.to_json()
    states.kept(7, text, state)
    assert states.parsed(7, text) is state
    assert DuelState.from_json(text) == state  # the key says what the state is


def test_the_version_a_message_shows_is_the_one_kept_at_its_save() -> None:
    state = a_duel(3)
    states.kept(8, state.to_json(), state)
    later = moved(state)
    states.kept(8, later.to_json(), later)  # the next save: the one before is still kept
    assert states.at(8, later, state.version) is state  # not rebuilt
    assert later.at(state.version) == state  # what it stands for
    assert states.at(9, later, state.version) == state  # another duel's: rebuilt


def test_each_duel_keeps_its_last_two_however_many_duels_play_between() -> None:
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
        assert states.at(duel, state, first[duel].version) is first[duel]
    third = moved(second[0])
    states.kept(0, third.to_json(), third)
    assert states.parsed(0, first[0].to_json()) is not first[0]  # the third pushed it out
    assert states.parsed(0, first[0].to_json()) == first[0]


def test_only_so_many_duels_are_kept() -> None:
    texts = [a_duel(5000 + i).to_json() for i in range(states.SIZE + 5)]
    kept = [states.parsed(10_000 + i, t) for i, t in enumerate(texts)]
    assert states.parsed(10_000 + len(texts) - 1, texts[-1]) is kept[-1]
    assert states.parsed(10_000, texts[0]) is not kept[0]  # the least recent, pushed out
    assert states.parsed(10_000, texts[0]) == kept[0]
