"""Deck commitments: published before play, checkable by anyone after the round."""

from __future__ import annotations

import hashlib
import random

import pytest

from rules.cards import shuffled_deck
from rules.fairness import DeckError, commitment, deck_text, new_salt, verify


def test_the_commitment_follows_the_documented_recipe() -> None:
    deck = shuffled_deck(random.Random(7))
    salt = new_salt(random.Random(7))
    text = f"{salt.hex()}:{deck_text(deck)}"
    assert commitment(deck, salt) == hashlib.sha256(text.encode()).hexdigest()
    assert len(deck_text(deck)) == 104


def test_a_true_round_verifies_and_any_tampering_fails() -> None:
    deck = shuffled_deck(random.Random(1))
    salt = new_salt(random.Random(2))
    c = commitment(deck, salt)
    assert verify(c, salt.hex(), deck)
    assert verify(c.upper(), salt.hex(), deck_text(deck))
    swapped = list(deck)
    swapped[0], swapped[1] = swapped[1], swapped[0]
    assert not verify(c, salt.hex(), swapped)
    assert not verify(c, (bytes([salt[0] ^ 1]) + salt[1:]).hex(), deck)
    assert not verify(c, "not hex", deck)
    assert not verify(c, salt.hex(), deck_text(deck)[:-2])
    assert not verify(c, salt.hex(), "garbage")


def test_a_deck_must_be_the_52_cards() -> None:
    deck = shuffled_deck(random.Random(3))
    with pytest.raises(DeckError):
        commitment(deck[:-1], b"x")
    with pytest.raises(DeckError):
        commitment((*deck[:-1], deck[0]), b"x")
