"""What every game's state is as a saved value: equal to another state of its game when both
save the same JSON (the deck, the log and the settings: everything it replays from), and never
a dict key, since it changes with every move."""

from __future__ import annotations

from abc import ABC, abstractmethod


class Saved(ABC):
    @abstractmethod
    def to_json(self) -> str:
        """The state as saved: enough to rebuild it exactly."""

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, type(self)):
            return NotImplemented
        return self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]  # mutable
