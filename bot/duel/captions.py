"""Captions for the duel's messages, from the public view and the catalogs. HTML, escaped."""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import Html, Translator, mention_html
from rules.cards import Rank
from rules.duel import BulletResult, DealProof, Outcome, Phase, PublicView
from rules.hands import HandValue
from rules.showdown import Decider, decided_by, main_ranks


@dataclass(frozen=True, slots=True)
class Seat:
    user_id: int
    name: str

    @property
    def mention(self) -> str:
        return mention_html(self.user_id, self.name)


def _category(tr: Translator, result: BulletResult, player: int) -> str:
    """The hand's name inside a sentence: lower case (`hand_lc.*`)."""
    return tr.t(f"hand_lc.{result.values[player].category.name.lower()}")


def _named(tr: Translator, value: HandValue, form: str) -> Html:
    """The hand with the ranks that name it ("pair of queens", «пара дам»): `form` "hand" for
    the winner's (Russian: nominative), "than" for the one it beats (Russian: genitive)."""
    main = [Rank(r).name.lower() for r in main_ranks(value)]
    ranks: dict[str, object] = {}
    if main:
        ranks = {"of": tr.t(f"rank.of.{main[0]}"), "to": tr.t(f"rank.to.{main[0]}"),
                 "one": tr.t(f"rank.one.{main[0]}")}
    if len(main) > 1:
        ranks["of2"] = tr.t(f"rank.of.{main[1]}")
    return tr.t(f"showdown.{form}.{value.category.name.lower()}", **ranks)


def _decided(tr: Translator, result: BulletResult, seats: tuple[Seat, Seat]) -> str:
    """What decided a showdown both played: the winner's hand beats the loser's (by category
    or by rank), or the same hand and a higher kicker (`rules.showdown`)."""
    assert result.winner is not None
    win, lose = result.values[result.winner], result.values[1 - result.winner]
    if decided_by(win, lose) is Decider.KICKER:
        return tr.t("showdown.kicker", name=seats[result.winner].mention,
                    hand=_named(tr, win, "hand"))
    return tr.t("showdown.beats", name=seats[result.winner].mention,
                hand=_named(tr, win, "hand"), loser=seats[1 - result.winner].mention,
                other=_named(tr, lose, "than"))


def _heading(tr: Translator, view: PublicView) -> str:
    if view.is_tiebreak:
        return tr.t("duel.heading_tiebreak", bullet=view.bullet)
    return tr.t("duel.heading", round=view.round, bullet=view.bullet)


def _stacks(tr: Translator, view: PublicView, seats: tuple[Seat, Seat]) -> str:
    return tr.t("duel.stacks", p0=seats[0].mention, s0=view.stacks[0], p1=seats[1].mention,
                s1=view.stacks[1])


def bullet_caption(tr: Translator, view: PublicView, seats: tuple[Seat, Seat]) -> str:
    """The live bullet: whose move, what is on the table, the deck commitment."""
    lines = [f"<b>{_heading(tr, view)}</b>", _stacks(tr, view, seats)]
    if view.bonus_duel:
        lines.append(tr.t("duel.bonus_rule"))
    for hand in view.hands:
        if hand.owner is not None and hand.chips and hand.cards is None:
            lines.append(tr.tn("duel.bet_placed", hand.chips, name=seats[hand.owner].mention,
                               hand=hand.position + 1))
    if view.to_act:
        actor = view.to_act[0]
        key = "duel.turn_bonus" if view.bonus_duel else (
            "duel.turn_dealer" if actor == view.dealer else "duel.turn_opponent")
        lines.append(tr.t(key, mention=seats[actor].mention))
    if view.commitment and view.bullet_in_round == 1:
        lines.append(tr.t("duel.commitment", commitment=view.commitment))
    return "\n".join(lines)


def reveal_caption(
    tr: Translator, view: PublicView, result: BulletResult, seats: tuple[Seat, Seat]
) -> str:
    """A finished bullet: both hands, what decided a showdown, who took what, the bonus; the
    deck proof at round end."""
    head = (tr.t("duel.heading_tiebreak", bullet=result.number)
            if view.is_tiebreak_round(result.round) else
            tr.t("duel.heading", round=result.round, bullet=result.number))
    lines = [f"<b>{head}</b>"]
    for p in (0, 1):
        lines.append(tr.tn("reveal.hand", result.stakes[p], name=seats[p].mention,
                           hand=result.positions[p] + 1, category=_category(tr, result, p)))
    if result.outcome is Outcome.BOTH_PASS:
        lines.append(tr.t("reveal.both_pass"))
    elif result.outcome is Outcome.SPLIT:
        lines.append(tr.t("reveal.split", hand=_named(tr, result.values[0], "hand")))
    else:
        assert result.winner is not None
        winner = seats[result.winner].mention
        gain = abs(result.deltas[result.winner]) - result.bonus
        if result.outcome is Outcome.SHOWDOWN:
            lines.append(_decided(tr, result, seats))
        key = "reveal.uncontested" if result.outcome is Outcome.UNCONTESTED else "reveal.showdown"
        lines.append(tr.tn(key, gain, name=winner))
        if result.bonus_category is not None and result.bonus > 0:  # a zero bonus is no news
            lines.append(tr.tn("reveal.bonus", result.bonus, name=winner,
                               category=_category(tr, result, result.winner)))
    lines.append(tr.t("duel.stacks", p0=seats[0].mention, s0=result.stacks_after[0],
                      p1=seats[1].mention, s1=result.stacks_after[1]))
    proof = next((p for p in view.proofs if p.round == result.round), None)
    last_of_deal = not any(r.round == result.round and r.number > result.number
                           for r in view.results)
    if proof is not None and last_of_deal:
        lines.append(_proof(tr, proof))
    return "\n".join(lines)


def _proof(tr: Translator, proof: DealProof) -> str:
    deck = "".join(c.code for c in proof.deck)
    return tr.t("duel.proof", round=proof.round, salt=proof.salt, deck=deck)


def result_caption(
    tr: Translator, view: PublicView, seats: tuple[Seat, Seat], reason: str | None
) -> str:
    s0, s1 = view.stacks
    lines: list[str] = []
    if view.winner is None:
        lines.append(tr.t("result.draw", s0=s0, s1=s1))
    else:
        loser = seats[1 - view.winner].mention
        if reason in ("surrender", "timeout", "bust"):
            lines.append(tr.t(f"result.{reason}", name=loser))
        lines.append(tr.t("result.winner", name=seats[view.winner].mention, s0=s0, s1=s1))
    lines.append(_stacks(tr, view, seats))
    if reason in ("surrender", "timeout") and view.proofs:
        # The deal in play when the duel stopped: no reveal published its deck.
        lines.append(_proof(tr, view.proofs[-1]))
    return "\n".join(lines)


def offer_caption(tr: Translator, view: PublicView, seats: tuple[Seat, Seat]) -> str:
    lines = [tr.t("tiebreak.offer", s=view.stacks[0])]
    for p in (0, 1):
        if view.tiebreak_answers[p]:
            lines.append(tr.t("tiebreak.agreed", name=seats[p].mention))
    return "\n".join(lines)


def closed_offer_caption(tr: Translator, view: PublicView) -> str:
    """The offer once settled: a tiebreak dealt, or declined (the result follows in its own
    message)."""
    if view.phase is Phase.OVER:
        return tr.t("tiebreak.declined")
    return tr.t("tiebreak.accepted", bullet=view.bullet)
