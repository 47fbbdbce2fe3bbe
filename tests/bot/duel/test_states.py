"""A saved duel state is parsed once: the same state for the same JSON, a move applied to a
fresh parse, and only so many kept."""

from __future__ import annotations

import random

from bot.duel import states
from rules.cards import shuffled_deck
from rules.duel import Bet, DuelState


def a_duel(seed: int) -> DuelState:
    state = DuelState.new(40, 0)
    state.deal(shuffled_deck(random.Random(seed)), bytes(16))
    return state


def test_the_same_json_is_parsed_once_and_reads_as_the_rules_parse_it() -> None:
    text = a_duel(1).to_json()
    first = states.parsed(text)
    assert first == DuelState.from_json(text)
    assert states.parsed(text) is first  # not replayed again


def test_a_state_kept_after_its_save_is_what_its_readers_get() -> None:
    state = a_duel(2)
    player = state.players_to_act[0]
    bet = next(a for a in state.legal_actions(player) if isinstance(a, Bet))
    state.apply(bet, player)
    text = state.to_json()
    states.kept(text, state, 7)
    assert states.parsed(text) is state
    assert DuelState.from_json(text) == state  # the key says what the state is


def test_the_version_a_message_shows_is_the_one_kept_at_its_save() -> None:
    state = a_duel(3)
    shown_text = state.to_json()
    states.kept(shown_text, state, 8)
    later = DuelState.from_json(shown_text)
    player = later.players_to_act[0]
    later.apply(next(a for a in later.legal_actions(player) if isinstance(a, Bet)), player)
    assert states.at(later, 8, state.version) is state  # not rebuilt
    assert later.at(state.version) == state  # what it stands for
    assert states.at(later, 9, state.version) == state  # another duel's: rebuilt


def test_only_the_newest_are_kept() -> None:
    texts = [a_duel(100 + i).to_json() for i in range(states.SIZE + 5)]
    kept = [states.parsed(t) for t in texts]
    assert states.parsed(texts[-1]) is kept[-1]
    assert states.parsed(texts[0]) is not kept[0]  # pushed out, parsed anew
    assert states.parsed(texts[0]) == kept[0]
