"""A picture of every phase of a duel, so anyone can look at them; written with the others by
`python -m render.preview OUTDIR [--fmt jpeg|png]`.

Plays one scripted duel on crafted decks (rules.duel.state.DuelState, so every view is a real one):
both pass, an uncontested play, a full-house bonus duel, a showdown, a split, a straight bonus
that levels the stacks, a tiebreak offer, and a tiebreak bullet won with a royal flush whose
bonus takes the whole stack; a declined tiebreak gives the draw. Then the same moments with a
long Cyrillic name and an emoji-only one.
"""

from __future__ import annotations

from collections.abc import Callable

from render.duel.result import result as draw_result
from render.duel.reveal import reveal as draw_reveal
from render.duel.table import table as draw_table
from render.palette import Deck
from render.text import Labels
from rules.cards import CARDS, Card, parse_cards
from rules.duel.actions import Bet, Surrender, TiebreakAnswer
from rules.duel.state import DuelState
from rules.duel.view import HandState, PublicView

NAMES = ("Алиса", "Bob")
LONG = ("Александра Константиновна Преображенская-Старшая 🌸", "🦔🍄🦔")

DEAL_1 = ("Ah Kd Ks 7c 7s", "9d 9c 9h 4s 4d", "Qs Jd 8c 5h 3s",
          "7h 7d 2c Ts 6h", "Th Td 5c 2s Js", "Ac Qc 8d 6s 3c")
DEAL_2 = ("5s 5h 5d Qc 2h", "Jc Jh 9s 4c 3d", "Ks Kh 8s 6d 3h",
          "Kd Kc 8h 6c 3s", "8d 7c 6h 5c 4h", "Ac Qh Th 7s 2c")
DEAL_3 = ("2d 3d 4d 8h Jc", "6s 6d Qh 9c 2s", "Kh 5d 3c 9d Ah",
          "As Ks Qs Js Ts", "8c 8s 4c 7h Tc", "Jh Jd 5h 3h 2h")


def deck(hands: tuple[str, ...]) -> tuple[Card, ...]:
    """A deck dealing `hands` (the first card of each is the one turned face up)."""
    top = [c for h in hands for c in parse_cards(h)]
    return (*top, *(c for c in CARDS if c not in top))


Shot = tuple[str, str, Callable[[], bytes]]  # file stem, what it shows, the picture
LabelsFor = Callable[[str], Labels]  # a language's words (bot.i18n.translator)


def shots(fmt: str, labels_for: LabelsFor) -> list[Shot]:
    out: list[Shot] = []
    s = DuelState.new(50, first_dealer=0)

    def table(stem: str, what: str, lang: str, names: tuple[str, str] = NAMES) -> None:
        v, labels = s.public_view(), labels_for(lang)
        out.append((stem, what, lambda: draw_table(v, names=names, labels=labels, fmt=fmt)))

    def reveal(stem: str, what: str, lang: str, view: PublicView | None = None,
               names: tuple[str, str] = NAMES) -> None:
        v, labels = view or s.public_view(), labels_for(lang)
        out.append((stem, what, lambda: draw_reveal(v, names=names, labels=labels, fmt=fmt)))

    def bet(pos: int, chips: int) -> None:
        bet_on(s, pos, chips)

    s.deal(deck(DEAL_1), b"preview-1")
    table("01_fresh_deal", "round 1, bullet 1: six hands, Bob (opponent) to act", "en")
    bet(2, 1)
    table("02_chips_placed", "Bob passed on #3 (1 chip); Алиса, the dealer, to act", "ru")
    bet(3, 1)
    reveal("03_reveal_both_pass", "bullet 1: both passed, chips go back", "en")
    bet(4, 1)
    table("04_table_turned_over", "bullet 2: bullet 1's hands turned over, Bob's chip on "
          "#5, cards out in the grid", "en")
    bet(0, 2)
    reveal("05_reveal_uncontested", "bullet 2: Алиса plays against a pass, takes 3 chips", "ru")
    bet(1, 2)
    table("06_table_bonus_duel", "bullet 3, bonus duel: Bob took #2, Алиса gets the last "
          "hand", "en")
    bet(5, 2)
    reveal("07_reveal_bonus_duel", "bullet 3: full house beats high card, bonus ×7", "en")
    reveal("07_reveal_bonus_duel_ru", "the same in Russian", "ru")
    s.deal(deck(DEAL_2), b"preview-2")
    table("08_round_two", "round 2: Bob deals, the grid starts over", "ru")
    bet(0, 2)
    bet(1, 2)
    reveal("09_reveal_showdown", "bullet 4: three of a kind beats a pair, 2 v 2", "en")
    bet(2, 2)
    bet(3, 2)
    reveal("10_reveal_split", "bullet 5: equal hands, the pot is split", "ru")
    table("11_table_last_bullet", "bullet 6, a bonus duel: two hands left, Алиса to choose "
          "(Bob then gets the last one)", "en")
    bet(4, 2)
    bet(5, 2)
    reveal("12_reveal_bonus_straight", "bullet 6: straight bonus ×4 levels the stacks", "en")
    table("13_tiebreak_offer", "stacks level after six bullets: the tiebreak offer", "en")
    offer = s.to_json()
    draw = DuelState.from_json(offer)
    s.apply(TiebreakAnswer(True), 1)
    table("14_tiebreak_answered", "Bob said yes, Алиса still to answer", "ru")
    table("14_tiebreak_answered_en", "the same in English", "en")
    s.apply(TiebreakAnswer(True), 0)
    s.deal(deck(DEAL_3), b"preview-3")
    table("15_tiebreak_bullet", "the tiebreak: bullet 7, a bonus duel on a fresh deal", "en")
    bet(3, 2)
    bet(0, 2)
    reveal("16_reveal_royal_bust", "bullet 7: royal flush, the bonus takes the whole stack",
           "en")
    final = s.public_view()
    out.append(("17_result_win", "the duel is over: Bob wins, stacks over the bullets",
                _result(final, labels_for("en"), s.end_reason, fmt)))
    out.append(("17_result_win_ru", "the same in Russian",
                _result(final, labels_for("ru"), s.end_reason, fmt)))
    table("18_table_over", "the table when the duel is over", "en")
    draw.apply(TiebreakAnswer(False), 0)
    drawn = draw.public_view()
    out.append(("19_result_draw", "a declined tiebreak: the duel is a draw",
                _result(drawn, labels_for("ru"), draw.end_reason, fmt)))
    _long_names(out, fmt, labels_for)
    _reasons(out, fmt, labels_for, offer, drawn)
    return out


def bet_on(s: DuelState, pos: int, chips: int) -> None:
    """Whoever is to act bets `chips` on hand `pos`, unless the rules already placed that bet
    (a bonus duel's last hand is the dealer's only move)."""
    hands = s.public_view().hands
    if s.players_to_act and hands[pos].state is HandState.AVAILABLE:
        s.apply(Bet(pos, chips), s.players_to_act[0])


def ended(start: int, moves: list[tuple[int, int]], end: tuple[int, str] | None = None
          ) -> tuple[PublicView, str | None]:
    """A duel on DEAL_1 then DEAL_2 with `moves` (position, chips), then `end` (the player who
    gives up, and "surrender" or "timeout"): its view and end reason."""
    s = DuelState.new(start, first_dealer=0)
    s.deal(deck(DEAL_1), b"reason-1")
    for pos, chips in moves:
        if s.needs_deal:
            s.deal(deck(DEAL_2), b"reason-2")
        if not s.is_over:
            bet_on(s, pos, chips)
    if end is not None:
        s.apply(Surrender(end[1]), end[0])
    return s.public_view(), s.end_reason


def _reasons(out: list[Shot], fmt: str, labels_for: LabelsFor, offer: str,
             drawn: PublicView) -> None:
    """The table after bullet 2 with its bullet folded in, the offer with one answer, and a
    result for every way a duel ends, in English and Russian."""
    six = [(2, 1), (3, 1), (4, 1), (0, 2), (1, 2), (5, 2),
           (0, 2), (1, 2), (2, 2), (3, 2), (4, 2), (5, 2)]
    bullets, _ = ended(50, [*six[:4], (1, 2), (5, 2), *six[6:11], (3, 2), (5, 2)])
    bust, _ = ended(8, six)
    ahead, _ = ended(50, six[:4], (0, "surrender"))
    late, _ = ended(50, [*six[:2], (4, 1), (0, 1)], (0, "timeout"))
    t = DuelState.from_json(offer)  # the tiebreak played on hands #2 and #3: no bust
    t.apply(TiebreakAnswer(True), 0)
    t.apply(TiebreakAnswer(True), 1)
    t.deal(deck(DEAL_3), b"reason-3")
    bet_on(t, 1, 2)
    bet_on(t, 2, 2)
    tiebreak = t.public_view()
    shots_: list[tuple[str, str, PublicView, str | None]] = [
        ("bullets", "six bullets played: the stacks decide", bullets, "bullets"),
        ("tiebreak", "won in a tiebreak bullet", tiebreak, t.end_reason),
        ("bust", "a player out of chips ends it early", bust, "bust"),
        ("surrender", "Алиса surrenders while ahead: Bob wins with fewer chips", ahead,
         "surrender"),
        ("timeout", "Алиса runs out of time", late, "timeout"),
        ("declined", "level stacks, the tiebreak declined: a draw", drawn, "declined"),
    ]
    for stem, what, v, reason in shots_:
        for lang in ("en", "ru"):
            out.append((f"30_result_{stem}_{lang}", f"{what} ({lang})",
                        _result(v, labels_for(lang), reason, fmt)))
    s = DuelState.new(50, first_dealer=0)
    s.deal(deck(DEAL_1), b"fold")
    for pos, chips in six[:4]:
        bet_on(s, pos, chips)
    after_two = s.public_view()
    for lang in ("en", "ru"):
        out.append((f"31_table_folded_{lang}", f"bullet 3 to play: bullet 2 folded into the "
                    f"table ({lang})", _table(after_two, labels_for(lang), fmt)))
    en = labels_for("en")
    out += [  # a chat's setting: ♣ green, ♦ blue (render.palette.Deck)
        ("32_four_colour_table", "the four-colour deck: the table with bullet 2 folded in",
         lambda: draw_table(after_two, names=NAMES, labels=en, deck=Deck.FOUR, fmt=fmt)),
        ("32_four_colour_reveal", "the four-colour deck: a reveal",
         lambda: draw_reveal(after_two, names=NAMES, labels=en, deck=Deck.FOUR, fmt=fmt)),
        ("32_four_colour_result", "the four-colour deck: a result and its scorecard",
         lambda: draw_result(bullets, names=NAMES, labels=en, reason="bullets", deck=Deck.FOUR,
                             fmt=fmt)),
    ]


def _result(v: PublicView, labels: Labels, reason: str | None, fmt: str) -> Callable[[], bytes]:
    return lambda: draw_result(v, names=NAMES, labels=labels, reason=reason, fmt=fmt)


def _table(v: PublicView, labels: Labels, fmt: str) -> Callable[[], bytes]:
    return lambda: draw_table(v, names=NAMES, labels=labels, fmt=fmt)


def _long_names(out: list[Shot], fmt: str, labels_for: LabelsFor) -> None:
    s = DuelState.new(50, first_dealer=1)
    s.deal(deck(DEAL_1), b"preview-long")
    s.apply(Bet(1, 2), 0)
    s.apply(Bet(0, 2), 1)
    s.apply(Bet(2, 1), 0)
    v = s.public_view()
    out.append(("20_long_names", "a long Cyrillic name and an emoji-only one (ru)",
                lambda: draw_table(v, names=LONG, labels=labels_for("ru"), fmt=fmt)))
    out.append(("21_long_names_reveal", "the same names in a reveal (en)",
                lambda: draw_reveal(v, names=LONG, labels=labels_for("en"), fmt=fmt)))
    while not s.is_over:
        p = s.players_to_act[0] if s.players_to_act else 0
        if s.needs_deal:
            s.deal(deck(DEAL_2), b"preview-long-2")
        elif s.legal_actions(p):
            s.apply(s.legal_actions(p)[-1], p)
    end = s.public_view()
    out.append(("22_long_names_result", "the same names in a result (ru)",
                lambda: draw_result(end, names=LONG, labels=labels_for("ru"), fmt=fmt)))
