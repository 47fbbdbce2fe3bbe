"""The duel states a tap reads, parsed once.

`DuelState.from_json` replays the duel's whole log (every deal dealt again, every move
applied again): a tap read the same saved state three times (the rules' move, the live
message, the turn timer) and the replays were a fifth of the event loop's time under load
(issue 21). Here a saved state is parsed once and kept, keyed by its JSON itself, so a key
is never stale, on one worker or several: the same text is the same duel at the same
version. What `parsed` returns is shared: read it, never apply a move to it (the move is
applied to a fresh parse, `DuelState.from_json`, and the state it makes is `kept` once
saved).
"""

from __future__ import annotations

from collections import OrderedDict

from rules.duel import DuelState

SIZE = 128  # states kept: a tap's reads come within a few of the others' taps in between

_KEPT: OrderedDict[str, DuelState] = OrderedDict()


def parsed(state_json: str) -> DuelState:
    """The state this JSON saves, to read only (shared with other readers)."""
    state = _KEPT.get(state_json)
    if state is None:
        state = DuelState.from_json(state_json)
        kept(state_json, state)
    else:
        _KEPT.move_to_end(state_json)
    return state


def kept(state_json: str, state: DuelState) -> None:
    """`state` was just saved as `state_json`: its readers need not parse it again (the
    caller applies no move to it from here on)."""
    _KEPT[state_json] = state
    _KEPT.move_to_end(state_json)
    while len(_KEPT) > SIZE:
        _KEPT.popitem(last=False)
