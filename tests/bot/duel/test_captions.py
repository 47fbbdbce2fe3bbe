"""A showdown's reveal names what decided it (issue 11, item 5): the winner's hand with its
ranks beats the loser's (by category or by rank), the same hand with a higher kicker, or equal
hands that split. In English and in Russian, with Анна and Дмитрий (Russian keeps the names in
the nominative: «Анна: пара дам — сильнее пары двоек (Дмитрий)»)."""

from __future__ import annotations

import re

import pytest

from bot.duel.captions import Seat, reveal_caption
from bot.i18n import Texts, Translator
from rules.cards import Rank
from rules.duel import DuelState, Outcome
from tests.rules.duel.helpers import SALT, bets, deck_with

SEATS = (Seat(1, "Анна"), Seat(2, "Дмитрий"))


@pytest.fixture(scope="module")
def texts() -> Texts:
    return Texts.load(strict=True)


def plain(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


def showdown(anna: str, dmitry: str, tr: Translator) -> tuple[list[str], Outcome]:
    """Bullet 1 played to a showdown, Анна (the dealer) holding `anna`, Дмитрий `dmitry`:
    the reveal's lines, as plain text, and the bullet's outcome."""
    state = DuelState.new(50, first_dealer=0)
    state.deal(deck_with(anna, dmitry), SALT)
    bets(state, (1, 2), (0, 2))  # Дмитрий (the opponent) plays hand #2, Анна hand #1
    view = state.public_view()
    result = view.results[0]
    return plain(reveal_caption(tr, view, result, SEATS)).splitlines(), result.outcome


# (Анна's hand, Дмитрий's hand, the English line, the Russian line)
CASES = [
    ("Qs Qd 7c 4h 3s", "2c 2d Ac Kh Js",
     "Анна's pair of queens beats Дмитрий's pair of twos.",
     "Анна: пара дам — сильнее пары двоек (Дмитрий)."),
    ("2c 2d 7c 4h 3s", "Ac Kd Qc Jh 9s",
     "Анна's pair of twos beats Дмитрий's ace high.",
     "Анна: пара двоек — сильнее старшей карты туз (Дмитрий)."),
    ("Ac Kd Qc Jh 9s", "2c 2d 7c 4h 3s",
     "Дмитрий's pair of twos beats Анна's ace high.",
     "Дмитрий: пара двоек — сильнее старшей карты туз (Анна)."),
    ("Qs Qd 9c 4h 2s", "Qc Qh 8c 7h 6s",
     "Анна wins on the higher kicker: pair of queens each.",
     "У обоих пара дам: старший кикер — Анна."),
    ("Kh Kd 5c 5s 2h", "Kc Ks 4c 4s Ah",
     "Анна's two pair of kings and fives beats Дмитрий's two pair of kings and fours.",
     "Анна: две пары королей и пятёрок — сильнее двух пар королей и четвёрок (Дмитрий)."),
    ("5c 4s 3d 2c Ah", "Kc Ks Kd 9d 8h",
     "Анна's five-high straight beats Дмитрий's three kings.",
     "Анна: стрит до пятёрки — сильнее тройки королей (Дмитрий)."),
    ("6h 5d 4c 3h 2s", "5h 4d 3c 2h Ad",
     "Анна's six-high straight beats Дмитрий's five-high straight.",
     "Анна: стрит до шестёрки — сильнее стрита до пятёрки (Дмитрий)."),
    ("Jh Jd Jc 8s 8h", "As Ks 9s 6s 3s",
     "Анна's full house (jacks full of eights) beats Дмитрий's ace-high flush.",
     "Анна: фулл-хаус из трёх валетов и двух восьмёрок — сильнее флеша до туза (Дмитрий)."),
]


@pytest.mark.parametrize(("anna", "dmitry", "en", "ru"), CASES)
def test_a_showdown_names_what_decided_it(texts: Texts, anna: str, dmitry: str, en: str,
                                          ru: str) -> None:
    en_lines, outcome = showdown(anna, dmitry, texts["en"])
    ru_lines, _ = showdown(anna, dmitry, texts["ru"])
    assert outcome is Outcome.SHOWDOWN
    assert en in en_lines and ru in ru_lines
    winner = en.split("'s")[0] if "'s" in en else en.split(" wins")[0]
    # The chips line follows it, with no second "better hand".
    assert en_lines[en_lines.index(en) + 1].startswith(f"{winner} wins ")
    assert ru_lines[ru_lines.index(ru) + 1].startswith(f"{winner} забирает ")


def test_four_of_a_kind_and_a_straight_flush(texts: Texts) -> None:
    lines, _ = showdown("9c 9d 9h 9s Ah", "8s 7s 6s 5s 4s", texts["en"])
    assert "Дмитрий's eight-high straight flush beats Анна's four nines." in lines
    lines, _ = showdown("9c 9d 9h 9s Ah", "8s 7s 6s 5s 4s", texts["ru"])
    assert "Дмитрий: стрит-флеш до восьмёрки — сильнее каре девяток (Анна)." in lines
    lines, _ = showdown("Ah Kh Qh Jh Th", "9c 9d 9h 9s 2c", texts["ru"])
    assert "Анна: роял-флеш — сильнее каре девяток (Дмитрий)." in lines


def test_a_split_says_the_hands_are_equal(texts: Texts) -> None:
    lines, outcome = showdown("5c 4s 3d 2c Ah", "5h 4d 3c 2h Ad", texts["en"])
    assert outcome is Outcome.SPLIT
    assert "Equal hands, five-high straight each: the pot is split." in lines
    assert not any("beats" in line or "wins" in line for line in lines)
    lines, _ = showdown("Qs Qd 9c 5h 2s", "Qc Qh 9d 5d 2d", texts["ru"])
    assert "Руки равны, у обоих пара дам: банк делится пополам." in lines


def test_every_rank_has_its_words(texts: Texts) -> None:
    """The genitive plural after «пара» (and the plural after "pair of"), the genitive singular
    after «до», the nominative singular after «старшая карта», for all 13 ranks."""
    ru, en = texts["ru"], texts["en"]
    of = [ru.t(f"rank.of.{r.name.lower()}") for r in Rank]
    assert of == ["двоек", "троек", "четвёрок", "пятёрок", "шестёрок", "семёрок", "восьмёрок",
                  "девяток", "десяток", "валетов", "дам", "королей", "тузов"]
    assert [ru.t(f"rank.to.{r.name.lower()}") for r in Rank][-4:] == [
        "валета", "дамы", "короля", "туза"]
    assert [ru.t(f"rank.one.{r.name.lower()}") for r in Rank][-4:] == [
        "валет", "дама", "король", "туз"]
    assert [en.t(f"rank.of.{r.name.lower()}") for r in Rank][::4] == [
        "twos", "sixes", "tens", "aces"]
    assert en.t("rank.to.six") == en.t("rank.one.six") == "six"
