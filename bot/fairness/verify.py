"""Checking a round's deck against the commitment published before play, pure.

`claim(commitment, salt, deck)` reads what someone typed (or what a message shows) and raises
`Malformed` naming the part that is not well formed; `Claim.holds` is `rules.fairness.verify`.
`proof_parts(text)` finds a commitment, a salt and a deck order in a message's text. The bot's
/verify and the `sixshooter verify` command line both go through here.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass

from bot.common.refusal import Refusal, Refused
from rules import fairness
from rules.cards import Card, CardParseError, parse_cards
from rules.fairness import SALT_BYTES, DeckError, check_deck, deck_text, parse_salt, verify

COMMITMENT = re.compile(r"(?<![0-9a-fA-F])[0-9a-fA-F]{64}(?![0-9a-fA-F])")
SALT = re.compile(rf"(?<![0-9a-fA-F])[0-9a-fA-F]{{{2 * SALT_BYTES}}}(?![0-9a-fA-F])")
DECK = re.compile(r"(?<![0-9A-Za-z])(?:[2-9TJQKA][cdhs]){52}(?![0-9A-Za-z])")


class Malformed(Refused):
    """Input that is not a commitment, salt or deck order: its `refusal` is the text to show
    in a chat, its message the line for the command line."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(Refusal(key))
        self.args = (message,)


@dataclass(frozen=True, slots=True)
class Claim:
    commitment: str  # 64 lowercase hex digits
    salt: str  # lowercase hex
    deck: tuple[Card, ...]  # the 52 cards in deal order

    @property
    def holds(self) -> bool:
        return verify(self.commitment, self.salt, self.deck)

    @property
    def deck_text(self) -> str:
        return deck_text(self.deck)


def claim(commitment: str, salt: str, deck: str) -> Claim:
    """A well-formed claim, or `Malformed` saying which part is not."""
    c = commitment.strip().lower()
    if not COMMITMENT.fullmatch(c):
        raise Malformed("verify.bad_commitment",
                        "the commitment must be 64 hexadecimal digits (a SHA-256 digest)")
    try:
        s = parse_salt(salt).hex()
    except DeckError as e:
        raise Malformed("verify.bad_salt", "the salt must be hexadecimal digits") from e
    try:
        cards = check_deck(parse_cards(deck))
    except (CardParseError, DeckError) as e:
        raise Malformed("verify.bad_deck",
                        "the deck order must be the 52 cards, each once, as rank and suit "
                        "(23456789TJQKA, cdhs), e.g. AsKd7h...") from e
    return Claim(c, s, cards)


def claim_from_args(args: list[str]) -> Claim:
    """`COMMITMENT SALT DECK`, the deck in one word or spread over several."""
    if len(args) < 3:
        raise Malformed("verify.usage", "expected COMMITMENT SALT DECK")
    return claim(args[0], args[1], " ".join(args[2:]))


@dataclass(frozen=True, slots=True)
class Parts:
    """What a message shows of a round's proof (each part None when absent)."""

    commitment: str | None
    salt: str | None
    deck: str | None


def proof_parts(text: str) -> Parts:
    """The commitment, salt and deck order written in `text` (the bot's captions show the
    commitment on a round's first bullet, the salt and deck on its last)."""
    deck = DECK.search(text)
    rest = DECK.sub(" ", text)
    commitment = COMMITMENT.search(rest)
    salt = SALT.search(COMMITMENT.sub(" ", rest))
    return Parts(commitment.group(0).lower() if commitment else None,
                 salt.group(0).lower() if salt else None,
                 deck.group(0) if deck else None)


USAGE = "usage: sixshooter verify COMMITMENT SALT DECK"


def cli(args: list[str]) -> int:
    """`sixshooter verify COMMITMENT SALT DECK`: 0 when the deck and salt match the
    commitment, 1 when they do not, 2 when the input is malformed."""
    if len(args) < 3 or args[0] in ("-h", "--help"):
        print(USAGE, file=sys.stderr)
        print("Checks that SHA-256(SALT + ':' + DECK) is COMMITMENT, as published before the "
              "round (see rules/fairness.py).", file=sys.stderr)
        return 0 if args[:1] in (["-h"], ["--help"]) else 2
    try:
        c = claim_from_args(args)
    except Malformed as e:
        print(f"sixshooter verify: {e}\n{USAGE}", file=sys.stderr)
        return 2
    if c.holds:
        print(f"match: this salt and deck order give the commitment {c.commitment}")
        return 0
    actual = fairness.commitment(c.deck, bytes.fromhex(c.salt))
    print(f"MISMATCH: this salt and deck order give {actual}, not {c.commitment}")
    return 1
