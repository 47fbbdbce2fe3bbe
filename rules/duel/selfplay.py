"""A duel played out by its players' choices on seeded deals, pure: the one loop behind the
AI arena, the review benchmark, the odds benchmark's states and the tests that play whole
duels. The deals come from `rules.cards.shuffled_deck(deals)` and
`rules.fairness.new_salt(deals)`, so the same `deals` source gives the same cards whoever
plays; every tiebreak offer is accepted.

    play_out(DuelState.new(50, 0), random.Random(7), lambda view, player: ...)
"""

from __future__ import annotations

import random
from collections.abc import Callable

from rules.cards import shuffled_deck
from rules.duel.actions import Action, TiebreakAnswer
from rules.duel.state import DuelState
from rules.duel.view import Phase, PublicView
from rules.fairness import new_salt

Chooser = Callable[[PublicView, int], Action]  # the move of a player, from the public view
Watcher = Callable[[DuelState, PublicView, int], None]  # sees each state before its move


def play_out(state: DuelState, deals: random.Random, choose: Chooser, *,
             max_tiebreaks: int | None = None, max_moves: int | None = None,
             watch: Watcher | None = None) -> DuelState:
    """Play `state` on until the duel is over, dealing when a deal is due; stop early after
    `max_tiebreaks` tiebreak deals (the duel then stays level and unfinished) or
    `max_moves` moves. Returns `state`, played on."""
    tiebreaks = moves = 0
    while not state.is_over:
        if state.needs_deal:
            if state.round >= 2:
                tiebreaks += 1
                if max_tiebreaks is not None and tiebreaks > max_tiebreaks:
                    break
            state.deal(shuffled_deck(deals), new_salt(deals))
            continue
        if max_moves is not None and moves >= max_moves:
            break
        player = state.players_to_act[0]
        view = state.public_view()
        if watch is not None:
            watch(state, view, player)
        if view.phase is Phase.TIEBREAK_OFFER:
            action: Action = TiebreakAnswer(True)
        else:
            action = choose(view, player)
        state.apply(action, player)
        moves += 1
    return state
