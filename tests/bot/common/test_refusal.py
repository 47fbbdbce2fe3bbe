"""One Refusal for every game and command: a catalog key and its values, said in the language of
whoever is answered, logged by its key."""

from __future__ import annotations

import pytest

from bot.common.refusal import Refusal, Refused
from bot.duel.challenges import BadDuelCommand
from bot.duel.service import STALE
from bot.i18n import translator
from bot.sixcard.args import BadArgs, parse_args
from bot.sixcard.service import STALE as SIXCARD_STALE


def test_a_refusal_is_its_key_and_values() -> None:
    r = Refusal.of("sixcard.error_boxes", boxes=5, most=3)
    assert r == Refusal.of("sixcard.error_boxes", boxes=5, most=3)
    assert str(r) == "sixcard.error_boxes"
    assert r.text(translator("en")) == "Play 1 to 3 boxes, not 5."
    assert STALE.text(translator("en")) != SIXCARD_STALE.text(translator("en"))


def test_parsers_raise_one_kind_of_refusal() -> None:
    with pytest.raises(Refused) as caught:
        parse_args(["5"])
    assert isinstance(caught.value, BadArgs)
    assert caught.value.refusal == Refusal.of("sixcard.error_boxes", boxes=5, most=3)
    assert isinstance(BadDuelCommand("error.bad_args"), Refused)
    assert BadDuelCommand("error.bad_args").refusal == Refusal("error.bad_args")
