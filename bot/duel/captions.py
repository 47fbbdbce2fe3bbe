"""Captions for the duel's messages, from the public view and the catalogs. HTML, escaped."""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import Html, Translator, html_escape, mention_html
from rules.cards import Rank
from rules.duel import BulletResult, DealProof, Outcome, Phase, PublicView
from rules.hands import HandValue
from rules.showdown import Decider, decided_by, main_ranks


@dataclass(frozen=True, slots=True)
class Seat:
    user_id: int
    name: str
    bot: bool = False  # the bot itself, in a practice duel: never mentioned

    @property
    def mention(self) -> str:
        """A mention: Telegram notifies the player (of a newly sent message). Only whoever
        must act, and the players of a result, are mentioned; elsewhere `plain`."""
        return self.plain if self.bot else mention_html(self.user_id, self.name)

    @property
    def plain(self) -> Html:
        """The name without a mention (no notification)."""
        return Html(f"<b>{html_escape(self.name)}</b>")


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
        return tr.t("showdown.kicker", name=seats[result.winner].plain,
                    hand=_named(tr, win, "hand"))
    return tr.t("showdown.beats", name=seats[result.winner].plain,
                hand=_named(tr, win, "hand"), loser=seats[1 - result.winner].plain,
                other=_named(tr, lose, "than"))


def _heading(tr: Translator, view: PublicView) -> str:
    if view.is_tiebreak:
        return tr.t("duel.heading_tiebreak", bullet=view.bullet)
    return tr.t("duel.heading", round=view.round, bullet=view.bullet)


def _stacks(tr: Translator, view: PublicView, seats: tuple[Seat, Seat]) -> str:
    return tr.t("duel.stacks", p0=seats[0].plain, s0=view.stacks[0], p1=seats[1].plain,
                s1=view.stacks[1])


def folded(view: PublicView) -> BulletResult | None:
    """The bullet just finished, which the live message shows beside the table (its own
    reveal message is folded away): the one before the bullet in play, or at a tiebreak
    offer the last one."""
    last = view.last_result
    if last is None:
        return None
    if view.phase is Phase.BULLET and last.number == view.bullet - 1:
        return last
    if view.phase is Phase.TIEBREAK_OFFER and last.number == view.bullet:
        return last
    return None


def _folded_lines(tr: Translator, view: PublicView, seats: tuple[Seat, Seat]) -> list[str]:
    """The bullet just finished in one line: who took what, and a bonus paid (the picture
    shows its hands and what decided it)."""
    last = folded(view)
    if last is None:
        return []
    bonus = _bonus(tr, last, "duel.last_bonus", seats)
    took = " ".join([_took(tr, last, seats), *([bonus] if bonus else [])])
    return [f"<i>{tr.t('duel.last_bullet', bullet=last.number)}</i> {took}"]


def _took(tr: Translator, result: BulletResult, seats: tuple[Seat, Seat]) -> str:
    """Who took what in a bullet, the bonus aside: both passed, a split, or the winner's."""
    if result.outcome is Outcome.BOTH_PASS:
        return tr.t("reveal.both_pass")
    if result.outcome is Outcome.SPLIT:
        return tr.t("reveal.split", hand=_named(tr, result.values[0], "hand"))
    assert result.winner is not None
    gain = abs(result.deltas[result.winner]) - result.bonus
    key = "reveal.uncontested" if result.outcome is Outcome.UNCONTESTED else "reveal.showdown"
    return tr.tn(key, gain, name=seats[result.winner].plain)


def _bonus(tr: Translator, result: BulletResult, key: str,
           seats: tuple[Seat, Seat]) -> str | None:
    """The bonus a bullet paid, said by `key` (plural in the bonus); None for none or zero
    (a zero bonus is no news)."""
    if result.winner is None or result.bonus_category is None or result.bonus <= 0:
        return None
    return tr.tn(key, result.bonus, name=seats[result.winner].plain,
                 category=_category(tr, result, result.winner))


def bullet_caption(tr: Translator, view: PublicView, seats: tuple[Seat, Seat],
                   commitment: bool = False) -> str:
    """The live bullet in four short lines: which bullet, what the one just finished did,
    the stacks, whose move. The picture shows the rest better (the hands, the chips placed,
    the bonus duel's rule). The deck's commitment is in the duel's header; with `commitment`
    (a duel without a header in its chat: it moved to a supergroup) a deal's first bullet
    shows it too, on a fifth line."""
    lines = [f"<b>{_heading(tr, view)}</b>", *_folded_lines(tr, view, seats),
             _stacks(tr, view, seats)]
    if view.to_act:
        actor = view.to_act[0]
        key = "duel.turn_bonus" if view.bonus_duel else (
            "duel.turn_dealer" if actor == view.dealer else "duel.turn_opponent")
        lines.append(tr.t(key, mention=seats[actor].mention))
    if commitment and view.commitment and view.bullet_in_round == 1:
        lines.append(tr.t("duel.header_round", round=view.round, commitment=view.commitment))
    return "\n".join(lines)


def reveal_caption(
    tr: Translator, view: PublicView, result: BulletResult, seats: tuple[Seat, Seat]
) -> str:
    """A finished bullet: both hands, what decided a showdown, who took what, the bonus; the
    deck proof at round end."""
    head = (tr.t("duel.heading_tiebreak", bullet=result.number)
            if view.is_tiebreak_round(result.round) else
            tr.t("duel.heading", round=result.round, bullet=result.number))
    lines = [f"<b>{head}</b>", *_reveal_body(tr, result, seats)]
    lines.append(tr.t("duel.stacks", p0=seats[0].plain, s0=result.stacks_after[0],
                      p1=seats[1].plain, s1=result.stacks_after[1]))
    proof = next((p for p in view.proofs if p.round == result.round), None)
    last_of_deal = not any(r.round == result.round and r.number > result.number
                           for r in view.results)
    if proof is not None and last_of_deal:
        lines.append(_proof(tr, proof))
    return "\n".join(lines)


def _reveal_body(tr: Translator, result: BulletResult, seats: tuple[Seat, Seat]) -> list[str]:
    """Both hands, what decided a showdown, who took what, a bonus paid."""
    lines: list[str] = []
    for p in (0, 1):
        lines.append(tr.tn("reveal.hand", result.stakes[p], name=seats[p].plain,
                           hand=result.positions[p] + 1, category=_category(tr, result, p)))
    if result.outcome is Outcome.SHOWDOWN:
        lines.append(_decided(tr, result, seats))
    lines.append(_took(tr, result, seats))
    bonus = _bonus(tr, result, "reveal.bonus", seats)
    return [*lines, bonus] if bonus else lines


def _proof(tr: Translator, proof: DealProof) -> str:
    deck = "".join(c.code for c in proof.deck)
    return tr.t("duel.proof", round=proof.round, salt=proof.salt, deck=deck)


def result_caption(
    tr: Translator, view: PublicView, seats: tuple[Seat, Seat], reason: str | None
) -> str:
    """Who won and why (a winner with fewer chips says why), the stacks, how to check the
    deals (their salts and decks are on the result's copy buttons)."""
    s0, s1 = view.stacks
    lines: list[str] = []
    if view.winner is None:
        lines.append(tr.t("result.draw", s0=s0, s1=s1))
    else:
        loser = seats[1 - view.winner].mention
        if reason in ("surrender", "timeout", "bust"):
            lines.append(tr.t(f"result.{reason}", name=loser))
        won, lost = view.stacks[view.winner], view.stacks[1 - view.winner]
        lines.append(tr.t("result.winner", name=seats[view.winner].mention, s0=won, s1=lost))
        if view.stacks[view.winner] < view.stacks[1 - view.winner]:
            lines.append(tr.t("result.behind", name=loser))
        if reason == "tiebreak":
            lines.append(tr.t("result.by_tiebreak"))
    last = view.last_result
    if last is not None and reason not in ("surrender", "timeout", "declined"):
        # The bullet that ended it (its own reveal is folded away like the others').
        lines += [f"<i>{tr.t('duel.last_bullet', bullet=last.number)}</i>",
                  *_reveal_body(tr, last, seats)]
    lines.append(_stacks(tr, view, seats))
    if view.proofs:
        lines.append(tr.t("result.verify"))
    return "\n".join(lines)


def offer_caption(tr: Translator, view: PublicView, seats: tuple[Seat, Seat]) -> str:
    """The tiebreak question, with each player's answer so far (both are mentioned when it
    is first asked: both must answer; then whoever has not answered)."""
    lines = [f"<b>{tr.t('tiebreak.offer', s=view.stacks[0])}</b>",
             *_folded_lines(tr, view, seats)]
    for p in (0, 1):  # only whoever is still to answer is mentioned
        if view.tiebreak_answers[p]:
            lines.append(tr.t("tiebreak.agreed", name=seats[p].plain))
        else:
            lines.append(tr.t("tiebreak.waiting", name=seats[p].mention))
    return "\n".join(lines)


def deals_of(view: PublicView) -> list[tuple[int, str]]:
    """Every deal of the duel so far, as (round, commitment), oldest first."""
    deals = [(p.round, p.commitment) for p in view.proofs]
    if view.commitment and (not deals or deals[-1][0] != view.round):
        deals.append((view.round, view.commitment))
    return deals


def header_caption(tr: Translator, view: PublicView, seats: tuple[Seat, Seat]) -> str:
    """The challenge's message once accepted: who duels, who dealt first, and each deal's
    commitment as soon as it is dealt (the proof published before play stays in view)."""
    lines = [tr.t("duel.header", p0=seats[0].mention, p1=seats[1].mention,
                  stack=view.start_stack, dealer=seats[view.first_dealer].mention)]
    for round_, commitment in deals_of(view):
        if view.is_tiebreak_round(round_):
            lines.append(tr.t("duel.header_tiebreak", bullet=view.max_bullets + round_
                              - view.rounds, commitment=commitment))
        else:
            lines.append(tr.t("duel.header_round", round=round_, commitment=commitment))
    lines.append(tr.t("duel.header_verify"))
    return "\n".join(lines)
