"""bot.telegram.drawing: pictures are drawn in one thread of their own, one at a time, and the
thread goes when its Services' drawer is shut down."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from bot.telegram.drawing import Drawer


async def test_pictures_are_drawn_one_at_a_time_off_the_event_loop() -> None:
    drawer = Drawer()
    running, overlaps, threads = 0, 0, set()

    def picture() -> bytes:
        nonlocal running, overlaps
        running += 1
        overlaps = max(overlaps, running)
        threads.add(threading.current_thread().name)
        time.sleep(0.01)
        running -= 1
        return b"png"

    try:
        assert await asyncio.gather(*(drawer.draw(picture) for _ in range(5))) == [b"png"] * 5
    finally:
        drawer.shutdown()
    assert overlaps == 1
    assert len(threads) == 1 and threads.pop().startswith("draw")
    assert threading.current_thread().name not in threads


async def test_no_thread_before_the_first_picture_nor_after_shutdown() -> None:
    before = {t.name for t in threading.enumerate()}
    drawer = Drawer()
    assert {t.name for t in threading.enumerate()} == before
    await drawer.draw(lambda: b"x")
    drawer.shutdown()
    assert not [t for t in threading.enumerate() if t.name not in before and t.is_alive()]
    with pytest.raises(RuntimeError):
        await drawer.draw(lambda: b"y")
