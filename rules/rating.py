"""A player's skill rating in a chat, pure: Weng-Lin Bayesian ratings (OpenSkill's
Plackett-Luce model, the library's default) between two people, updated after every duel.

    initial()                     -> Rating of a newcomer (mu 25, sigma 25/3, no duels)
    after_duel(a, b, winner)      -> (a', b'): winner 0 (a won), 1 (b won), None (a draw)
    shown(r)                      -> the number players see, about 1000 for a newcomer
    provisional(r)                -> True while it rests on fewer than PROVISIONAL duels

Only this module talks to openskill; the rest of the project sees `Rating` values. Weng-Lin
needs no rating periods (Glicko-2 does), moves after each duel and knows draws.

The shown number is the library's ordinal, the skill the player is 99.7 % likely to exceed,
scaled: ``shown = round(SCALE * (mu - 3 * sigma) + BASE)`` = ``round(20 * (mu - 3σ) + 1000)``.
A newcomer (mu 25, sigma 25/3) shows 1000; a first win shows 1069, a first loss 963. Since the
uncertainty is subtracted, a lucky newcomer stays below a player proven over many duels, and
the number grows as sigma shrinks with play.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from openskill.models import PlackettLuce

SCALE = 20.0  # shown points per unit of ordinal
BASE = 1000.0  # what an ordinal of 0 (a newcomer) shows
Z = 3.0  # standard deviations taken off mu for the ordinal
PROVISIONAL = 5  # a rating on fewer duels than this is marked provisional ("?")

_MODEL = PlackettLuce()


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float  # the skill's estimated mean
    sigma: float  # its uncertainty (standard deviation)
    duels: int = 0  # duels it has been updated by

    def __post_init__(self) -> None:
        if not self.sigma > 0:
            raise ValueError("a rating's sigma is positive")
        if self.duels < 0:
            raise ValueError("a rating counts no negative number of duels")


def initial() -> Rating:
    """A player's rating before their first counted duel: the model's default."""
    r = _MODEL.rating()
    return Rating(r.mu, r.sigma, 0)


def after_duel(a: Rating, b: Rating, winner: Literal[0, 1] | None) -> tuple[Rating, Rating]:
    """Both players' ratings after a duel between them: `winner` 0 if `a` won, 1 if `b` did,
    None for a draw. (A surrender or a timeout is a win for the other player.)"""
    if winner not in (0, 1, None):
        raise ValueError("the winner is 0, 1 or None")
    ranks: list[float] = [1, 1] if winner is None else [1, 2] if winner == 0 else [2, 1]
    [[na], [nb]] = _MODEL.rate([[_MODEL.rating(a.mu, a.sigma)], [_MODEL.rating(b.mu, b.sigma)]],
                               ranks=ranks)
    return Rating(na.mu, na.sigma, a.duels + 1), Rating(nb.mu, nb.sigma, b.duels + 1)


def ordinal(r: Rating) -> float:
    """The rating's conservative skill, mu - 3 sigma (0 for a newcomer)."""
    return r.mu - Z * r.sigma


def shown(r: Rating) -> int:
    """The number players see: round(20 * (mu - 3 sigma) + 1000); 1000 for a newcomer."""
    return round(SCALE * ordinal(r) + BASE)


def provisional(r: Rating) -> bool:
    """True while the rating rests on fewer than `PROVISIONAL` duels (shown with a "?")."""
    return r.duels < PROVISIONAL


def label(r: Rating) -> str:
    """The shown number as text, "1069?" while provisional."""
    return f"{shown(r)}?" if provisional(r) else str(shown(r))


@dataclass(frozen=True, slots=True)
class Game:
    """What a rating needs of a result."""

    chat_id: int
    players: tuple[int, int]
    winner_id: int | None  # None: a draw

    def winner(self) -> Literal[0, 1] | None:
        if self.winner_id is None:
            return None
        return 0 if self.winner_id == self.players[0] else 1


def replay(games: Iterable[Game]) -> dict[tuple[int, int], Rating]:
    """Every (chat, player)'s rating after `games`, taken in the order given (oldest first)."""
    out: dict[tuple[int, int], Rating] = {}
    for g in games:
        a, b = ((g.chat_id, p) for p in g.players)
        out[a], out[b] = after_duel(out.get(a, initial()), out.get(b, initial()),
                                    g.winner())
    return out
