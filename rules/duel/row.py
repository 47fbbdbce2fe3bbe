"""The row of six hands of a deal: which hands are free, chosen this bullet or turned over,
and how the table sees them. Pure functions of the deal's deck, its turned-over hands and this
bullet's choices. The deck is hidden information: only what `view` and `cards_out` return (a
hand's face-up card, and all five cards once it is turned over) may be shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules.cards import Card
from rules.duel.actions import IllegalHand
from rules.duel.view import HandState, HandView
from rules.hands import evaluate

HANDS, HAND_SIZE = 6, 5  # hand n (0..5) is cards 5n..5n+4 of the deck; its first card is up

Revealed = Mapping[int, tuple[int, int, bool]]  # position -> owner, chips, won
Choices = Sequence[tuple[int, int, int]]  # this bullet so far: player, position, chips


def hand(deck: Sequence[Card], position: int) -> tuple[Card, ...]:
    """All five cards of a hand (hidden information: never show one not turned over)."""
    return tuple(deck[position * HAND_SIZE : (position + 1) * HAND_SIZE])


def free_positions(revealed: Revealed, choices: Choices) -> list[int]:
    """The hands still in the row and not chosen this bullet."""
    chosen = {pos for _, pos, _ in choices}
    return [p for p in range(HANDS) if p not in revealed and p not in chosen]


def check_hand(position: int, revealed: Revealed, choices: Choices) -> None:
    """Raise the IllegalHand that choosing the hand at `position` would be, or return None."""
    if not isinstance(position, int) or not 0 <= position < HANDS:
        raise IllegalHand(f"there is no hand #{position}")
    if position in revealed:
        raise IllegalHand(f"hand #{position + 1} was already played this round")
    if any(pos == position for _, pos, _ in choices):
        raise IllegalHand(f"hand #{position + 1} is already taken this bullet")


def view(deck: Sequence[Card], revealed: Revealed, choices: Choices) -> tuple[HandView, ...]:
    """The row as the table sees it (empty before the first deal)."""
    if not deck:
        return ()
    chosen = {pos: (player, chips) for player, pos, chips in choices}
    hands: list[HandView] = []
    for p in range(HANDS):
        cards = hand(deck, p)
        if p in revealed:
            owner, chips, won = revealed[p]
            hands.append(HandView(p, cards[0], HandState.REVEALED, owner, chips, cards,
                                  evaluate(cards), won))
        elif p in chosen:
            hands.append(HandView(p, cards[0], HandState.CHOSEN, *chosen[p]))
        else:
            hands.append(HandView(p, cards[0], HandState.AVAILABLE))
    return tuple(hands)


def cards_out(deck: Sequence[Card], reveal_order: Sequence[int]) -> tuple[Card, ...]:
    """The turned-over cards of the deal, in the order they came out."""
    return tuple(c for p in reveal_order for c in hand(deck, p))
