"""Verifiable shuffles: a commitment published before play, checked after the round.

The recipe, so anyone can check a round by hand:

    commitment = SHA-256( salt_hex + ":" + deck )   (lowercase hex digest)

where `salt_hex` is the salt as lowercase hex and `deck` is the 52 cards in deal order, each as
two characters (rank `23456789TJQKA`, suit `cdhs`) with nothing between them, e.g.
`AsKd7h...`. On a shell: `printf '%s' "SALT:DECK" | sha256sum`.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from rules.cards import CARDS, Card, CardParseError, parse_cards

SALT_BYTES = 16


class DeckError(ValueError):
    """A deck that is not an ordering of the 52 cards, or a salt that is not hex."""


@dataclass(frozen=True, slots=True)
class DealProof:
    """A finished deal's fairness proof: anyone can check sha256(salt + deck) == commitment.
    Both games publish one per deal (`round` is 1 for six-card poker's single deal)."""

    round: int
    commitment: str
    salt: str  # lowercase hex
    deck: tuple[Card, ...]


def new_salt(rng: random.Random | None = None) -> bytes:
    """A fresh random salt (16 bytes): `secrets` by default, a seeded Random in tests."""
    if rng is None:
        return secrets.token_bytes(SALT_BYTES)
    return bytes(rng.getrandbits(8) for _ in range(SALT_BYTES))


def deck_text(deck: Sequence[Card]) -> str:
    return "".join([c.code for c in deck])


_ALL = frozenset(CARDS)


def check_deck(deck: Sequence[Card]) -> tuple[Card, ...]:
    cards = tuple(deck)
    if len(cards) != 52 or _ALL.difference(cards):
        raise DeckError("a deck must hold each of the 52 cards exactly once")
    return cards


def commitment(deck: Sequence[Card], salt: bytes) -> str:
    return commitment_of(deck_text(check_deck(deck)), salt)


def commitment_of(deck_code: str, salt: bytes) -> str:
    """The commitment to a deck given as its 104-character text (already checked)."""
    return hashlib.sha256(f"{salt.hex()}:{deck_code}".encode("ascii")).hexdigest()


def parse_salt(text: str) -> bytes:
    try:
        salt = bytes.fromhex(text.strip())
    except ValueError as exc:
        raise DeckError("the salt must be hexadecimal") from exc
    if not salt:
        raise DeckError("the salt is empty")
    return salt


def verify(commitment_hex: str, salt_hex: str, deck: str | Sequence[Card]) -> bool:
    """True when the revealed salt and deck order match the published commitment.
    Malformed input is simply not a match."""
    try:
        cards = parse_cards(deck) if isinstance(deck, str) else tuple(deck)
        expected = commitment(cards, parse_salt(salt_hex))
    except (DeckError, CardParseError):
        return False
    return hmac.compare_digest(expected, commitment_hex.strip().lower())
