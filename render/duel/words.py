"""The duel's words drawn on its pictures, from the catalogs' `pic.*` and `hand.*`: a stake, a
hand's category inside a sentence (and its short form for a narrow column), a hand named by
its ranks ("ace high", «пара дам»), and the strip's sentence on a finished bullet, which says
why the winner won (a better category, higher ranks, or a kicker: rules.showdown)."""

from __future__ import annotations

from render import text
from render.text import Labels
from rules.cards import Rank
from rules.duel.view import BulletResult, Outcome
from rules.hands import Category, HandValue
from rules.showdown import Decider, decided_by, main_ranks


def stake_label(labels: Labels, chips: int, bonus_duel: bool) -> str:
    if bonus_duel:
        return labels.text("pic.duel.stake")
    return labels.text("pic.duel.play" if chips >= 2 else "pic.duel.pass")


def cat_lc(labels: Labels, category: Category) -> str:
    """A category's name inside a sentence, lower case ("one pair", "пара")."""
    return labels.text(f"pic.duel.lc.{category.name.lower()}")


def cat_fit(labels: Labels, category: Category, size: int, room: int,
            face: str = "narrow") -> str:
    """A category inside a sentence when it fits in `room` px, else its catalog's short form
    (`pic.duel.short.*`: «ст. карта», the translator's choice, never a cut)."""
    whole = cat_lc(labels, category)
    if text.width(whole, size, face) <= room:
        return whole
    return labels.text(f"pic.duel.short.{category.name.lower()}")


def named(labels: Labels, value: HandValue) -> str:
    """A hand with the ranks that name it, inside a sentence: "ace high", "pair of queens",
    «пара дам» (`pic.duel.named.*` filled with `pic.rank.one|of|to.*`)."""
    main = [Rank(r).name.lower() for r in main_ranks(value)]
    ranks: dict[str, object] = {}
    if main:
        ranks = {"one": labels.text(f"pic.rank.one.{main[0]}"),
                 "of": labels.text(f"pic.rank.of.{main[0]}"),
                 "to": labels.text(f"pic.rank.to.{main[0]}")}
    if len(main) > 1:
        ranks["of2"] = labels.text(f"pic.rank.of.{main[1]}")
    return labels.text(f"pic.duel.named.{value.category.name.lower()}", **ranks)


def summary(result: BulletResult, names: tuple[str, str], labels: Labels, *,
            nets: bool = True) -> str:
    """What happened in `result`, in one sentence: "Bullet 2: Bob's pair of nines beats Alice's
    ace high · Bob +2 this bullet", "… · incl. bonus +7" when one was paid (by the winner's
    hand, named already); a
    showdown of equal hands but a kicker says so."""
    b = result.number
    w = result.winner
    if result.outcome is Outcome.BOTH_PASS:
        parts = [labels.text("pic.duel.fold_both_pass", bullet=b)]
    elif result.outcome is Outcome.SPLIT or w is None:
        parts = [labels.text("pic.duel.fold_split", bullet=b,
                             cat=cat_lc(labels, result.values[0].category))]
    else:
        l_ = 1 - w
        win, lose = result.values[w], result.values[l_]
        if result.outcome is Outcome.UNCONTESTED:
            parts = [labels.text("pic.duel.fold_uncontested", bullet=b, w=names[w], l=names[l_])]
        elif decided_by(win, lose) is Decider.KICKER:
            parts = [labels.text("pic.duel.fold_kicker", bullet=b, w=names[w],
                                 hand=named(labels, win))]
        else:
            parts = [labels.text("pic.duel.fold_showdown", bullet=b, w=names[w], l=names[l_],
                                 wcat=named(labels, win), lcat=named(labels, lose))]
        if nets:
            parts.append(labels.text("pic.duel.fold_net", name=names[w],
                                     n=text.signed(result.deltas[w], change=True)))
        if result.bonus > 0 and result.bonus_category is not None:
            # the winner's hand is named already: the bonus is by that hand
            parts.append(labels.text("pic.duel.fold_bonus", n=text.signed(result.bonus)))
    return " · ".join(parts)
