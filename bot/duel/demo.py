"""`sixshooter demo [DIR]`: see a whole duel before setting anything up. No token, no network:
two AI players (`rules.duel.ai`, levels chosen by flags) play a duel with the real rules, and
every picture the group would see (the table at each turn, the result with its scorecard) is
written to DIR with the transcript of the captions, in the chosen language, as the bot would
post them (the header, each turn's message, the result), and the duel's review (accuracy,
luck, each player's worst move: `rules.duel.review`)."""

from __future__ import annotations

import html
import random
import re
from pathlib import Path

import render
from bot.duel.captions import (
    Seat,
    bullet_caption,
    header_caption,
    offer_caption,
    result_caption,
)
from bot.duel.keyboards import bet_word
from bot.duel.reviews import review_text
from bot.i18n import Translator, translator
from rules.cards import shuffled_deck
from rules.duel import Bet, DuelState, Phase, TiebreakAnswer, choose_first_dealer
from rules.duel.ai import Level, choose
from rules.duel.review import review
from rules.fairness import new_salt

NAMES = {"en": ("Alice", "Bob"), "ru": ("Анна", "Дмитрий"), "uk": ("Оксана", "Тарас"),
         "de": ("Anna", "Jonas"), "es": ("Lucía", "Mateo"), "pt_BR": ("Ana", "João"),
         "id": ("Siti", "Budi"), "tr": ("Ayşe", "Mehmet"),
         "fr": ("Camille", "Hugo"), "it": ("Giulia", "Marco"),
         "ar": ("ليلى", "عمر"), "fa": ("سارا", "آرش")}


def plain(caption: str) -> str:
    """A caption as people read it: no tags, entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", "", caption))


def _move(tr: Translator, state: DuelState, action: Bet | TiebreakAnswer) -> str:
    if isinstance(action, TiebreakAnswer):
        return tr.t("button.tiebreak_yes" if action.accept else "button.tiebreak_no")
    face = state.public_view().hands[action.position].face_up.display
    return tr.t("button.hand", hand=action.position + 1, card=face,
                bet=bet_word(tr, action, state.bonus_duel))


def play(out: Path, *, lang: str = "en", levels: tuple[Level, Level] = ("easy", "hard"),
         seed: int = 1, stack: int = 50) -> list[Path]:
    """Play one duel into `out` (created); the files written, the transcript last."""
    out.mkdir(parents=True, exist_ok=True)
    tr = translator(lang)
    names = NAMES.get(lang, NAMES["en"])
    seats = (Seat(1, names[0]), Seat(2, names[1]))
    deals, moves = random.Random(seed), random.Random(seed + 1)
    state = DuelState.new(stack, choose_first_dealer(deals))
    written: list[Path] = []
    lines = [f"# Six-Shooter demo: {names[0]} ({levels[0]}) vs {names[1]} ({levels[1]}), "
             f"seed {seed}", ""]

    def picture(name: str, data: bytes) -> None:
        path = out / f"{len(written) + 1:02d}_{name}.png"
        path.write_bytes(data)
        written.append(path)
        lines.append(f"[picture {path.name}]")

    headed = 0
    while not state.is_over:
        if state.needs_deal:
            state.deal(shuffled_deck(deals), new_salt(deals))
        view = state.public_view()
        if len(view.proofs) + 1 > headed:  # a new deal: the header shows its commitment
            headed = len(view.proofs) + 1
            lines += ["== header (edited) ==", plain(header_caption(tr, view, seats)), ""]
        if view.phase is Phase.TIEBREAK_OFFER:
            caption = offer_caption(tr, view, seats)
        else:
            caption = bullet_caption(tr, view, seats)
        lines.append("== message ==")
        picture("table", render.table(view, names=names, labels=tr, fmt="png"))
        lines.append(plain(caption))
        player = view.to_act[0]
        action = choose(view, player, levels[player], moves)
        assert isinstance(action, Bet | TiebreakAnswer)
        lines += [f">>> {names[player]} taps [{_move(tr, state, action)}]", ""]
        state.apply(action, player)
    view = state.public_view()
    lines.append("== result ==")
    picture("result", render.result(view, names=names, labels=tr, reason=state.end_reason,
                                    fmt="png"))
    lines.append(plain(result_caption(tr, view, seats, state.end_reason)))
    lines += ["", "== review (the result's 🔎 button) ==",
              plain(review_text(tr, names, review(state, random.Random(seed))))]
    transcript = out / "transcript.txt"
    transcript.write_text("\n".join(lines) + "\n", encoding="utf-8")
    written.append(transcript)
    return written

