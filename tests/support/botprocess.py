"""The bot as a real subprocess against the fake Bot API, and clients of the fake.

``BotProcess(api, db_path, log_path)`` starts the ``sixshooter`` console script (or
``python -m bot``) with its own SQLite file; ``await proc.start()`` returns once the bot
long-polls. ``kill()`` (SIGKILL), ``stop()`` (SIGTERM, graceful), ``restart()`` (same
database); ``await proc.storage()`` opens the bot's database in this process, to read it
through the bot's repositories (see ``stored``), and ``close_storage()`` closes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import telegram
from telegram.request import HTTPXRequest

from bot.storage import Storage

from .fakeapi import FakeTelegramAPI, RecordedRequest

REPO_ROOT = Path(__file__).resolve().parents[2]
# Variables of the outer environment that would change how the bot runs.
_SCRUBBED_ENV = ("SIXSHOOTER_WEBHOOK_URL", "SIXSHOOTER_WEBHOOK_PORT", "SIXSHOOTER_WEBHOOK_LISTEN",
                 "SIXSHOOTER_WEBHOOK_SECRET", "TELEGRAM_API_BASE_URL")


def bot_command() -> list[str]:
    """The installed ``sixshooter`` script next to this interpreter, else ``python -m bot``."""
    script = Path(sys.executable).parent / "sixshooter"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "bot"]


def plain_http_request(**kwargs: Any) -> HTTPXRequest:
    """An HTTPXRequest for the fake's plain-HTTP URL.

    It skips loading the CA bundle (``verify=False``), which costs ~0.1 s per client.
    """
    return HTTPXRequest(httpx_kwargs={"verify": False}, **kwargs)


def fake_bot(api: FakeTelegramAPI) -> telegram.Bot:
    """A python-telegram-bot client for the fake (use as ``async with fake_bot(api) as bot``)."""
    return telegram.Bot(
        api.token,
        base_url=api.base_url,
        request=plain_http_request(),
        get_updates_request=plain_http_request(),
    )


class BotProcess:
    """The bot running as a separate process against the fake API."""

    def __init__(
        self,
        api: FakeTelegramAPI,
        db_path: Path | str,
        log_path: Path,
        *,
        command: Sequence[str] | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        self.api = api
        self.db_path = db_path
        self.log_path = log_path
        self.command = list(command) if command is not None else bot_command()
        self.extra_env = dict(env or {})
        self.process: asyncio.subprocess.Process | None = None
        self.starts = 0
        self._storage: Storage | None = None

    def environment(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in _SCRUBBED_ENV}
        env |= {
            "TELEGRAM_BOT_TOKEN": self.api.token,
            "TELEGRAM_API_BASE_URL": self.api.base_url,
            "SIXSHOOTER_DB": str(self.db_path),
            "PYTHONUNBUFFERED": "1",
        }
        return env | self.extra_env

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.returncode is None

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    def log(self) -> str:
        """Everything the bot printed (stdout and stderr) over all its runs."""
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    async def start(self, *, wait_polling: bool = True, timeout: float = 30.0) -> None:
        """Start the process; with ``wait_polling`` return once it calls getUpdates."""
        if self.running:
            raise RuntimeError("the bot is already running")
        since = self.api.last_seq
        self.starts += 1
        with self.log_path.open("ab") as log:
            log.write(f"---- start #{self.starts}: {' '.join(self.command)}\n".encode())
            log.flush()
            self.process = await asyncio.create_subprocess_exec(
                *self.command,
                cwd=REPO_ROOT,
                env=self.environment(),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=asyncio.subprocess.STDOUT,
            )
        if wait_polling:
            await self.wait_polling(since=since, timeout=timeout)

    async def wait_polling(self, *, since: int = 0, timeout: float = 30.0) -> RecordedRequest:
        """Wait for a getUpdates call after ``since``; fail early if the process exits."""
        assert self.process is not None
        polled = asyncio.ensure_future(
            self.api.wait_for_request("getUpdates", since=since, timeout=timeout, completed=False)
        )
        exited = asyncio.ensure_future(self.process.wait())
        try:
            done, _ = await asyncio.wait({polled, exited}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (polled, exited):
                if not task.done():
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
        if polled in done:
            return polled.result()
        raise RuntimeError(
            f"the bot exited with code {self.process.returncode} before polling; log:\n"
            f"{self.log()[-4000:]}"
        )

    async def kill(self) -> int:
        """kill -9, as a crash or an OOM kill would; returns the exit code."""
        if self.process is None:
            return 0
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.send_signal(signal.SIGKILL)
        return await self.process.wait()

    async def stop(self, timeout: float = 15.0) -> int:
        """SIGTERM and wait for a graceful exit; a bot still running after ``timeout`` is
        killed (-9) and the test fails: a stop must never hang (docker gives 10 s)."""
        if self.process is None:
            return 0
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.send_signal(signal.SIGTERM)
            try:
                return await asyncio.wait_for(self.process.wait(), timeout)
            except TimeoutError:
                await self.kill()
                raise AssertionError(f"the bot did not stop within {timeout} s of SIGTERM; "
                                     f"its log ends:\n{self.log()[-2000:]}") from None
        return self.process.returncode

    async def restart(self, *, hard: bool = True, timeout: float = 30.0) -> None:
        """Kill (``hard``: SIGKILL, else SIGTERM) and start again on the same database."""
        await (self.kill() if hard else self.stop())
        await self.start(timeout=timeout)

    async def storage(self) -> Storage:
        """The bot's database opened in this process (once: later calls return the same),
        to read what the bot stored through its own repositories. The bot must have created
        it (opening runs the migrations). It stays open across restarts of the bot."""
        if self._storage is None:
            self._storage = await Storage.open(self.db_path)
        return self._storage

    async def close_storage(self) -> None:
        if self._storage is not None:
            storage, self._storage = self._storage, None
            await storage.close()


# The type of the e2e fixture ``launch_bot``: ``await launch_bot(env=..., command=...,
# wait_polling=True, timeout=30.0, db_path=None)`` -> a started BotProcess.
LaunchBot = Callable[..., Awaitable[BotProcess]]
