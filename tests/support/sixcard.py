"""A six-card poker player through the fake Bot API: they start a game with ``/sixcard`` and
play it by a plan (``Hand``), and the settlement each message shows is read back."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .driver import TIMEOUT, command, press, text_of
from .fakeapi import FakeTelegramAPI
from .fakeapi.model import FakeChat, FakeMessage, FakeUser

# A net is signed: +150, −30, and ±0 for what a box or a game did that came to nothing.
NET = re.compile(r"^Result: ([+−±]?\d+) · balance (\d+)$", re.MULTILINE)
BOX_NET = re.compile(r"^Box (\d) · .* · ([+−±]?\d+) → (\d+)$", re.MULTILINE)


def chips(text: str) -> int:
    return int(text.replace("−", "-").lstrip("+±"))


def game_buttons(m: FakeMessage) -> dict[str, str]:
    """The live game's buttons by action code: {"b": "x:3:0:b", "r0": ..., "p": ...}."""
    return {d.rsplit(":", 1)[1]: d for d in m.callback_data() if d.startswith("x:")}


@dataclass
class Hand:
    args: str
    boxes: list[tuple[str, ...]]  # per decided box, in order: what to do ("b", "r", "p", "f")
    buy_dealer_game: bool
    net: int = 0
    balance: int = 0
    box_nets: list[int] = field(default_factory=list)
    offered: int = 0
    moves: list[str] = field(default_factory=list)


@dataclass
class Player:
    api: FakeTelegramAPI
    user: FakeUser
    chat: FakeChat

    async def tap(self, m: FakeMessage, data: str) -> None:
        """An accepted tap: silent answer, then the message is edited to the next moment."""
        before = m.content_key()
        toast = await press(self.api, self.user, m, data)
        assert toast is None, f"a legal tap was refused: {toast}"
        await self.api.wait_for(lambda: m.content_key() != before, TIMEOUT, "the game's edit")

    async def play(self, hand: Hand) -> FakeMessage:
        """Start a game and play it by the hand's plan; returns its (final) message."""
        m = await command(self.api, self.user, self.chat, "sixcard", hand.args)
        assert m.photo is not None, text_of(m)
        box, step = 0, 0
        while buttons := game_buttons(m):
            if "g" in buttons:
                hand.offered += 1
                code = "g" if hand.buy_dealer_game else "n"
            else:
                plan = hand.boxes[box] if box < len(hand.boxes) else ("p",)
                while step < len(plan) and ((plan[step] == "b" and "b" not in buttons)
                                            or (plan[step] == "r" and "r0" not in buttons)):
                    step += 1  # not on offer now (e.g. the balance would not cover the bet)
                want = plan[step] if step < len(plan) else "p"
                code = {"b": "b", "r": "r0"}.get(want, want)
                if code == "p" and "p" not in buttons:
                    code = "f"
                step += 1
                if code in ("p", "f"):
                    box, step = box + 1, 0
            hand.moves.append(code)
            await self.tap(m, buttons[code])
        text = text_of(m)
        found = NET.search(text)
        assert found, text
        hand.net, hand.balance = chips(found[1]), int(found[2])
        hand.box_nets = [chips(n) for _, n, _ in BOX_NET.findall(text)]
        return m
