"""The colours that must tell things apart still do with deuteranopia and protanopia
(tests/render/cvd.py: Machado 2009, CIEDE2000): each pair of suit colours a deck uses, each suit
on a card's white, and the two players' colours with each other and on the felt and panels.
The colours come from render.palette, so a colliding choice there fails here."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from PIL import Image

from render import palette as P
from rules.cards import Suit
from tests.render.cvd import KINDS, delta_e, simulate, simulate_image

VISIONS = ("normal", *KINDS)
APART = 20.0  # CIEDE2000: two small signs on a phone told apart at a glance
ON_GROUND = 20.0  # a sign or a player's colour against what it is drawn on


def seen(colour: P.RGB, vision: str) -> P.RGB:
    return colour if vision == "normal" else simulate(colour, vision)


@pytest.mark.parametrize("vision", VISIONS)
@pytest.mark.parametrize("deck", list(P.Deck))
def test_each_suit_colour_stays_apart_from_the_others_and_the_card(deck: P.Deck,
                                                                   vision: str) -> None:
    colours = {P.suit_colour(s, deck) for s in Suit}
    assert len(colours) == (4 if deck is P.Deck.FOUR else 2)
    for a, b in itertools.combinations(sorted(colours), 2):
        assert delta_e(seen(a, vision), seen(b, vision)) >= APART, (deck, vision, a, b)
    for c in colours:
        assert delta_e(seen(c, vision), seen(P.CARD, vision)) >= ON_GROUND, (deck, vision, c)


@pytest.mark.parametrize("vision", VISIONS)
def test_the_players_colours_stay_apart_and_on_the_felt(vision: str) -> None:
    a, b = P.PLAYER
    assert delta_e(seen(a, vision), seen(b, vision)) >= APART
    for c in P.PLAYER:
        for ground in (P.FELT, P.PANEL):
            assert delta_e(seen(c, vision), seen(ground, vision)) >= ON_GROUND, (c, ground)


def test_the_check_sees_the_usual_four_colour_decks_collision() -> None:
    red, green = (206, 24, 40), (0, 140, 60)  # hearts and a plain green for clubs
    assert delta_e(red, green) > 60
    assert delta_e(simulate(red, "deuteranopia"), simulate(green, "deuteranopia")) < APART / 2


def test_the_simulation_keeps_greys_and_merges_red_and_green() -> None:
    im = Image.new("RGB", (3, 1))
    im.putdata([(128, 128, 128), (200, 0, 0), (0, 150, 0)])
    for kind in KINDS:
        grey, red, green = (tuple(int(v) for v in px)
                            for px in np.asarray(simulate_image(im, kind))[0])
        assert max(abs(v - 128) for v in grey) <= 2
        assert abs(red[0] - red[1]) < abs(200 - 0)  # red loses its redness
        assert delta_e(red, green) < delta_e((200, 0, 0), (0, 150, 0))  # type: ignore[arg-type]
