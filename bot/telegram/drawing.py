"""The one drawing thread.

Pillow lets go of the interpreter while it draws and encodes, so other chats' taps go on
meanwhile; one thread, so the shared fonts and sprite caches are never used by two draws at
once. Every picture the bot sends (the duel's, six-card poker's, /stats') is drawn here. The
`Drawer` belongs to `Services`: made with it (the thread starts with the first picture) and
shut down when the application stops."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from bot.ops import metrics


class Drawer:
    """Runs picture functions, one at a time, in its own thread."""

    def __init__(self) -> None:
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="draw")

    async def draw(self, picture: Callable[[], bytes]) -> bytes:
        """Run a picture function in the drawing thread."""
        metrics.drawing()
        return await asyncio.get_running_loop().run_in_executor(self._executor, picture)

    def shutdown(self) -> None:
        """Let the thread go, once the picture it may be drawing is done; none is queued then
        (the application has stopped taking updates)."""
        self._executor.shutdown(wait=True, cancel_futures=True)
