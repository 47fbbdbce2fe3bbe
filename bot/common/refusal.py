"""Why nothing happened, for any game or command: a catalog key and the values its text takes.

    Refusal("toast.hand_taken")                       a press on a hand already chosen
    Refusal.of("sixcard.error_boxes", boxes=5, most=3)  a command's argument out of range

A quiet refusal (`quiet`) is answered with no toast at all: a double tap on a move just made.
A refusal is shown in the language of whoever is answered (`text`), and logged by its key.
Parsers raise `Refused`, which carries one.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import Html, Translator


@dataclass(frozen=True, slots=True)
class Refusal:
    key: str  # the catalog text that explains it
    values: tuple[tuple[str, object], ...] = ()
    quiet: bool = False  # nothing to explain: the press is answered with no toast

    @classmethod
    def of(cls, key: str, **values: object) -> Refusal:
        return cls(key, tuple(values.items()))

    def text(self, tr: Translator) -> Html:
        return tr.t(self.key, **dict(self.values))

    def __str__(self) -> str:
        return self.key


class Refused(ValueError):
    """Input that cannot be used; `refusal` says why, in words the catalogs hold."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.key)
        self.refusal = refusal
