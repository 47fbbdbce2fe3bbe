"""Labels for the picture tests: the English catalog's words, with every key asked for kept,
so a test can check that a picture asks only for keys both catalogs have."""

from __future__ import annotations

from bot.i18n import translator

EN = translator("en")


class Recording:
    """Labels that keep the keys asked for (and answer in English)."""

    def __init__(self) -> None:
        self.keys: list[str] = []

    def text(self, key: str, /, **values: object) -> str:
        self.keys.append(key)
        return EN.text(key, **values)

    def plural(self, key: str, n: int, /, **values: object) -> str:
        self.keys.append(key)
        return EN.plural(key, n, **values)
