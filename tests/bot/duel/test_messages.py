"""The duel's messages in a group chat (issue 11): the header carries each deal's commitment,
the live caption folds in the bullet just finished and mentions only whoever must act, the
tiebreak offer asks without calling a draw, the result names the winner's stack first and says
why a winner is behind, and its buttons lead on (rematch, standings, each deal's proof to copy).
In English and Russian, with Анна and Дмитрий."""

from __future__ import annotations

import random
import re

import pytest

from bot.duel import keyboards, payloads
from bot.duel.captions import (
    Seat,
    bullet_caption,
    folded,
    header_caption,
    offer_caption,
    result_caption,
)
from bot.i18n import Texts
from bot.telegram import callbacks
from rules import fairness
from rules.cards import shuffled_deck
from rules.duel import Bet, DuelState, Phase, Surrender, TiebreakAnswer
from tests.rules.duel.helpers import SALT, bets, deck_with

SEATS = (Seat(1, "Анна"), Seat(2, "Дмитрий"))
LEVEL = deck_with("2c 4s 6h 9c Jh", "2d 4c 6s 9d Js", "3c 5s 7h Tc Qh", "3d 5c 7s Td Qs",
                  "4h 8c Th Kc 2h", "4d 8d Ts Kd 2s")


@pytest.fixture(scope="module")
def texts() -> Texts:
    return Texts.load(strict=True)


def mentions(html: str) -> list[int]:
    return [int(m) for m in re.findall(r'href="tg://user\?id=(\d+)"', html)]


def plain(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


def offered() -> DuelState:
    """Two rounds of passes and split bonus duels: the stacks are level, a tiebreak asked."""
    state = DuelState.new(50, first_dealer=0)
    for _ in range(2):
        state.deal(LEVEL, SALT)
        bets(state, (0, 1), (1, 1), (2, 1), (3, 1), (4, 2))
    assert state.phase is Phase.TIEBREAK_OFFER
    return state


def test_the_header_carries_each_deals_commitment_as_it_is_dealt(texts: Texts) -> None:
    state = DuelState.new(50, first_dealer=1)
    state.deal(LEVEL, SALT)
    one = plain(header_caption(texts["en"], state.public_view(), SEATS))
    assert one.splitlines()[0] == ("⚔️ Duel: Анна vs Дмитрий, 50 chips each. "
                                   "By lot, Дмитрий deals first.")
    assert f"Round 1 deck hash: {state.commitment}" in one and "Round 2" not in one
    bets(state, (0, 1), (1, 1), (2, 1), (3, 1), (4, 2))
    state.deal(LEVEL, bytes(16))
    two = plain(header_caption(texts["ru"], state.public_view(), SEATS))
    first = state.public_view().proofs[0].commitment
    assert f"🔒 Хеш колоды раунда 1: {first}" in two
    assert f"🔒 Хеш колоды раунда 2: {state.commitment}" in two
    assert "ответьте /verify на любое сообщение этой дуэли" in two


def test_the_live_caption_mentions_only_the_player_to_act_and_folds_the_last_bullet(
        texts: Texts) -> None:
    state = DuelState.new(50, first_dealer=0)
    state.deal(LEVEL, SALT)
    view = state.public_view()
    assert mentions(bullet_caption(texts["en"], view, SEATS)) == [2]  # Дмитрий opens
    assert folded(view) is None
    state.apply(Bet(0, 2), 1)
    caption = bullet_caption(texts["ru"], state.public_view(), SEATS)
    assert mentions(caption) == [1]  # the dealer's turn: only Анна is notified
    assert "ставит" not in caption and "№1" not in caption  # the picture shows the chips
    state.apply(Bet(1, 1), 0)
    view = state.public_view()
    assert folded(view) == view.results[0]
    caption = bullet_caption(texts["en"], view, SEATS)
    assert "<i>Bullet 1:</i>" in caption and "hash" not in caption
    assert "Bullet 1: Дмитрий plays against a pass and wins 1 chip." in plain(caption)
    assert mentions(caption) == [2]
    bets(state, (2, 1), (3, 1), (4, 2))  # the bonus duel ends round 1: its fold shows next
    state.deal(LEVEL, SALT)
    view = state.public_view()
    assert folded(view) is not None and folded(view) == view.results[2]
    assert "<i>Bullet 3:</i>" in bullet_caption(texts["en"], view, SEATS)


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("seed", range(12))
def test_a_turns_caption_is_four_short_lines(texts: Texts, lang: str, seed: int) -> None:
    """Which bullet, what the one just finished did (a bonus included), the stacks, whose
    move: never the hands, the chips placed or the bonus duel's rule, which the picture shows."""
    rng = random.Random(seed)
    state = DuelState.new(50, first_dealer=seed % 2)
    state.deal(shuffled_deck(rng), SALT)
    captions = []
    while state.phase is Phase.BULLET:
        if not state.players_to_act:
            state.deal(shuffled_deck(rng), SALT)
            continue
        captions.append(bullet_caption(texts[lang], state.public_view(), SEATS))
        player = state.players_to_act[0]
        state.apply(rng.choice(state.legal_actions(player)), player)
    assert len(captions) >= 5
    for caption in captions:
        lines = caption.splitlines()
        assert 3 <= len(lines) <= 4, caption
        assert all(len(plain(line)) <= 110 for line in lines), caption
        assert not re.search(r"(ставит \d|put \d+ chips? on|Bonus duel:|Бонусная дуэль:"
                             r"|рука №|hand #)", plain(caption)), caption


def test_the_tiebreak_offer_asks_without_a_draw_and_mentions_who_is_to_answer(
        texts: Texts) -> None:
    state = offered()
    first = offer_caption(texts["en"], state.public_view(), SEATS)
    assert "draw" not in first.lower() and "Play a tiebreak bullet" in first
    assert sorted(mentions(first)) == [1, 2]
    state.apply(TiebreakAnswer(True), 1)
    after = offer_caption(texts["ru"], state.public_view(), SEATS)
    assert "✅ <b>Дмитрий</b>: за тай-брейк." in after
    assert "⏳ Ждём ответа: " in after and mentions(after) == [1]


def test_the_result_names_the_winners_stack_first_and_why_a_winner_is_behind(
        texts: Texts) -> None:
    state = DuelState.new(50, first_dealer=0)
    state.deal(LEVEL, SALT)
    bets(state, (0, 2), (1, 1))  # Дмитрий (the opponent) takes 3: 49 / 51
    state.apply(Surrender(), 1)  # and surrenders while ahead
    view = state.public_view()
    text = plain(result_caption(texts["en"], view, SEATS, state.end_reason))
    assert "🏳️ Дмитрий surrendered." in text
    assert "🏆 Анна wins the duel, 49–51!" in text
    assert "Дмитрий had more chips, but a surrender or a move out of time loses" in text
    assert "Reply /verify to this message" in text and "salt" not in text
    ru = plain(result_caption(texts["ru"], view, SEATS, state.end_reason))
    assert "🏳️ Дмитрий сдаётся." in ru and "сдача" not in ru
    assert ("Дмитрий: фишек было больше, но кто сдаётся или не успевает сходить, тот "
            "проигрывает.") in ru


def test_the_winner_ahead_gets_no_excuse_and_a_tiebreak_win_says_so(texts: Texts) -> None:
    state = offered()
    state.apply(TiebreakAnswer(True), 0)
    state.apply(TiebreakAnswer(True), 1)
    state.deal(deck_with("Ah Ad As 2c 2d", "3c 4d 6h 8s Ts"), SALT)
    bets(state, (0, 2), (1, 2))  # Дмитрий (the opponent) takes the full house
    view = state.public_view()
    assert state.winner == 1 and state.end_reason == "tiebreak"
    text = plain(result_caption(texts["en"], view, SEATS, state.end_reason))
    won, lost = view.stacks[1], view.stacks[0]
    assert f"🏆 Дмитрий wins the duel, {won}–{lost}!" in text and won > lost
    assert "🔫 Decided by a tiebreak bullet." in text and "had more chips" not in text


def test_the_results_buttons_rematch_standings_and_a_proof_to_copy_per_deal(
        texts: Texts) -> None:
    state = offered()
    state.apply(TiebreakAnswer(False), 0)
    view = state.public_view()
    markup = keyboards.result(texts["en"], 7, view)
    rows = markup.inline_keyboard
    assert [b.text for b in rows[0]] == ["🔁 Rematch", "🏆 Standings", "🔎 Review"]
    assert [callbacks.decode(b.callback_data, payloads.PAYLOADS) for b in rows[0]] == [
        payloads.ResultPress(7, payloads.ResultOp.REMATCH),
        payloads.ResultPress(7, payloads.ResultOp.STANDINGS),
        payloads.ResultPress(7, payloads.ResultOp.REVIEW)]
    copies = [b for row in rows[1:] for b in row]
    assert [b.text for b in copies] == ["📋 Round 1", "📋 Round 2"]
    for button, proof in zip(copies, view.proofs, strict=True):
        assert button.copy_text is not None
        text = button.copy_text.text
        assert len(text) <= keyboards.COPY_TEXT_MAX
        command, commitment, salt, deck = text.split(" ")
        assert command == "/verify" and fairness.verify(commitment, salt, deck)
        assert commitment == proof.commitment


def test_a_result_press_round_trips_and_nothing_else_decodes_as_one() -> None:
    for op in payloads.ResultOp:
        press = payloads.ResultPress(12, op)
        assert callbacks.decode(callbacks.encode(press), payloads.PAYLOADS) == press
    for bad in ("r:12", "r:12:x", "r:012:m", "r:-1:m", "r:12:m:1"):
        with pytest.raises(callbacks.CallbackDataError):
            callbacks.decode(bad, payloads.PAYLOADS)
