"""The duel states a tap reads, parsed once.

`DuelState.from_json` replays the duel's whole log (every deal dealt again, every move
applied again): a tap read the same saved state three times (the rules' move, the live
message, the turn timer) and the replays were a fifth of the event loop's time under load
(issue 21). Here each duel keeps its last `PER_DUEL` states, parsed or saved by this process:
the newest (what the next tap reads) and the one before (what its live message shows while
the next is drawn). A state is found by its JSON itself (the same text is the same duel at the
same version) or by its version (a duel's version is one state, whichever worker saved it: the
save is a compare-and-swap on the version), so what is found is never stale, on one worker or
several.

Kept per duel, not as one list of recent states: with N duels at once, the state a tap needs
was saved by that duel's previous tap, N taps ago, and a list of the last 128 states pushed it
out past 64 duels at once, so a tap cost more the more duels were live (issue 21). `SIZE`
duels are kept (about 9 KB a state): far more than are ever played at once on one process.

What `parsed` and `at` return is shared: read it, never apply a move to it (the move is
applied to a copy of it, `DuelState.copy`, and the state it makes is `kept` once saved).
"""

from __future__ import annotations

from collections import OrderedDict

from rules.duel import DuelState

SIZE = 4096  # duels kept, the least recently read first out
PER_DUEL = 2  # states kept of each: the newest and the one its live message may still show

_DUELS: OrderedDict[int, tuple[tuple[str, DuelState], ...]] = OrderedDict()


def parsed(duel_id: int, state_json: str) -> DuelState:
    """The state this JSON of the duel saves, to read only (shared with other readers)."""
    for text, state in _DUELS.get(duel_id, ()):
        if text == state_json:
            _DUELS.move_to_end(duel_id)
            return state
    state = DuelState.from_json(state_json)
    _keep(duel_id, state_json, state)
    return state


def kept(duel_id: int, state_json: str, state: DuelState) -> None:
    """`state` was just saved as `state_json`: its readers need not parse it again, nor
    rebuild it as the version a message shows (the caller applies no move to it from here
    on)."""
    _keep(duel_id, state_json, state)


def at(duel_id: int, state: DuelState, version: int) -> DuelState:
    """`state.at(version)` (the duel as a message that shows `version` shows it), the one
    kept when this process saved or read that version: read only."""
    for _, found in _DUELS.get(duel_id, ()):
        if found.version == version:
            return found
    return state.at(version)


def _keep(duel_id: int, state_json: str, state: DuelState) -> None:
    others = tuple(e for e in _DUELS.get(duel_id, ()) if e[0] != state_json)
    _DUELS[duel_id] = ((state_json, state), *others)[:PER_DUEL]
    _DUELS.move_to_end(duel_id)
    while len(_DUELS) > SIZE:
        _DUELS.popitem(last=False)
