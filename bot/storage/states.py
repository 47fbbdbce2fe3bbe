"""The saved states of a game's records, parsed once (`LiveGames.state`).

A state's JSON is its log, and parsing it replays the log (every deal dealt again, every move
applied again): a duel's tap read the same saved state three times (the rules' move, the live
message, the turn timer) and the replays were a fifth of the event loop's time under load
(issue 21); a six-card press parsed its state three times. Here each record keeps its last
`PER_GAME` states, parsed or saved by this process: the newest (what the next press reads)
and the one before (what its message shows while the next is drawn). A state is found by its
JSON itself (the same text is the same record at the same version), or, for a duel, by its
version (a record's version is one state, whichever worker saved it: the save is a
compare-and-swap on the version), so what is found is never stale, on one worker or several.

Kept per record, not as one list of recent states: with N games at once, the state a press
needs was saved by that game's previous press, N presses ago, and a list of the last 128
states pushed it out past 64 duels at once, so a press cost more the more games were live
(issue 21). `SIZE` records are kept (about 9 KB a duel's state): far more than are ever played
at once on one process.

One `States` per game and process (`bot.storage.duels.STATES`, `bot.storage.sixcard.STATES`),
whatever repositories read that game's table. What `parsed` and `find` return is shared: read
it, never apply a move to it (the move is applied to a copy, `fresh`, and the state it makes
is `kept` once saved).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

S = TypeVar("S")

SIZE = 4096  # records kept, the least recently read first out
PER_GAME = 2  # states kept of each: the newest and the one its message may still show


class States(Generic[S]):
    """One game's states, parsed by `parse` (the rules' `from_json`); `copy` makes a state
    that a move may change of a shared one."""

    def __init__(self, parse: Callable[[str], S], copy: Callable[[S], S],
                 size: int = SIZE) -> None:
        self.parse = parse
        self.copy = copy
        self.size = size
        self._games: OrderedDict[int, tuple[tuple[str, S], ...]] = OrderedDict()

    def parsed(self, game_id: int, state_json: str) -> S:
        """The state this JSON of the record saves, to read only (shared with other
        readers)."""
        for text, state in self._games.get(game_id, ()):
            if text == state_json:
                self._games.move_to_end(game_id)
                return state
        state = self.parse(state_json)
        self.kept(game_id, state_json, state)
        return state

    def fresh(self, game_id: int, state_json: str) -> S:
        """The state this JSON saves, to apply a move to (the shared one stays as it is)."""
        return self.copy(self.parsed(game_id, state_json))

    def kept(self, game_id: int, state_json: str, state: S) -> None:
        """`state` was just saved as `state_json`: its readers need not parse it again (the
        caller applies no move to it from here on)."""
        games = self._games
        others = tuple(e for e in games.get(game_id, ()) if e[0] != state_json)
        games[game_id] = ((state_json, state), *others)[:PER_GAME]
        games.move_to_end(game_id)
        while len(games) > self.size:
            games.popitem(last=False)

    def find(self, game_id: int, wanted: Callable[[S], bool]) -> S | None:
        """The newest state kept of the record that is `wanted`, to read only."""
        for _, state in self._games.get(game_id, ()):
            if wanted(state):
                return state
        return None
