"""Pictures, pure: a public view (rules.duel.view, rules.sixcard.view) or plain rows in, image
bytes out. Every picture takes its words as `labels` (a `render.text.Labels`: the bot passes
its Translator), so render/ holds no language; one that shows cards takes the chat's `deck=` (a
`render.Deck`: the classic two colours, or four).

    render.table(view, names=("Alice", "Bob"), labels=tr) -> bytes      # the duel's table now,
                                                 # the last bullet of its deal folded in
    render.reveal(view, result, names=..., labels=tr) -> bytes         # a bullet turned over
    render.result(view, names=..., labels=tr, reason=state.end_reason) -> bytes
                                                 # the end of the duel: why, and the scorecard
    render.sixcard(six_view, name="Alice", labels=tr) -> bytes         # six-card poker, any time
    render.leaderboard(board, labels=tr), render.player_card(card, labels=tr)   # /stats

A language written right to left gives labels that say so (`rtl`, and the `digits` its numbers
are drawn in: bot.i18n.Translator has both): its pictures are then mirrored (player 1, hand 1,
the first place and the columns from the right; the cards themselves never) and their Arabic
script shaped, see render.text.writing and render.text.mirrored.

The duel's pictures are 720 px wide (a phone shows them at about 400) with no word under 20 px.
One package per game (render/duel/, render/sixcard/) beside what they share: the canvas, the
palette, the sprites, the text and the encoder. Nothing here receives a hidden card, so nothing
here can show one: the same public view gives the same bytes whatever the hidden cards are.
render/ imports nothing from bot/ or telegram.
"""

from __future__ import annotations

from render.duel.result import result
from render.duel.reveal import reveal
from render.duel.table import table
from render.palette import Deck
from render.sixcard.table import sixcard
from render.standings import leaderboard, player_card
from render.text import Labels

__all__ = ["Deck", "Labels", "leaderboard", "player_card", "result", "reveal", "sixcard", "table"]
