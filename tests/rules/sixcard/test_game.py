"""Six-card poker: every payout, the dealer's game, the dealer's replace, the affordability
rules and the blind box, as worked examples on crafted decks."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.cards import CARDS, Card, parse_cards, shuffled_deck
from rules.fairness import verify
from rules.hands import Category, evaluate
from rules.sixcard import (
    Accounting,
    BadAction,
    BadCardIndex,
    BadSetup,
    Bought,
    BoxOpened,
    BoxOutcome,
    BoxRunning,
    BoxSettled,
    BoxSettlement,
    BoxState,
    Buy,
    CannotAfford,
    DealerGame,
    DealerReplaced,
    DealerRevealed,
    Dealt,
    Fold,
    Folded,
    GameFinished,
    GameOver,
    IllegalMove,
    NoGameOffered,
    Play,
    Played,
    Replace,
    Replaced,
    SixAction,
    SixCardError,
    SixCardGame,
    SixEvent,
    SixPhase,
    WrongPhase,
    parse_action,
    view_json,
)

DEALER_PAIR = "2c 2d 7h 9s Jc"  # the weakest kind of qualifying hand: a pair of twos
DEALER_NONE = "Ac Jd 8h 5s 3c"  # no game; drops the 3 (no draw: every card has 12 outs)
LOW = "3d 4h 8c 9d Kh"  # high card, no draw worth a thing


def deck(*boxes: str, dealer: str, draws: str = "") -> tuple[Card, ...]:
    """A deck dealing the given boxes (box 1 first), then the dealer (last card face up), then
    `draws` (sixth cards, replaced cards, the dealer's replaced card, in the order needed); the
    remaining cards follow in index order."""
    head = [c for h in (*boxes, dealer, draws) for c in parse_cards(h)]
    assert len(set(head)) == len(head), "a card is used twice"
    return (*head, *(c for c in CARDS if c not in set(head)))


def game(*boxes: str, antes: tuple[int, ...] | None = None, balance: int = 1000,
         dealer: str = DEALER_PAIR, draws: str = "") -> SixCardGame:
    g = SixCardGame.new(antes or (10,) * len(boxes), balance)
    g.deal(deck(*boxes, dealer=dealer, draws=draws))
    return g


def play(g: SixCardGame, *codes: str) -> list[SixEvent]:
    events: list[SixEvent] = []
    for code in codes:
        events += g.apply(parse_action(code))
    return events


def settled(g: SixCardGame, box: int = 0) -> BoxSettlement:
    s = g.boxes[box].settlement
    assert s is not None
    return s


def reconciles(g: SixCardGame) -> bool:
    m = g.money
    return g.start_balance - m.staked - m.fees + m.returned + m.won == g.balance


# --- actions and setup -----------------------------------------------------------------------


def test_action_codes_parse_and_print_round_trip() -> None:
    actions: list[SixAction] = [Fold(), Play(), Buy(), *(Replace(i) for i in range(6)),
                                DealerGame(True), DealerGame(False)]
    assert [str(a) for a in actions] == ["f", "p", "b", "r0", "r1", "r2", "r3", "r4", "r5",
                                         "g", "n"]
    for a in actions:
        assert parse_action(str(a)) == a


@pytest.mark.parametrize("code", ["", "x", "r", "r6", "r-1", "r10", "F", "gg", "p "])
def test_a_text_that_is_not_an_action_is_refused(code: str) -> None:
    with pytest.raises(BadAction):
        parse_action(code)


@pytest.mark.parametrize("antes, balance, error", [
    ((), 1000, BadSetup), ((1, 1, 1, 1), 1000, BadSetup), ((0,), 1000, BadSetup),
    ((101,), 1000, BadSetup), ((True,), 1000, BadSetup), ((10,), -1, BadSetup),
    ((10,), 29, CannotAfford),  # the ANTE and the BET of every box: 3 x 10
    ((10, 10), 59, CannotAfford),
    ((10, 10, 10), 89, CannotAfford),  # box 3's BET is placed at once, but counts the same
    ((10, 1, 10), 62, CannotAfford),
])
def test_a_game_that_cannot_start_is_refused(
    antes: tuple[int, ...], balance: int, error: type[SixCardError]
) -> None:
    with pytest.raises(error):
        SixCardGame.new(antes, balance)


def test_every_boxs_ante_and_bet_are_exactly_what_it_takes_to_start() -> None:
    assert SixCardGame.cover((10, 1, 10)) == 63 and SixCardGame.stake((10, 1, 10)) == 41
    g = SixCardGame.new((10, 1, 10), 63)
    events = g.deal(deck(LOW, "5h 6h Td Jd Ah", "5c 6d Tc Qs 2h", dealer=DEALER_PAIR))
    assert g.balance == 22 and g.money.staked == 41 and g.boxes[2].bet == 20
    assert Play() in g.legal_actions()  # box 1 is never dealt a hand that can only fold
    assert isinstance(events[0], Dealt) and events[0].balance == 22 and events[0].blind_bet == 20


@given(st.lists(st.integers(1, 100), min_size=1, max_size=3), st.integers(0, 700))
def test_a_game_is_dealt_only_when_its_first_box_can_play(antes: list[int], extra: int) -> None:
    g = SixCardGame.new(antes, SixCardGame.cover(antes) + extra)
    g.deal(shuffled_deck(random.Random(extra)))
    assert Play() in g.legal_actions()
    with pytest.raises(CannotAfford):
        SixCardGame.new(antes, SixCardGame.cover(antes) - 1)


# --- the deal and what the player sees --------------------------------------------------------


def test_the_deal_shows_box_1_and_the_dealers_last_card_only() -> None:
    g = game("Ac Kd 7h 2c 3d", "Qs Qh 5d 6c 8s", dealer="4c 4d 9h Ts 2s")
    view = g.public_view()
    assert view.phase is SixPhase.DECIDING and view.to_act == 0
    assert view.boxes[0].cards == parse_cards("Ac Kd 7h 2c 3d")
    assert view.boxes[0].state is BoxState.DECIDING
    assert view.boxes[1].cards is None and view.boxes[1].state is BoxState.HIDDEN
    assert view.dealer_up == Card.parse("2s") and view.dealer_backs == 4
    assert view.dealer_cards is None and view.dealer_value is None
    assert view.legal == ("f", "p", "b") and view.balance == 980
    text = view_json(view)
    for hidden in parse_cards("Qs Qh 5d 6c 8s 4c 4d 9h Ts"):
        assert f'"{hidden}"' not in text


def test_box_2_is_shown_after_box_1s_final_decision() -> None:
    g = game("Ac Kd 6h 3h 4d", "Qs Qh 5d 6c 8s", draws="9c")
    play(g, "b")
    assert g.public_view().boxes[1].cards is None and g.current == 0
    events = play(g, "p")
    assert isinstance(events[-1], BoxOpened) and events[-1].box == 1
    assert events[-1].cards == parse_cards("Qs Qh 5d 6c 8s")
    assert g.public_view().boxes[1].cards == parse_cards("Qs Qh 5d 6c 8s")


# --- payouts against a qualifying dealer -------------------------------------------------------

BOX_HANDS = {
    Category.ROYAL_FLUSH: "Ah Kh Qh Jh Th",
    Category.STRAIGHT_FLUSH: "9h 8h 7h 6h 5h",
    Category.FOUR_OF_A_KIND: "9c 9d 9h 9s Kd",
    Category.FULL_HOUSE: "Kc Kd Ks 5c 5d",
    Category.FLUSH: "Ad Jd 8d 6d 3d",
    Category.STRAIGHT: "9c Td Jh Qs Kd",
    Category.THREE_OF_A_KIND: "7c 7d 7h As Kd",
    Category.TWO_PAIR: "Jd Jh 5h 5s Ac",
    Category.ONE_PAIR: "Qc Qd 9h 5h 3h",
}
DEALER_LOW_PAIR = "2h 2s 4c 6s 7s"  # qualifies; shares no card with BOX_HANDS


@pytest.mark.parametrize("category", list(BOX_HANDS))
def test_a_winning_box_is_paid_ante_1_to_1_and_the_bet_by_its_category(
    category: Category
) -> None:
    g = game(BOX_HANDS[category], dealer=DEALER_LOW_PAIR)
    events = play(g, "p")
    s = settled(g)
    assert s.value.category is category and s.outcome is BoxOutcome.WON
    assert s.paid_category is category
    assert s.money.won == 10 + 20 * category.multiplier and s.money.returned == 30
    assert s.net == s.money.won == g.balance - 1000
    assert isinstance(events[-1], GameOver) and events[-1].net == s.net and reconciles(g)


def test_the_seeds_checks_full_house_150_and_royal_flush_2010() -> None:
    for hand, total in ((BOX_HANDS[Category.FULL_HOUSE], 150),
                        (BOX_HANDS[Category.ROYAL_FLUSH], 2010)):
        g = game(hand, dealer=DEALER_LOW_PAIR)
        play(g, "p")
        assert settled(g).money.won == total and g.balance == 1000 + total


def test_a_worse_box_loses_ante_and_bet_and_high_card_cannot_beat_a_qualifying_dealer() -> None:
    g = game("Ac Kd Qh Jc 9d", dealer=DEALER_LOW_PAIR)
    play(g, "p")
    s = settled(g)
    assert s.outcome is BoxOutcome.LOST and s.money.returned == s.money.won == 0
    assert g.balance == 970 and s.net == -30


def test_equal_hands_push_whatever_the_suits() -> None:
    g = game("Ac Ad Kh Qs 9c", dealer="Ah As Kd Qc 9d")
    play(g, "p")
    s = settled(g)
    assert s.outcome is BoxOutcome.PUSH and s.money.returned == 30 and s.money.won == 0
    assert g.balance == 1000


def test_fold_loses_the_ante_and_after_a_buy_the_fee_too() -> None:
    g = game(LOW, draws="Qc")
    events = play(g, "b", "f")
    assert isinstance(events[1], Folded) and events[1].lost == 20
    s = settled(g)
    assert s.outcome is BoxOutcome.FOLDED and s.money.staked == 10 and s.money.fees == 10
    assert s.money.returned == s.money.won == 0 and s.net == -20 and g.balance == 980


def test_buy_then_replace_then_play_uses_the_next_cards_of_the_deck() -> None:
    g = game("9c 8d 7h 6s Kd", dealer="Ac Ad 4c 4d 2s", draws="Qh Th")
    events = play(g, "b")
    assert events == [Bought(0, Card.parse("Qh"), evaluate(parse_cards("9c 8d 7h 6s Kd Qh")),
                             10, 980)]
    assert g.legal_actions() == [Fold(), Play(), *(Replace(i) for i in range(6))]
    events = play(g, "r4")  # the king goes, the ten comes
    assert events == [Replaced(0, 4, Card.parse("Kd"), Card.parse("Th"),
                               evaluate(parse_cards("9c 8d 7h 6s Th Qh")), 20, 960)]
    assert g.public_view().boxes[0].cards == parse_cards("9c 8d 7h 6s Th Qh")
    assert g.public_view().boxes[0].discards == (Card.parse("Kd"),)
    assert g.legal_actions() == [Fold(), Play()]
    play(g, "p")
    s = settled(g)
    assert s.value.category is Category.STRAIGHT and s.outcome is BoxOutcome.WON
    assert s.money.fees == 30 and s.money.won == 10 + 20 * 4 and s.net == 60
    assert g.balance == 1060 and reconciles(g)


# --- the dealer without a game -----------------------------------------------------------------


def test_no_game_pays_the_ante_and_returns_the_bet_when_no_game_is_bought() -> None:
    g = game("Kc Kd 7c 8d 9s", dealer=DEALER_NONE)
    events = play(g, "p")
    assert isinstance(events[-1], NoGameOffered) and events[-1].boxes == (0,)
    assert events[-1].fees == (10,) and g.phase is SixPhase.DEALER_GAME
    assert g.legal_actions() == [DealerGame(True), DealerGame(False)]
    events = play(g, "n")
    assert not any(isinstance(e, DealerReplaced) for e in events)
    s = settled(g)
    assert s.outcome is BoxOutcome.NO_GAME and s.money.returned == 30 and s.money.won == 10
    assert g.balance == 1010


def test_a_bought_game_that_makes_the_dealer_qualify_is_settled_by_comparison() -> None:
    # The dealer drops its 3 and draws the jack: a pair of jacks against two pair.
    g = game("Kc Kd 7c 7d 9s", dealer=DEALER_NONE, draws="Jh")
    events = play(g, "p", "g")
    replaced = next(e for e in events if isinstance(e, DealerReplaced))
    assert replaced.replacement.dropped == Card.parse("3c")
    assert replaced.replacement.drawn == Card.parse("Jh") and replaced.qualifies
    assert replaced.cards == parse_cards("Ac Jd 8h 5s Jh")
    s = settled(g)
    assert s.outcome is BoxOutcome.WON and s.bought_dealer_game
    assert s.money == Accounting(staked=30, fees=10, returned=30, won=10 + 20 * 2)
    assert g.balance == 1040 and reconciles(g)


def test_a_bought_game_can_turn_into_a_loss() -> None:
    g = game("Kc Kd 7c 8d 9s", dealer=DEALER_NONE, draws="Ah")  # the dealer pairs its ace
    play(g, "p", "g")
    s = settled(g)
    assert s.outcome is BoxOutcome.LOST and s.net == -40 and g.balance == 960


def test_a_bought_game_that_still_does_not_qualify_returns_only_the_stakes() -> None:
    g = game("Kc Kd 7c 8d 9s", dealer=DEALER_NONE, draws="Qh")
    events = play(g, "p", "g")
    replaced = next(e for e in events if isinstance(e, DealerReplaced))
    assert not replaced.qualifies
    s = settled(g)
    assert s.outcome is BoxOutcome.STAKES_RETURNED and s.money.returned == 30
    assert s.money.won == 0 and s.money.fees == 10 and g.balance == 990


def test_boxes_are_paid_independently_of_the_dealers_game() -> None:
    # Box 1 buys the game, box 2 does not; the dealer then qualifies with jacks.
    g = game("Kc Kd 7c 7d 9s", "Qc Qd 6h 6c 2s", dealer=DEALER_NONE, draws="Jh")
    events = play(g, "p", "p")
    assert isinstance(events[-1], NoGameOffered) and events[-1].boxes == (0, 1)
    events = play(g, "g")
    assert g.current == 1 and not any(isinstance(e, DealerReplaced) for e in events)
    events = play(g, "n")
    assert sum(isinstance(e, DealerReplaced) for e in events) == 1
    first, second = settled(g, 0), settled(g, 1)
    assert first.outcome is BoxOutcome.WON and first.net == 40
    assert second.outcome is BoxOutcome.NO_GAME and second.net == 10
    assert second.dealer_value == evaluate(parse_cards(DEALER_NONE))
    assert g.balance == 1050 and reconciles(g)


def test_no_playing_box_means_no_offer() -> None:
    g = game(LOW, dealer=DEALER_NONE)
    events = play(g, "f")
    assert [type(e) for e in events] == [Folded, DealerRevealed, BoxSettled, GameOver]
    assert g.is_over and g.balance == 990


def test_a_qualifying_dealer_is_not_offered_a_game() -> None:
    g = game("Kc Kd 7c 8d 9s", dealer="Ac Ad 8h 5s 3c")
    events = play(g, "p")
    assert not any(isinstance(e, NoGameOffered) for e in events) and g.is_over


# --- affordability -----------------------------------------------------------------------------


def test_a_buy_is_refused_when_the_bet_could_no_longer_be_paid() -> None:
    g = game(LOW, balance=39)  # 29 after the ante: the BET (20) yes, a fee of 10 and then 20 no
    assert g.legal_actions() == [Fold(), Play()]
    with pytest.raises(CannotAfford):
        g.apply(Buy())
    assert g.balance == 29
    g = game(LOW, balance=40)
    assert Buy() in g.legal_actions()


def test_a_replace_is_refused_when_the_bet_could_no_longer_be_paid() -> None:
    g = game(LOW, balance=59, draws="Qc")  # 49, buy: 39; a replace (20) and then 20: no
    play(g, "b")
    assert g.legal_actions() == [Fold(), Play()]
    with pytest.raises(CannotAfford):
        g.apply(Replace(0))
    g = game(LOW, balance=60, draws="Qc")
    play(g, "b")
    assert Replace(0) in g.legal_actions()


def test_box_2_may_only_fold_when_box_1_left_too_little_for_its_bet() -> None:
    g = game(LOW, "Kc Kd 7c 8d Ts", balance=60, draws="Qc")  # 40 after the antes
    play(g, "b", "p")  # 30, then 10: box 2's BET of 20 is out of reach
    assert g.current == 1 and g.balance == 10
    assert g.legal_actions() == [Fold()] and g.public_view().legal == ("f",)
    with pytest.raises(CannotAfford):
        g.apply(Play())
    play(g, "f")
    assert g.is_over and g.balance >= 0 and reconciles(g)


def test_the_dealers_game_is_refused_when_its_fee_cannot_be_paid() -> None:
    g = game("Kc Kd 7c 8d 9s", balance=30, dealer=DEALER_NONE)
    play(g, "p")
    assert g.balance == 0 and g.legal_actions() == [DealerGame(False)]
    with pytest.raises(CannotAfford):
        g.apply(DealerGame(True))
    play(g, "n")
    assert g.balance == 40


# --- three boxes -------------------------------------------------------------------------------


def test_the_third_box_plays_blind_and_is_shown_at_the_dealers_reveal() -> None:
    g = SixCardGame.new((10, 5, 20), 1000)
    g.deal(deck(LOW, "Kc Kd 7c 8s 9s", "Ac Jc Tc 5c 3c", dealer=DEALER_LOW_PAIR))
    assert g.balance == 1000 - 35 - 40 and g.boxes[2].bet == 40
    assert g.public_view().boxes[2].cards is None and g.public_view().boxes[2].blind
    play(g, "f")
    assert g.current == 1 and g.public_view().boxes[2].cards is None
    events = play(g, "p")
    assert [type(e) for e in events[:3]] == [Played, BoxOpened, DealerRevealed]
    assert isinstance(events[1], BoxOpened) and events[1].box == 2
    outcomes = [settled(g, b).outcome for b in range(3)]
    assert outcomes == [BoxOutcome.FOLDED, BoxOutcome.WON, BoxOutcome.WON]
    assert [settled(g, b).net for b in range(3)] == [-10, 5 + 10, 20 + 40 * 5]
    assert g.balance == 1000 - 10 + 15 + 220 and reconciles(g)


def test_the_blind_box_is_offered_the_dealers_game_too() -> None:
    g = SixCardGame.new((10, 10, 10), 1000)
    g.deal(deck(LOW, "Kc Kd 7c 8d 9s", "Qc Qd 6h 6c 2s", dealer=DEALER_NONE))
    events = play(g, "f", "f")
    offer = events[-1]
    assert isinstance(offer, NoGameOffered) and offer.boxes == (2,)
    assert g.current == 2 and g.public_view().boxes[2].cards == parse_cards("Qc Qd 6h 6c 2s")


# --- illegal actions ---------------------------------------------------------------------------


def _unchanged(g: SixCardGame, action: object, error: type[SixCardError]) -> None:
    before, view = g.to_json(), g.public_view()
    with pytest.raises(error):
        g.apply(action)  # type: ignore[arg-type]
    assert not g.can_apply(action)  # type: ignore[arg-type]
    assert g.to_json() == before and g.public_view() == view


def test_illegal_actions_raise_their_own_error_and_change_nothing() -> None:
    fresh = SixCardGame.new((10,), 1000)
    _unchanged(fresh, Play(), WrongPhase)
    g = game(LOW, "Kc Kd 7c 8d 9s", dealer=DEALER_NONE, draws="Jc Qc")
    _unchanged(g, Replace(0), IllegalMove)
    _unchanged(g, DealerGame(True), WrongPhase)
    _unchanged(g, "p", BadAction)
    play(g, "b")
    _unchanged(g, Buy(), IllegalMove)
    _unchanged(g, Replace(6), BadCardIndex)
    play(g, "r0")
    _unchanged(g, Replace(1), IllegalMove)
    play(g, "f", "p")
    assert g.phase is SixPhase.DEALER_GAME
    _unchanged(g, Fold(), WrongPhase)
    play(g, "n")
    _unchanged(g, DealerGame(False), GameFinished)
    with pytest.raises(WrongPhase):
        g.deal(deck(LOW, dealer=DEALER_NONE))


# --- persistence -------------------------------------------------------------------------------


def test_the_log_replays_to_the_same_game_mid_way_and_at_the_end() -> None:
    g = SixCardGame.new((10, 3), 500)
    g.deal(deck("9c 8d 7h 6s Kd", LOW, dealer=DEALER_NONE, draws="Qh Th Jh"), bytes(range(16)))
    play(g, "b", "r4", "p")
    copy = SixCardGame.from_json(g.to_json())
    assert copy == g and copy.public_view() == g.public_view()
    assert play(copy, "p", "g", "n") == play(g, "p", "g", "n")
    assert SixCardGame.from_json(g.to_json()).public_view() == g.public_view()
    proof = g.public_view().proof
    assert proof is not None and verify(proof.commitment, proof.salt, proof.deck)
    assert g.public_view().commitment == proof.commitment


def test_the_running_balance_follows_each_boxs_net_fees_included() -> None:
    # Box 1 buys a sixth card (fee 10) and folds: −20. Box 2 plays and loses: −30.
    g = SixCardGame.new((10, 10), 1000)
    head = parse_cards("3d 4h 8c 9d Kh 3s 4s 8h 6d Qh 2c 2d 7h 9s Jc 5c")
    g.deal((*head, *(c for c in CARDS if c not in set(head))))
    g.apply(Buy())
    assert g.public_view().running == ()  # only once the game is over
    g.apply(Fold())
    g.apply(Play())
    view = g.public_view()
    assert view.running == (BoxRunning(0, -20, 10, 980), BoxRunning(1, -30, 0, 950))
    assert view.running[-1].balance == view.balance == 950
