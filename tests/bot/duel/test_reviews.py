"""The review's words: each player's accuracy and luck (a real minus sign), the worst move
with the better one and what it cost, and a move costing under half a percent not called a
mistake; in English and Russian (names in the nominative)."""

from __future__ import annotations

import re

from bot.duel.reviews import review_text
from bot.i18n import Texts
from rules.duel import Bet
from rules.duel.review import Mistake, PlayerReview, Review


def plain(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


REVIEW = Review((
    PlayerReview(5, 87.2, -0.51, Mistake(4, Bet(4, 2), Bet(1, 1), 0.18)),
    PlayerReview(5, 99.4, 0.51, Mistake(2, Bet(0, 2), Bet(3, 2), 0.004)),
))


def test_the_review_says_accuracy_luck_and_the_worst_move() -> None:
    texts = Texts.load(strict=True)
    en = plain(review_text(texts["en"], ("Alice", "Bob"), REVIEW)).splitlines()
    assert en[1] == "Alice: accuracy 87% · luck −51%"
    assert en[2].strip() == ("worst move: bullet 4, #5 with 2 chips instead of #2 with 1 chip "
                             "(−18% to win the duel)")
    assert en[3] == "Bob: accuracy 99% · luck +51%"
    assert en[4].strip() == "no move cost a chance to win"  # 0.4%: not called a mistake
    ru = plain(review_text(texts["ru"], ("Анна", "Дмитрий"), REVIEW)).splitlines()
    assert ru[1] == "Анна: точность 87% · удача −51%"
    assert ru[2].strip() == ("худший ход: пуля 4, №5 (2 фишки) вместо №2 (1 фишка) "
                             "(−18% к шансу выиграть дуэль)")
    assert Review.from_json(REVIEW.to_json()) == REVIEW
