"""Pictures of a duel, pure: a public view (rules.view) in, image bytes out.

    render.table(view, names=("Alice", "Bob"), lang="en") -> bytes    # the table now
    render.reveal(view, result, names=..., lang=...) -> bytes        # a bullet turned over
    render.result(view, names=..., lang=...) -> bytes                # the end of the duel
    render.sixcard(six_view, name="Alice", lang="en") -> bytes         # six-card poker, any time

Nothing here receives a hidden card, so nothing here can show one: the same public view gives
the same bytes whatever the hidden cards are. render/ imports nothing from bot/ or telegram.
"""

from __future__ import annotations

from render.result import result
from render.reveal import reveal
from render.sixcard import sixcard
from render.table import table

__all__ = ["result", "reveal", "sixcard", "table"]
