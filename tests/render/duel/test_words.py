"""What the duel's pictures say (issue 11): the words they ask their labels for, recorded, not
their pixels. The table folds in the last bullet of its deal; the tiebreak offer is never a
draw; the result names why the duel ended (and a win from behind), and its scorecard has one
row per bullet."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import render
from bot.i18n import translator
from render.duel import layout as L
from render.duel import preview
from render.duel import result as result_mod
from render.duel.preview import DEAL_1, DEAL_2, bet_on, deck, ended
from rules.cards import parse_cards
from rules.duel import DuelState, Phase, PublicView, Surrender, TiebreakAnswer

NAMES = ("Alice", "Bob")
SIX = [(2, 1), (3, 1), (4, 1), (0, 2), (1, 2), (5, 2),
       (0, 2), (1, 2), (2, 2), (3, 2), (4, 2), (5, 2)]


class Recording:
    """Labels that answer with the key and record every key and its values."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, dict[str, object]]] = []

    def text(self, key: str, /, **values: object) -> str:
        self.asked.append((key, values))
        return key

    def plural(self, key: str, n: int, /, **values: object) -> str:
        self.asked.append((key, {"n": n, **values}))
        return key

    def asked_keys(self) -> list[str]:
        return [k for k, _ in self.asked]

    def values(self, key: str) -> list[dict[str, object]]:
        return [v for k, v in self.asked if k == key]


def words_of_table(view: PublicView) -> Recording:
    labels = Recording()
    render.table(view, names=NAMES, labels=labels, fmt="png")
    return labels


def words_of_result(view: PublicView, reason: str | None) -> Recording:
    labels = Recording()
    render.result(view, names=NAMES, labels=labels, reason=reason, fmt="png")
    return labels


def after(moves: list[tuple[int, int]]) -> PublicView:
    s = DuelState.new(50, first_dealer=0)
    s.deal(deck(DEAL_1), b"w1")
    for pos, chips in moves:
        if s.needs_deal:
            s.deal(deck(DEAL_2), b"w2")
        bet_on(s, pos, chips)
    return s.public_view()


def offer_state() -> DuelState:
    """Level stacks after six bullets (the preview's duel): the tiebreak offer."""
    s = DuelState.new(50, first_dealer=0)
    s.deal(deck(DEAL_1), b"o1")
    for pos, chips in SIX[:6]:
        bet_on(s, pos, chips)
    s.deal(deck(DEAL_2), b"o2")
    for pos, chips in SIX[6:]:
        bet_on(s, pos, chips)
    assert s.phase is Phase.TIEBREAK_OFFER
    return s


# --- the table: the last bullet folded in -----------------------------------------------------

FOLDS = ("pic.duel.fold_both_pass", "pic.duel.fold_uncontested", "pic.duel.fold_showdown",
         "pic.duel.fold_split")


def test_the_fold_appears_only_when_the_deal_has_a_finished_bullet() -> None:
    fresh = after([])
    assert not any(k in FOLDS for k in words_of_table(fresh).asked_keys())
    one_chosen = after([(2, 1)])
    assert not any(k in FOLDS for k in words_of_table(one_chosen).asked_keys())
    first = words_of_table(after([(2, 1), (3, 1)]))
    assert first.values("pic.duel.fold_both_pass") == [{"bullet": 1}]
    second = words_of_table(after(SIX[:4]))
    [said] = second.values("pic.duel.fold_uncontested")
    assert said["bullet"] == 2 and said["w"] == "Alice" and said["l"] == "Bob"
    [net] = second.values("pic.duel.fold_net")
    assert net == {"name": "Alice", "n": "+1"}
    assert "pic.duel.fold_both_pass" not in second.asked_keys()  # only the last bullet


def test_a_new_deal_folds_in_the_last_bullet_of_the_deal_before_until_its_own_first() -> None:
    """Bullet 3 (a round's bonus duel) has no table of its own any more: the next deal's
    table says what happened in it, until that deal's own first bullet is played."""
    s = DuelState.new(50, first_dealer=0)
    s.deal(deck(DEAL_1), b"n1")
    for pos, chips in SIX[:6]:
        bet_on(s, pos, chips)
    s.deal(deck(DEAL_2), b"n2")
    said = words_of_table(s.public_view())
    assert [k for k in said.asked_keys() if k in FOLDS] in (
        ["pic.duel.fold_showdown"], ["pic.duel.fold_split"])
    assert all(v["bullet"] == 3 for k in FOLDS for v in said.values(k))
    first = s.players_to_act[0]
    s.apply(s.legal_actions(first)[0], first)
    s.apply(s.legal_actions()[0], s.players_to_act[0])
    later = words_of_table(s.public_view())
    assert [v["bullet"] for k in FOLDS for v in later.values(k)] == [4]


def test_a_bonus_duel_fold_names_both_hands_by_their_ranks_and_a_paid_bonus() -> None:
    view = offer_state().public_view()  # bullet 6: a straight beats high card, bonus 4
    labels = words_of_table(view)
    [said] = labels.values("pic.duel.fold_showdown")
    assert said["wcat"] == "pic.duel.named.straight" and said["lcat"] == "pic.duel.named.high_card"
    assert labels.values("pic.duel.fold_bonus") == [{"n": "+4"}]
    no_bonus = words_of_table(after(SIX[:4]))
    assert not no_bonus.values("pic.duel.fold_bonus")


def test_the_fold_in_real_words_says_why_the_hand_won() -> None:
    view = after(SIX[:6])  # bullet 3: a full house beats high card, bonus 7
    assert render.table(view, names=NAMES, labels=translator("ru"))
    from render.duel.words import summary

    assert summary(view.results[-1], NAMES, translator("en")) == (
        "Bullet 3: Bob's nines full of fours beats Alice's ace high · Bob +9 this bullet · "
        "incl. bonus +7")
    assert summary(view.results[-1], NAMES, translator("ru")) == (
        "Пуля 3: фулл-хаус из девяток и четвёрок (Bob) сильнее, чем старшая карта туз (Alice)"
        " · Bob +9 за пулю · в т. ч. бонус +7")


def test_the_same_category_is_decided_by_its_ranks_or_by_a_kicker_in_words() -> None:
    import dataclasses

    from render.duel.words import summary
    from rules.hands import evaluate

    r = after(SIX[:6]).results[-1]
    en = translator("en")

    def said(a: str, b: str) -> str:
        values = (evaluate(parse_cards(a)), evaluate(parse_cards(b)))
        return summary(dataclasses.replace(r, values=values, winner=0, bonus=0), NAMES, en,
                       nets=False)

    assert said("Ah 9c 7d 4s 2h", "Jd 9s 7h 4c 2d") == (
        "Bullet 3: Alice's ace high beats Bob's jack high")
    assert said("Qh Qc 9d 4s 2h", "Qd Qs 8h 4c 2d") == (
        "Bullet 3: pair of queens each, Alice wins on the kicker")


# --- the tiebreak offer -----------------------------------------------------------------------


def test_the_offer_asks_and_shows_each_answer_never_a_draw() -> None:
    s = offer_state()
    labels = words_of_table(s.public_view())
    keys = labels.asked_keys()
    assert "pic.duel.over_draw" not in keys and "pic.duel.why_declined" not in keys
    assert labels.values("pic.duel.offer_level") == [{"n": 6}]
    assert labels.values("pic.duel.answer_deciding") == [{"name": "Alice"}, {"name": "Bob"}]
    s.apply(TiebreakAnswer(True), 1)
    labels = words_of_table(s.public_view())
    assert labels.values("pic.duel.answer_deciding") == [{"name": "Alice"}]
    assert labels.values("pic.duel.answer_wants") == [{"name": "Bob"}]
    assert "pic.duel.over_draw" not in labels.asked_keys()


# --- the result: why, and the scorecard -------------------------------------------------------


def finished(reason: str) -> tuple[PublicView, str | None]:
    if reason == "bullets":
        return ended(50, [*SIX[:4], (1, 2), (5, 2), *SIX[6:11], (3, 2), (5, 2)])
    if reason == "bust":
        return ended(8, SIX)
    if reason == "surrender":
        return ended(50, SIX[:4], (0, "surrender"))
    if reason == "timeout":
        return ended(50, [*SIX[:2], (4, 1), (0, 1)], (0, "timeout"))
    s = offer_state()
    if reason == "declined":
        s.apply(TiebreakAnswer(False), 0)
    else:
        s.apply(TiebreakAnswer(True), 0)
        s.apply(TiebreakAnswer(True), 1)
        s.deal(deck(preview.DEAL_3), b"t3")
        bet_on(s, 1, 2)
        bet_on(s, 2, 2)
    return s.public_view(), s.end_reason


WHY = {"bullets": "pic.duel.why_bullets", "tiebreak": "pic.duel.why_tiebreak",
       "bust": "pic.duel.out_of_chips", "surrender": "pic.duel.why_surrender_ahead",
       "timeout": "pic.duel.why_timeout", "declined": "pic.duel.why_declined"}


@pytest.mark.parametrize("reason", sorted(WHY))
def test_the_result_names_why_the_duel_ended(reason: str) -> None:
    view, end = finished(reason)
    assert view.is_over and end == reason
    labels = words_of_result(view, end)
    assert WHY[reason] in labels.asked_keys()
    others = set(WHY.values()) - {WHY[reason]}
    assert not others & set(labels.asked_keys())
    assert render.result(view, names=NAMES, labels=translator("ru"), reason=end)


def test_no_reason_reads_as_six_bullets() -> None:
    view, _ = finished("bullets")
    assert words_of_result(view, None).values("pic.duel.why_bullets") == [{"n": 6}]
    assert (render.result(view, names=NAMES, labels=translator("en"))
            == render.result(view, names=NAMES, labels=translator("en"), reason="bullets"))


def test_a_winner_behind_on_chips_is_said_to_be_one() -> None:
    view, end = finished("surrender")
    assert view.winner == 1 and view.stacks[1] < view.stacks[0]
    labels = words_of_result(view, end)
    assert labels.values("pic.duel.why_surrender_ahead") == [{"name": "Alice"}]
    assert "pic.duel.why_surrender" not in labels.asked_keys()
    said, behind = result_mod.why(view, NAMES, translator("en"), end)
    assert behind and said == "Alice surrendered while ahead on chips"
    late = dataclass_winner_ahead(view)
    said, behind = result_mod.why(late, NAMES, translator("en"), "timeout")
    assert not behind and said == "Alice ran out of time"


def dataclass_winner_ahead(view: PublicView) -> PublicView:
    import dataclasses

    return dataclasses.replace(view, stacks=(view.stacks[1], view.stacks[0]))


@pytest.mark.parametrize("reason", sorted(WHY))
def test_the_scorecard_has_one_row_per_bullet(reason: str) -> None:
    view, end = finished(reason)
    labels = Recording()
    im = result_mod.compose(view, NAMES, labels, end)
    im2 = result_mod.compose(view, NAMES, Recording(), end)
    assert im.tobytes() == im2.tobytes()
    # every bullet's number is asked for its two hands (one hand number per player and row)
    hand_numbers = labels.values("pic.duel.hand_no")
    assert len(hand_numbers) == 2 * len(view.results)
    rows = result_mod.scorecard(im, view, NAMES, Recording(), L.SCORE_Y)
    assert rows == len(view.results) >= 1
    deals = len({r.round for r in view.results})
    assert im.height == L.result_height(len(view.results), deals)


def test_every_duel_picture_fits_a_phone() -> None:
    """At most 1200 px wide and 1.6 megapixels: a phone shows it at about 400 px wide."""
    view, end = finished("tiebreak")
    for data in (render.table(view, names=NAMES, labels=translator("en")),
                 render.result(view, names=NAMES, labels=translator("en"), reason=end),
                 render.reveal(view, names=NAMES, labels=translator("en"))):
        im = Image.open(io.BytesIO(data))
        assert im.width <= 1200 and im.width * im.height <= 1_600_000
        assert len(data) <= 300 * 1024


def test_surrender_from_the_rules_is_the_reason_given() -> None:
    s = DuelState.new(50, first_dealer=0)
    s.deal(deck(DEAL_1), b"s")
    s.apply(Surrender("timeout"), 1)
    assert s.end_reason == "timeout"
    labels = words_of_result(s.public_view(), s.end_reason)
    assert labels.values("pic.duel.why_timeout") == [{"name": "Bob"}]
