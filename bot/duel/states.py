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
from typing import Any

from rules.duel import DuelState

SIZE = 128  # states kept: a tap's reads come within a few of the others' taps in between

_KEPT: OrderedDict[str, DuelState] = OrderedDict()
_AT: OrderedDict[tuple[int, int], DuelState] = OrderedDict()  # (duel id, version) -> kept


def parsed(state_json: str) -> DuelState:
    """The state this JSON saves, to read only (shared with other readers)."""
    state = _KEPT.get(state_json)
    if state is None:
        state = DuelState.from_json(state_json)
        _keep(_KEPT, state_json, state)
    else:
        _KEPT.move_to_end(state_json)
    return state


def kept(state_json: str, state: DuelState, duel_id: int) -> None:
    """`state` was just saved as `state_json`, the duel's version `state.version`: its
    readers need not parse it again, nor rebuild it as the version a message shows (the
    caller applies no move to it from here on). A duel's version is one state, whichever
    worker saved it (the save is a compare-and-swap on the version)."""
    _keep(_KEPT, state_json, state)
    _keep(_AT, (duel_id, state.version), state)


def at(state: DuelState, duel_id: int, version: int) -> DuelState:
    """`state.at(version)` (the duel as a message that shows `version` shows it), kept from
    that version's save when this process made it: read only."""
    found = _AT.get((duel_id, version))
    return found if found is not None else state.at(version)


def _keep(kept: OrderedDict[Any, DuelState], key: Any, state: DuelState) -> None:
    kept[key] = state
    kept.move_to_end(key)
    while len(kept) > SIZE:
        kept.popitem(last=False)
