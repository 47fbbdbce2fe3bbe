"""Six-card poker's numbers add up (issue 11, item 8): each settled box's caption line shows its
own net (stakes, winnings and every fee paid for it: a sixth card, a replace, the dealer's game)
and the balance after it, starting from the balance before the game and ending at the final
one; and the dealer's game is not offered when the balance cannot pay it."""

from __future__ import annotations

import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.i18n import Translator, mention_html, translator
from bot.sixcard.captions import caption
from bot.sixcard.keyboards import game_keyboard
from rules.cards import CARDS, Card, parse_cards, shuffled_deck
from rules.sixcard import (
    Buy,
    DealerGame,
    Fold,
    Play,
    Replace,
    SixCardGame,
    SixCardView,
    SixPhase,
)

EN, RU = translator("en"), translator("ru")
NAME = mention_html(42, "Alice")
DEALER_PAIR = "2c 2d 7h 9s Jc"
DEALER_NONE = "Ac Jd 8h 5s 3c"

START = {"en": re.compile(r"^Balance before the game: (\d+)$", re.MULTILINE),
         "ru": re.compile(r"^Баланс до игры: (\d+)$", re.MULTILINE)}
BOX = {"en": re.compile(r"^Box (\d) · .* · ([+−±]?\d+) → (\d+)$", re.MULTILINE),
       "ru": re.compile(r"^Бокс (\d) · .* · ([+−±]?\d+) → (\d+)$", re.MULTILINE)}
RESULT = {"en": re.compile(r"^Result: ([+−±]?\d+) · balance (\d+)$", re.MULTILINE),
          "ru": re.compile(r"^Итог: ([+−±]?\d+) · баланс (\d+)$", re.MULTILINE)}


def deck(*boxes: str, dealer: str, draws: str = "") -> tuple[Card, ...]:
    head = [c for h in (*boxes, dealer, draws) for c in parse_cards(h)]
    return (*head, *(c for c in CARDS if c not in set(head)))


def game(*boxes: str, antes: tuple[int, ...] | None = None, balance: int = 1000,
         dealer: str = DEALER_PAIR, draws: str = "") -> SixCardGame:
    g = SixCardGame.new(antes or (10,) * len(boxes), balance)
    g.deal(deck(*boxes, dealer=dealer, draws=draws), b"salt")
    return g


def plain(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


def chips(text: str) -> int:
    return int(text.replace("−", "-").lstrip("+±"))


def text_of(view: SixCardView, tr: Translator = EN) -> str:
    return plain(caption(tr, view, NAME))


def box_lines(text: str, lang: str = "en") -> list[str]:
    prefix = "Box " if lang == "en" else "Бокс "
    return [line for line in text.splitlines() if line.startswith(prefix) and "→" in line]


def adds_up(view: SixCardView, lang: str) -> list[tuple[int, int, int]]:
    """The caption's (box, net, balance after) lines, checked to run from the balance before
    the game through each box's net to the result; returned for closer looks."""
    text = text_of(view, translator(lang))
    start = START[lang].search(text)
    result = RESULT[lang].search(text)
    assert start and result, text
    rows = [(int(b), chips(n), int(after)) for b, n, after in BOX[lang].findall(text)]
    assert [b for b, _, _ in rows] == [b.box + 1 for b in view.boxes], text
    balance = int(start[1])
    assert balance == view.start_balance
    for _, net, after in rows:
        balance += net
        assert after == balance, text
    assert balance == int(result[2]) == view.balance, text
    assert sum(net for _, net, _ in rows) == chips(result[1]) == view.net, text
    return rows


# --- one, two and three boxes ------------------------------------------------------------------


def test_one_box_with_a_buy_and_a_replace_counts_both_fees() -> None:
    # 3 4 8 9 K buys the K♠ (fee 10), drops the 3♦ for the K♣ (fee 20): three kings beat the
    # dealer's twos, ante 1:1 (+10) and bet 3:1 (+60), less the fees (30): +40.
    g = game("3d 4h 8c 9d Kh", draws="Ks Kc")
    g.apply(Buy())
    g.apply(Replace(0))
    g.apply(Play())
    view = g.public_view()
    assert adds_up(view, "en") == [(1, 40, 1040)]
    assert adds_up(view, "ru") == [(1, 40, 1040)]
    text = text_of(view)
    assert "Balance before the game: 1000" in text
    assert "Box 1 · Three of a kind beats one pair: ante 1:1, bet 3:1 · fees 30 · +40 → 1040" \
        in text.splitlines()
    assert "Result: +40 · balance 1040" in text
    ru = text_of(view, RU)
    assert "Баланс до игры: 1000" in ru
    assert "доплаты 30 · +40 → 1040" in ru


def test_two_boxes_a_fold_after_a_buy_and_a_push() -> None:
    # Box 1 buys (10) and folds: its ante and the fee, −20. Box 2 ties the dealer: ±0.
    g = game("3d 4h 8c 9d Kh", "2h 2s 7d 9c Jd", balance=500, draws="5c")
    g.apply(Buy())
    g.apply(Fold())
    g.apply(Play())
    view = g.public_view()
    assert adds_up(view, "en") == [(1, -20, 480), (2, 0, 480)]
    adds_up(view, "ru")
    lines = box_lines(text_of(view))
    assert lines == [
        "Box 1 · High card: folded · fees 10 · −20 → 480",
        "Box 2 · One pair ties one pair: stakes back · ±0 → 480",
    ]


def test_three_boxes_with_the_dealers_game_a_fold_and_the_blind_box() -> None:
    # The dealer has ace high. Box 1 plays and buys the dealer a game (10); the dealer drops
    # the 2♦ and draws the 7♥: still no game, box 1's stakes come back, less the fee: −10.
    # Box 2 folds: −10. The blind box 3 (ante 5) is paid 1:1 against the first five: +5.
    g = game("Kc Kh 9d 6s 4c", "8c 6h 5d 3c 2h", "Td Tc 7s 4h 3d", antes=(10, 10, 5),
             dealer="As Jd 9h 5c 2d", draws="7h")
    g.apply(Play())
    g.apply(Fold())
    g.apply(DealerGame(True))
    g.apply(DealerGame(False))
    view = g.public_view()
    assert adds_up(view, "en") == [(1, -10, 990), (2, -10, 980), (3, 5, 985)]
    adds_up(view, "ru")
    assert box_lines(text_of(view)) == [
        "Box 1 · One pair: still no game for the dealer, stakes back · fees 10 · −10 → 990",
        "Box 2 · High card: folded · −10 → 980",
        "Box 3 · One pair: no game for the dealer, ante paid 1:1 · +5 → 985",
    ]
    assert box_lines(text_of(view, RU), "ru") == [
        "Бокс 1 · Пара: у дилера так и нет игры, ставки возвращаются · доплаты 10 · −10 → 990",
        "Бокс 2 · Старшая карта: сброс · −10 → 980",
        "Бокс 3 · Пара: у дилера нет игры, анте 1:1 · +5 → 985",
    ]


def test_the_view_running_balance_matches_the_caption() -> None:
    g = game("3d 4h 8c 9d Kh", "3s 4s 8h 6d Qh", "Ad Ah 5d 5h 6c", antes=(10, 10, 10))
    assert g.public_view().running == ()  # nothing settled yet
    g.apply(Fold())
    g.apply(Play())
    view = g.public_view()
    assert [(r.box, r.net, r.fees, r.balance) for r in view.running] == [
        (0, -10, 0, 990), (1, -30, 0, 960), (2, 50, 0, 1010)]
    assert adds_up(view, "en") == [(1, -10, 990), (2, -30, 960), (3, 50, 1010)]


# --- the dealer's game the balance cannot pay --------------------------------------------------


def short_of_the_dealers_game() -> SixCardView:
    # 30 covers the ante and the bet; after them the balance holds 0 and the game costs 10.
    g = game("Kd Kh 8c 9d 2h", balance=30, dealer=DEALER_NONE)
    g.apply(Play())
    view = g.public_view()
    assert view.phase is SixPhase.DEALER_GAME and view.balance == 0
    assert view.legal == ("n",)
    return view


def test_no_question_when_the_dealers_game_cannot_be_paid() -> None:
    view = short_of_the_dealers_game()
    text = text_of(view)
    assert "buy the dealer a game" not in text.lower() and "?" not in text
    assert ("Box 1: buying the dealer a game costs 10 and the balance holds 0, so the box is "
            "settled as no game: ante paid 1:1, bet returned.") in text
    ru = text_of(view, RU)
    assert "купить дилеру игру за" not in ru.lower() and "?" not in ru
    assert ("Бокс 1: игра для дилера стоит 10, а на балансе 0 — купить её не на что. Анте "
            "выплачивается 1:1, ставка возвращается.") in ru


def test_the_keyboard_offers_only_the_settlement_when_the_game_cannot_be_paid() -> None:
    view = short_of_the_dealers_game()
    for tr, label in ((EN, "Settle: ante 1:1"), (RU, "Рассчитать: анте 1:1")):
        markup = game_keyboard(tr, 5, 3, view)
        assert markup is not None
        assert [[b.text for b in row] for row in markup.inline_keyboard] == [[label]]
        assert [b.callback_data for row in markup.inline_keyboard for b in row] == ["x:5:3:n"]


def test_an_affordable_offer_is_still_asked() -> None:
    g = game("Kd Kh 8c 9d 2h", balance=40, dealer=DEALER_NONE)
    g.apply(Play())
    view = g.public_view()
    assert view.legal == ("g", "n") and view.balance == 10
    assert "Box 1: buy the dealer a game for 10?" in text_of(view)


# --- a property over random games ------------------------------------------------------------


@st.composite
def games(draw: st.DrawFn) -> tuple[tuple[int, ...], int, int]:
    ante = st.one_of(st.integers(1, 5), st.integers(1, 100))
    antes = tuple(draw(st.lists(ante, min_size=1, max_size=3)))
    balance = SixCardGame.cover(antes) + draw(st.integers(0, 6 * max(antes)))
    return antes, balance, draw(st.integers(0, 2**32 - 1))


@settings(max_examples=150, deadline=None)
@given(games())
def test_the_box_nets_add_up_to_the_game_in_every_random_game(
        setup: tuple[tuple[int, ...], int, int]) -> None:
    antes, balance, seed = setup
    rng = random.Random(seed)
    g = SixCardGame.new(antes, balance)
    g.deal(shuffled_deck(rng), b"s")
    while not g.is_over:
        view = g.public_view()
        if view.phase is SixPhase.DEALER_GAME and "g" not in view.legal:
            assert "?" not in text_of(view) and "?" not in text_of(view, RU)
            markup = game_keyboard(EN, 1, 1, view)
            assert markup is not None
            assert [[b.text for b in r] for r in markup.inline_keyboard] == [["Settle: ante 1:1"]]
        g.apply(rng.choice(g.legal_actions()))
    view = g.public_view()
    running = view.running
    assert [r.box for r in running] == list(range(len(antes)))
    assert sum(r.net for r in running) == view.balance - view.start_balance
    assert running[-1].balance == view.balance
    assert all(r.fees == box.fees for r, box in zip(running, view.boxes, strict=True))
    for lang in ("en", "ru"):
        rows = adds_up(view, lang)
        assert sum(net for _, net, _ in rows) == view.balance - view.start_balance
        assert rows[-1][2] == view.balance
