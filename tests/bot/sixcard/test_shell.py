"""Six-card poker's Telegram side without Telegram: the command's arguments, the buttons (exactly
the legal actions, with their costs), the captions (payouts and the running balance), and no
hidden card in any of them."""

from __future__ import annotations

import random
import re

import pytest

from bot.i18n import WAIT, Html, duration, mention_html, translator
from bot.sixcard import payloads
from bot.sixcard.args import BadArgs, parse_args
from bot.sixcard.captions import caption
from bot.sixcard.keyboards import game_keyboard
from bot.telegram import callbacks
from render.text import signed
from rules.cards import CARDS, Card, parse_cards, shuffled_deck
from rules.sixcard import Buy, DealerGame, Fold, Play, Replace, SixCardGame, SixCardView, SixPhase

EN, RU = translator("en"), translator("ru")
NAME = mention_html(42, "Alice")
DEALER_PAIR = "2c 2d 7h 9s Jc"
DEALER_NONE = "Ac Jd 8h 5s 3c"


def deck(*boxes: str, dealer: str, draws: str = "") -> tuple[Card, ...]:
    head = [c for h in (*boxes, dealer, draws) for c in parse_cards(h)]
    return (*head, *(c for c in CARDS if c not in set(head)))


def game(*boxes: str, antes: tuple[int, ...] | None = None, balance: int = 1000,
         dealer: str = DEALER_PAIR, draws: str = "") -> SixCardGame:
    g = SixCardGame.new(antes or (10,) * len(boxes), balance)
    g.deal(deck(*boxes, dealer=dealer, draws=draws), b"salt")
    return g


def labels(view: SixCardView, lang: str = "en") -> list[list[str]]:
    markup = game_keyboard(translator(lang), 5, 3, view)
    return [] if markup is None else [[b.text for b in row] for row in markup.inline_keyboard]


def data(view: SixCardView) -> list[str]:
    markup = game_keyboard(EN, 5, 3, view)
    assert markup is not None
    return [str(b.callback_data) for row in markup.inline_keyboard for b in row]


def plain(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


# --- /sixcard [boxes] [ante...] -----------------------------------------------------------------


@pytest.mark.parametrize(("args", "antes"), [
    ([], (10,)),
    (["1"], (10,)),
    (["2"], (10, 10)),
    (["3", "5"], (5, 5, 5)),
    (["2", "10", "25"], (10, 25)),
    (["3", "1", "100", "7"], (1, 100, 7)),
])
def test_arguments(args: list[str], antes: tuple[int, ...]) -> None:
    assert parse_args(args) == antes


@pytest.mark.parametrize(("args", "key"), [
    (["0"], "sixcard.error_boxes"),
    (["4"], "sixcard.error_boxes"),
    (["25"], "sixcard.error_boxes"),
    (["two"], "sixcard.error_number"),
    (["-1"], "sixcard.error_number"),
    (["1.5"], "sixcard.error_number"),
    (["1", "0"], "sixcard.error_ante"),
    (["1", "101"], "sixcard.error_ante"),
    (["2", "10", "x"], "sixcard.error_number"),
    (["2", "10", "20", "30"], "sixcard.error_ante_count"),
    (["3", "10", "20"], "sixcard.error_ante_count"),
    (["1", "99999999999999"], "sixcard.error_number"),
])
def test_bad_arguments_name_their_explanation(args: list[str], key: str) -> None:
    with pytest.raises(BadArgs) as caught:
        parse_args(args)
    assert caught.value.refusal.key == key
    for tr in (EN, RU):  # the explanation formats with the values given
        assert caught.value.refusal.text(tr)


def test_bad_argument_texts() -> None:
    with pytest.raises(BadArgs) as caught:
        parse_args(["2", "10", "20", "30"])
    assert caught.value.refusal.text(EN) == (
        "Give one ante for all 2 boxes, or one per box (you gave 3).")
    with pytest.raises(BadArgs) as caught:
        parse_args(["5"])
    assert caught.value.refusal.text(EN) == "Play 1 to 3 boxes, not 5."
    with pytest.raises(BadArgs) as caught:
        parse_args(["1", "<b>"])
    assert "&lt;b&gt;" in caught.value.refusal.text(EN)


def test_rebuy_wait_is_in_hours_and_minutes() -> None:
    assert duration(EN, 5 * 3600 + 12 * 60, WAIT) == "5 hours 12 minutes"
    assert duration(EN, 3600, WAIT) == "1 hour"
    assert duration(EN, 30, WAIT) == "1 minute"  # rounded up, never "0"
    assert duration(RU, 2 * 3600 + 60, WAIT) == "2 часа 1 минуту"
    assert duration(RU, 23 * 3600 + 59 * 60 + 1, WAIT) == "24 часа"


def test_signed_amounts() -> None:
    assert (signed(150), signed(-30), signed(0)) == ("+150", "\u221230", "0")


# --- buttons: exactly the legal actions, with their costs ---------------------------------------


def test_a_fresh_box_offers_buy_play_fold_with_costs() -> None:
    g = game("3d 4h 8c 9d Kh", antes=(10,))
    assert labels(g.public_view()) == [["Buy 6th card (−10)"], ["Play (−20)", "Fold"]]
    assert data(g.public_view()) == ["x:5:3:b", "x:5:3:p", "x:5:3:f"]
    assert labels(g.public_view(), "ru") == [
        ["Купить 6-ю карту (−10)"], ["Ставка (−20)", "Сбросить"]]


def test_after_a_buy_each_of_the_six_cards_can_be_replaced() -> None:
    g = game("3d 4h 8c 9d Kh", antes=(25,), draws="2s")
    g.apply(Buy())
    assert labels(g.public_view()) == [
        ["3♦ (−50)", "4♥ (−50)", "8♣ (−50)"],
        ["9♦ (−50)", "K♥ (−50)", "2♠ (−50)"],
        ["Play (−50)", "Fold"],
    ]
    assert data(g.public_view()) == [*(f"x:5:3:r{i}" for i in range(6)), "x:5:3:p", "x:5:3:f"]
    g.apply(Replace(0))
    assert labels(g.public_view()) == [["Play (−50)", "Fold"]]


def test_a_balance_short_of_the_bet_leaves_only_fold() -> None:
    # 40 left after the antes; box 1 buys (30) and plays (10): box 2's bet of 20 is too much
    g = game("3d 4h 8c 9d Kh", "5d 6h 8s Td Qh", balance=60, draws="2s")
    g.apply(Buy())
    g.apply(Play())
    assert g.current == 1 and labels(g.public_view()) == [["Fold"]]
    assert "can only fold" in caption(EN, g.public_view(), NAME)


def test_a_replace_is_offered_only_when_the_bet_stays_affordable() -> None:
    g = game("3d 4h 8c 9d Kh", antes=(10,), balance=50, draws="2s")  # 40 left
    g.apply(Buy())  # 30 left: a replace (20) would leave 10 < the bet
    assert labels(g.public_view()) == [["Play (−20)", "Fold"]]


def test_the_dealer_game_offer_per_box() -> None:
    g = game("Kd Kh 8c 9d 2h", "Qd Qh 8d 9c 3h", dealer=DEALER_NONE)
    g.apply(Play())
    g.apply(Play())
    view = g.public_view()
    assert view.phase is SixPhase.DEALER_GAME and view.to_act == 0
    assert labels(view) == [["Buy the dealer a game (−10)", "No"]]
    assert data(view) == ["x:5:3:g", "x:5:3:n"]
    assert "Box 1: buy the dealer a game for 10?" in plain(caption(EN, view, NAME))
    g.apply(DealerGame(True))
    assert "Box 2: buy the dealer a game" in plain(caption(EN, g.public_view(), NAME))


def test_no_buttons_once_over() -> None:
    g = game("3d 4h 8c 9d Kh")
    g.apply(Fold())
    assert g.is_over and game_keyboard(EN, 5, 3, g.public_view()) is None


def test_every_button_decodes_to_a_legal_action_of_its_version() -> None:
    rng = random.Random(3)
    for _ in range(40):
        g = SixCardGame.new(tuple(rng.randint(1, 100) for _ in range(rng.randint(1, 3))), 2000)
        g.deal(shuffled_deck(rng), b"s")
        version = 0
        while not g.is_over:
            markup = game_keyboard(EN, 9, version, g.public_view())
            assert markup is not None
            presses = [callbacks.decode(b.callback_data, payloads.PAYLOADS)
                       for row in markup.inline_keyboard for b in row]
            assert all(isinstance(p, payloads.SixCardPress)
                       and (p.game_id, p.version) == (9, version) for p in presses)
            actions = [p.action for p in presses if isinstance(p, payloads.SixCardPress)]
            assert sorted(map(str, actions)) == sorted(map(str, g.legal_actions()))
            g.apply(rng.choice(g.legal_actions()))
            version += 1


# --- captions --------------------------------------------------------------------------------


def test_a_full_house_wins_150_in_all() -> None:
    g = game("Kd Kh Ks 9d 9h")
    g.apply(Play())
    text = plain(caption(EN, g.public_view(), NAME))
    assert "Dealer: 2♣ 2♦ 7♥ 9♠ J♣ · One pair, a game" in text
    assert "Box 1 · Full house beats one pair: ante 1:1, bet 7:1 · +150 → 1150" in text
    assert "Result: +150 · balance 1150" in text


def test_a_royal_flush_wins_2010() -> None:
    g = game("As Ks Qs Js Ts")
    g.apply(Play())
    text = plain(caption(EN, g.public_view(), NAME))
    assert "Royal flush beats one pair: ante 1:1, bet 100:1 · +2010 → 3010" in text
    assert "Итог: +2010 · баланс 3010" in plain(caption(RU, g.public_view(), NAME))


def test_each_box_is_paid_with_the_running_balance() -> None:
    # Box 1 folds (−10), box 2 loses (−30), the blind box 3 wins with two pair (+50).
    g = game("3d 4h 8c 9d Kh", "3s 4s 8h 6d Qh", "Ad Ah 5d 5h 6c", antes=(10, 10, 10))
    assert g.balance == 1000 - 30 - 20
    g.apply(Fold())
    g.apply(Play())
    text = plain(caption(EN, g.public_view(), NAME))
    assert "Balance before the game: 1000" in text
    assert "Box 1 · High card: folded · −10 → 990" in text
    assert "Box 2 · High card loses to one pair · −30 → 960" in text
    assert "Box 3 · Two pair beats one pair: ante 1:1, bet 2:1 · +50 → 1010" in text
    assert "Result: +10 · balance 1010" in text


def test_no_game_then_the_dealer_replaces_one_card() -> None:
    # The dealer's A J 8 5 3 drops the 3 and draws the 8♦: a pair of eights.
    g = game("Kd Kh 8c 9d 2h", dealer=DEALER_NONE, draws="8d")
    g.apply(Play())
    before = plain(caption(EN, g.public_view(), NAME))
    assert "Dealer: A♣ J♦ 8♥ 5♠ 3♣ · High card, no game" in before
    g.apply(DealerGame(True))
    text = plain(caption(EN, g.public_view(), NAME))
    assert "The dealer drops 3♣" in text and "draws 8♦: A♣ J♦ 8♥ 5♠ 8♦ · One pair, a game" in text
    # Kings beat the eights: ante 1:1 and bet 1:1, less the dealer's game (10).
    assert "Box 1 · One pair beats one pair: ante 1:1, bet 1:1 · fees 10 · +20 → 1020" in text


def test_the_live_caption_shows_the_table_and_the_move() -> None:
    g = game("3d 4h 8c 9d Kh", "3s 4s 8h 6d Qh", "Ad Ah 5d 5h 6c", antes=(10, 20, 30))
    text = plain(caption(EN, g.public_view(), NAME))
    assert text.splitlines() == [
        "🃏 Six-card poker · Alice",
        "Dealer: J♣ face up, four cards down",
        "▶ Box 1 · ante 10: High card, your decision",
        "Box 2 · ante 20: waits its turn",
        "Box 3 · ante 30, bet 60: blind, turned over with the dealer's cards",
        "On the table 120 · fees 0 · balance 880",
        "Your move on box 1.",
    ]


def test_no_hidden_card_in_any_caption_or_button() -> None:
    """Before the reveal the dealer's four hole cards, the boxes not shown yet and the rest
    of the deck appear in no caption, button label or button data, in either language."""
    rng = random.Random(11)
    for _ in range(60):
        g = SixCardGame.new(tuple(rng.randint(1, 50) for _ in range(rng.randint(1, 3))), 3000)
        g.deal(shuffled_deck(rng), b"s")
        while True:
            view = g.public_view()
            shown: set[Card] = set()
            if view.dealer_up is not None:
                shown.add(view.dealer_up)
            for cards in (view.dealer_cards, view.dealer_first_cards):
                shown |= set(cards or ())
            if view.dealer_replacement is not None:
                shown.add(view.dealer_replacement.dropped)
            for box in view.boxes:
                shown |= set(box.cards or ()) | set(box.discards)
            hidden = [c for c in CARDS if c not in shown]
            for tr in (EN, RU):
                markup = game_keyboard(tr, 1, 1, view)
                buttons = [] if markup is None else [
                    f"{b.text} {b.callback_data}" for row in markup.inline_keyboard
                    for b in row]
                everything = plain(caption(tr, view, Html("Alice"))) + "\n".join(buttons)
                for card in hidden:
                    assert not re.search(rf"(?<![0-9]){re.escape(card.display)}", everything), (
                        card, everything)
                    assert str(card) not in everything.split()
            if g.is_over:
                break
            g.apply(rng.choice(g.legal_actions()))


def test_captions_fit_a_photo_caption() -> None:
    rng = random.Random(5)
    for _ in range(80):
        g = SixCardGame.new(tuple(rng.randint(1, 100) for _ in range(3)), 100_000)
        g.deal(shuffled_deck(rng), b"s")
        while True:
            for tr in (EN, RU):
                text = caption(tr, g.public_view(), mention_html(1, "W" * 64))
                assert len(plain(text)) <= 1024
            if g.is_over:
                break
            g.apply(rng.choice(g.legal_actions()))
