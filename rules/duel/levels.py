"""The AI duelist's levels by name (`rules.duel.ai` plays them): what a saved practice duel
and the /practice buttons name, readable without loading the AI (numpy:
`rules.duel.searches`)."""

from __future__ import annotations

from typing import Literal

Level = Literal["random", "easy", "normal", "hard"]
LEVELS: tuple[Level, ...] = ("random", "easy", "normal", "hard")


def parse_level(text: str) -> Level:
    """A level from its name; ValueError naming the levels for anything else."""
    for level in LEVELS:
        if level == text:
            return level
    raise ValueError(f"a level is one of {', '.join(LEVELS)}")
