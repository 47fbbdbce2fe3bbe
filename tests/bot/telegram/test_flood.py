"""The flood window: at most `limit` calls in ANY `span` seconds (Telegram's rule), not a
bucket that lets a burst through and then one call every span/limit seconds; a hold from a
429 lets nothing through until it ends."""

from __future__ import annotations

import pytest

from bot.telegram.flood import MemoryWindow


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_a_full_window_frees_only_as_its_oldest_calls_age_out() -> None:
    clock = Clock()
    window = MemoryWindow(clock)
    for _ in range(20):
        assert await window.take("g", 20, 60) == 0.0
    assert await window.take("g", 20, 60) == pytest.approx(60)
    clock.now += 3  # a bucket of 20 a minute would have one call for it now; the window none
    assert await window.take("g", 20, 60) == pytest.approx(57)
    assert await window.free("g", 20, 60) == 0
    clock.now += 57
    assert await window.free("g", 20, 60) == 20  # all twenty aged out together
    assert await window.take("g", 20, 60) == 0.0


async def test_calls_spread_out_free_one_by_one() -> None:
    clock = Clock()
    window = MemoryWindow(clock)
    for _ in range(3):
        assert await window.take("g", 3, 60) == 0.0
        clock.now += 10
    assert await window.take("g", 3, 60) == pytest.approx(30)  # the first's minute ends at 60
    clock.now += 30
    assert await window.take("g", 3, 60) == 0.0
    assert await window.take("g", 3, 60) == pytest.approx(10)  # then the second's


async def test_keys_are_counted_apart() -> None:
    window = MemoryWindow(Clock())
    assert await window.take("a", 1, 60) == 0.0
    assert await window.take("a", 1, 60) > 0
    assert await window.take("b", 1, 60) == 0.0


async def test_a_hold_lets_nothing_through_until_it_ends() -> None:
    clock = Clock()
    window = MemoryWindow(clock)
    await window.hold("g", 30)
    assert await window.held("g") == pytest.approx(30)
    assert await window.take("g", 20, 60) == pytest.approx(30)
    assert await window.free("g", 20, 60) == 0
    await window.hold("g", 5)  # a shorter one does not shorten it
    clock.now += 29.9
    assert await window.take("g", 20, 60) > 0
    clock.now += 0.2
    assert await window.held("g") == 0.0
    assert await window.take("g", 20, 60) == 0.0
    assert await window.held("other") == 0.0
