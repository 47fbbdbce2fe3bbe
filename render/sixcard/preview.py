"""A picture of every moment of six-card poker, so anyone can look at them; written with the
others by `python -m render.preview OUTDIR [--fmt jpeg|png]`.

Plays real games (rules.sixcard.game.SixCardGame) on crafted decks, so every view is a real one:
a fresh deal with one box, a sixth card bought, a card replaced, the dealer's reveal that
qualifies and a full house paid 7:1; three boxes with the blind third, settled won, lost and
push; a dealer with no game and the offer to buy it one, its replace that still misses (stakes
returned, a fold, a no-game payout); an offer the balance cannot pay (no question asked); a
replace that makes the dealer qualify; and a long Cyrillic name with emoji.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from render.sixcard.table import sixcard
from render.text import Labels
from rules.cards import CARDS, Card, parse_cards
from rules.sixcard.actions import parse_action
from rules.sixcard.game import SixCardGame
from rules.sixcard.view import SixCardView

NAME = "Алиса"
LONG = "Александра Константиновна Преображенская-Старшая 🌸🎲"

Shot = tuple[str, str, Callable[[], bytes]]  # file stem, what it shows, the picture

# Each game: the antes, the cards in the order they are dealt (box 1's five, box 2's, box 3's,
# the dealer's five with the face-up card last, then every card drawn later), and the actions.
ONE_BOX = ((10,), "Ah Kd 7s 7c 2d  9c 9d 4h 3s Qc  Kh Ks")
THREE_BOXES = ((10, 5, 20), "As Ad Ac 8h 2c  Jh 9s 6d 4c 3h  Qd Qc 7h 5s 2h  Qs Qh 7d 5c 2s")
NO_GAME = ((10, 10, 5), "Kc Kh 9d 6s 4c  8c 6h 5d 3c 2h  Td Tc 7s 4h 3d  As Jd 9h 5c 2d  7h")
SHORT_OF_GAME = ((10,), "Kc Kh 9d 6s 4c  As Jd 9h 5c 2d  7h")
REPLACE_QUALIFIES = ((10, 10), "Qc Qd 8s 6h 4d  Kd Ks 3h 7c 9s  Ac Jh 9c 5s 2c  Jd")


def deck(cards: str) -> tuple[Card, ...]:
    """A deck dealing `cards` first, then the rest in the usual order."""
    top = parse_cards(cards.replace("  ", " "))
    return (*top, *(c for c in CARDS if c not in top))


def game(setup: tuple[tuple[int, ...], str], actions: Sequence[str] = (),
         balance: int = 1000) -> SixCardGame:
    antes, cards = setup
    g = SixCardGame.new(antes, balance)
    g.deal(deck(cards), b"preview-sixcard")
    for code in actions:
        g.apply(parse_action(code))
    return g


Scene = tuple[str, str, SixCardView, str, str]  # file stem, what it shows, view, lang, name


def scenes() -> list[Scene]:
    out: list[Scene] = []

    def shot(stem: str, what: str, g: SixCardGame, lang: str, name: str = NAME) -> None:
        out.append((stem, what, g.public_view(), lang, name))

    shot("s01_fresh_one_box", "one box, ANTE 10: a pair of sevens to decide, the dealer shows "
         "the queen of clubs on four backs", game(ONE_BOX), "en")
    shot("s02_bought", "a sixth card bought (fee 10): two pair, the king set apart and tagged",
         game(ONE_BOX, "b"), "ru")
    shot("s03_replaced", "the 2♦ replaced (fee 20) by the K♠: a full house, the 2♦ greyed "
         "and struck", game(ONE_BOX, ["b", "r4"]), "en")
    shot("s04_reveal_qualifies", "played: the dealer turns over a pair of nines, qualifies; "
         "the full house wins 7:1", game(ONE_BOX, ["b", "r4", "p"]), "en")
    shot("s05_three_boxes", "three boxes, the third blind (ANTE 20 and BET 40 at once); box 1 "
         "to decide, boxes 2 and 3 face down", game(THREE_BOXES), "en")
    shot("s06_three_boxes_box2", "box 1 played; box 2 to decide, only fold and play affordable "
         "with 12 left", game(THREE_BOXES, ["p"], balance=107), "ru")
    shot("s07_three_settled", "settled: box 1 three aces won 3:1, box 2 lost, the blind box "
         "pushes against equal queens", game(THREE_BOXES, ["p", "p"]), "en")
    shot("s08_no_game_offer", "the dealer has no game (ace high): buy it a game for box 1 "
         "(fee 10)? box 2 folded", game(NO_GAME, ["p", "f"]), "en")
    shot("s09_no_game_offer_box3", "box 1 bought the game; now the offer for the blind box 3",
         game(NO_GAME, ["p", "f", "g"]), "ru")
    shot("s10_dealer_replaced_misses", "the dealer dropped the 2♦, drew the 7♥, still no game: "
         "box 1 stakes returned, box 2 folded, box 3 paid 1:1",
         game(NO_GAME, ["p", "f", "g", "n"]), "en")
    shot("s10_dealer_replaced_misses_ru", "the same in Russian",
         game(NO_GAME, ["p", "f", "g", "n"]), "ru")
    shot("s11_dealer_replaced_qualifies", "box 1 bought the game, the dealer drew a jack and "
         "qualifies: queens win 1:1; box 2 declined and is paid 1:1 against ace high",
         game(REPLACE_QUALIFIES, ["p", "p", "g", "n"]), "en")
    shot("s12_long_name", "a long Cyrillic name with emoji, three boxes mid-game (ru)",
         game(THREE_BOXES, ["p"]), "ru", LONG)
    shot("s13_long_name_over", "the same name when the game is over (en)",
         game(THREE_BOXES, ["p", "p"]), "en", LONG)
    shot("s14_no_game_unaffordable", "the dealer has no game, but the balance (0 after the BET) "
         "cannot pay its game: no question, the box is settled as no game",
         game(SHORT_OF_GAME, ["p"], balance=30), "en")
    shot("s14_no_game_unaffordable_ru", "the same in Russian",
         game(SHORT_OF_GAME, ["p"], balance=30), "ru")
    return out


def shots(fmt: str, labels_for: Callable[[str], Labels]) -> list[Shot]:
    def make(v: SixCardView, lang: str, name: str) -> Callable[[], bytes]:
        return lambda: sixcard(v, name=name, labels=labels_for(lang), fmt=fmt)

    return [(stem, what, make(v, lang, name)) for stem, what, v, lang, name in scenes()]
