"""Cards parse and print round-trip; the deck is shuffled only through an injected source."""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.cards import CARDS, Card, CardParseError, Rank, Suit, parse_cards, shuffled_deck


def test_parse_and_print_round_trip_for_every_card() -> None:
    assert len(CARDS) == 52 and len(set(CARDS)) == 52
    for card in CARDS:
        assert Card.parse(str(card)) is card
        assert Card.parse(card.display) is card
        assert Card.from_index(card.index) is card
        assert pickle.loads(pickle.dumps(card)) is card


def test_forms_people_type() -> None:
    assert Card.parse("As") == Card(Rank.ACE, Suit.SPADES)
    assert Card.parse("Td") == Card.parse("10d") == Card.parse("10♦")
    assert Card.parse("Td").display == "10♦" and str(Card.parse("10d")) == "Td"
    assert Card.parse("ah").display == "A♥"
    assert parse_cards("As Kd 7h") == parse_cards("AsKd7h") == parse_cards(["As", "Kd", "7h"])


@pytest.mark.parametrize("text", ["", "A", "1s", "Ax", "AAs", "Zs", "11d", "A s s"])
def test_bad_cards_raise_a_readable_error(text: str) -> None:
    with pytest.raises(CardParseError):
        Card.parse(text)


def test_cards_are_frozen_hashable_values() -> None:
    card = Card.parse("Qh")
    with pytest.raises(AttributeError):
        card.rank = Rank.KING  # type: ignore[misc]
    assert {card: 1}[Card(Rank.QUEEN, Suit.HEARTS)] == 1
    assert Suit.HEARTS.is_red and not Suit.SPADES.is_red


@given(st.integers(min_value=0))
def test_a_seeded_shuffle_is_a_reproducible_permutation(seed: int) -> None:
    deck = shuffled_deck(random.Random(seed))
    assert sorted(deck) == sorted(CARDS)
    assert deck == shuffled_deck(random.Random(seed))


def test_the_default_shuffle_uses_the_system_source() -> None:
    assert shuffled_deck() != shuffled_deck()  # 1 in 52! of a false failure
