"""The four-colour deck (a chat's setting) is a parameter of each picture: ♦ blue, ♣ green,
♠ and ♥ as in the classic deck, the classic deck by default."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

from bot.i18n import translator
from render import Deck, sixcard, sprites
from render import palette as P
from render.duel import preview as duel_preview
from render.sixcard import preview as six_preview
from rules.cards import Card, Rank, Suit


def near(im: Image.Image, colour: P.RGB, within: int = 30) -> int:
    """How many pixels of `im` are within `within` of `colour` on every channel."""
    px = np.asarray(im.convert("RGB")).astype(int)
    return int((np.abs(px - np.array(colour)).max(axis=2) <= within).sum())


def test_a_face_takes_its_suits_colour_from_the_deck() -> None:
    for suit, four in ((Suit.CLUBS, P.GREEN), (Suit.DIAMONDS, P.BLUE)):
        card = Card(Rank.SEVEN, suit)
        assert near(sprites.face(card, deck=Deck.FOUR), four) > 200
        assert near(sprites.face(card), four) == 0
        assert near(sprites.face(card, deck=Deck.CLASSIC), four) == 0
    for suit in (Suit.SPADES, Suit.HEARTS):  # the same in both decks
        card = Card(Rank.SEVEN, suit)
        assert sprites.face(card, deck=Deck.FOUR).tobytes() == sprites.face(card).tobytes()


def _duel(stem: str) -> bytes:
    return next(make() for s, _, make in duel_preview.shots("png", translator) if s == stem)


def test_the_duels_pictures_in_four_colours_show_blue_and_green_suits() -> None:
    for kind in ("table", "reveal", "result"):
        four = Image.open(io.BytesIO(_duel(f"32_four_colour_{kind}")))
        assert near(four, P.GREEN, 20) > 50, kind
        assert near(four, P.BLUE, 20) > 50, kind
    classic = Image.open(io.BytesIO(_duel("31_table_folded_en")))
    assert near(classic, P.GREEN, 20) == 0 and near(classic, P.BLUE, 20) == 0


def test_the_sixcard_picture_takes_the_deck_and_is_classic_by_default() -> None:
    stem, _, view, lang, name = next(s for s in six_preview.scenes()
                                     if s[2].dealer_cards is not None)
    labels = translator(lang)
    default = sixcard(view, name=name, labels=labels, fmt="png")
    assert sixcard(view, name=name, labels=labels, deck=Deck.CLASSIC, fmt="png") == default
    four = sixcard(view, name=name, labels=labels, deck=Deck.FOUR, fmt="png")
    assert four != default, stem
    assert four == sixcard(view, name=name, labels=labels, deck=Deck.FOUR, fmt="png")  # pure
