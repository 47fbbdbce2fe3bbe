"""A duel's review as it is kept and shown: `Review`, each player's `PlayerReview` and their
worst `Mistake`, and its JSON (`to_json`, `from_json`: the round trip the database keeps).

What the figures mean and how they are computed is `rules.duel.review`'s; this module is the
value alone, so the bot's process can read a kept review without loading the judge (numpy:
`rules.duel.searches`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from rules.duel.actions import Bet, parse_action

FORMAT = 2  # the JSON's "v": 1 judged by the expectimax, 2 by `rules.duel.judge`


@dataclass(frozen=True, slots=True)
class Mistake:
    bullet: int  # the bullet number (1..6, 7+ tiebreak)
    chosen: Bet  # what the player did
    best: Bet  # the better move
    loss: float  # how much probability of winning the duel it cost (0..1)


@dataclass(frozen=True, slots=True)
class PlayerReview:
    decisions: int  # the player's bets that had a choice (forced moves, answers excluded)
    accuracy: float  # 0..100: 100 * exp(-ACCURACY_K * mean loss)
    luck: float  # P(win) points, -1..1: what the cards gave beyond each bullet's expectation
    worst: Mistake | None


@dataclass(frozen=True, slots=True)
class Review:
    players: tuple[PlayerReview, PlayerReview]

    def to_json(self) -> str:
        return json.dumps({"v": FORMAT, "players": [_player_json(p) for p in self.players]},
                          separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Review:
        data: dict[str, Any] = json.loads(text)
        first, second = (_player_of(p) for p in data["players"])
        return cls((first, second))


def _player_json(p: PlayerReview) -> dict[str, Any]:
    worst = None if p.worst is None else {
        "bullet": p.worst.bullet, "chosen": str(p.worst.chosen), "best": str(p.worst.best),
        "loss": p.worst.loss}
    return {"decisions": p.decisions, "accuracy": p.accuracy, "luck": p.luck, "worst": worst}


def _bet_of(code: str) -> Bet:
    action = parse_action(code)
    if not isinstance(action, Bet):
        raise ValueError(f"not a bet: {code!r}")
    return action


def _player_of(data: dict[str, Any]) -> PlayerReview:
    w = data["worst"]
    worst = None if w is None else Mistake(int(w["bullet"]), _bet_of(w["chosen"]),
                                           _bet_of(w["best"]), float(w["loss"]))
    return PlayerReview(int(data["decisions"]), float(data["accuracy"]), float(data["luck"]),
                        worst)
