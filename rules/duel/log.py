"""The duel's log: what a duel is saved as, and what it tells about the duel's past.

A duel is its parameters (the starting stack, the first dealer) and what happened, in order:
each deal (the deck in deal order and the salt, as text) and each action (the player and the
action's code). Its JSON text is the saved form,

    {"v":2,"start_stack":50,"first_dealer":0,"log":[["deal",DECK,SALT],["act",PLAYER,CODE],...]}

and replaying it (`DuelState.replay`) rebuilds the duel. A duel's `version` is the number of
actions in its log (deals are not actions): the bot saves one version per action.
Format 2 logs a forced move (the dealer's only hand in a bonus duel) nowhere: the rules place
it. Format 1 (duels begun before) logged it as the dealer's action, and replays as it was.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True, slots=True)
class DealEntry:
    deck: str  # rules.fairness.deck_text
    salt: str  # lowercase hex


@dataclass(frozen=True, slots=True)
class ActEntry:
    player: int
    code: str  # the action's code, e.g. "b32"


Entry = DealEntry | ActEntry


@dataclass(frozen=True, slots=True)
class DuelLog:
    start_stack: int
    first_dealer: int
    entries: tuple[Entry, ...] = ()
    forced_moves: bool = True  # format 2: the rules place a player's only legal bet

    def dealt(self, deck: str, salt: str) -> DuelLog:
        return replace(self, entries=(*self.entries, DealEntry(deck, salt)))

    def acted(self, player: int, code: str) -> DuelLog:
        return replace(self, entries=(*self.entries, ActEntry(player, code)))

    @property
    def version(self) -> int:
        return sum(1 for e in self.entries if isinstance(e, ActEntry))

    def _check(self, version: int) -> None:
        if not 0 <= version <= self.version:
            raise ValueError(f"no version {version}: the duel is at version {self.version}")

    def upto(self, version: int) -> DuelLog:
        """The log of the duel after its first `version` actions, with the deal that came right
        after the last of them (if one was due then). ValueError for a version it never had."""
        self._check(version)
        acts = 0
        for end, entry in enumerate(self.entries):
            if isinstance(entry, ActEntry):
                if acts == version:
                    return replace(self, entries=self.entries[:end])
                acts += 1
        return self

    def actors_since(self, version: int) -> list[int]:
        """The player of each action after the first `version` ones, in order."""
        self._check(version)
        return [e.player for e in self.entries if isinstance(e, ActEntry)][version:]

    def act_at(self, version: int) -> ActEntry:
        """The action that took the duel from `version` to `version + 1`. ValueError for a
        version with no action after it."""
        if not 0 <= version < self.version:
            raise ValueError(f"no action after version {version}: the duel is at version "
                             f"{self.version}")
        return [e for e in self.entries if isinstance(e, ActEntry)][version]

    def to_json(self) -> str:
        log = [["deal", e.deck, e.salt] if isinstance(e, DealEntry) else ["act", e.player, e.code]
               for e in self.entries]
        return json.dumps({"v": 2 if self.forced_moves else 1, "start_stack": self.start_stack,
                           "first_dealer": self.first_dealer, "log": log}, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> DuelLog:
        data: dict[str, Any] = json.loads(text)
        entries = tuple(DealEntry(str(e[1]), str(e[2])) if e[0] == "deal"
                        else ActEntry(int(e[1]), str(e[2])) for e in data["log"])
        return cls(int(data["start_stack"]), int(data["first_dealer"]), entries,
                   forced_moves=int(data.get("v", 1)) >= 2)
