"""Starting the real bot process: one bot per database; no network at start means retrying with
one line per attempt, then starting once Telegram answers; a refused token is one line."""

from __future__ import annotations

import asyncio
import re
import socket
from collections.abc import Callable
from pathlib import Path

from tests.support.botprocess import BotProcess, LaunchBot
from tests.support.fakeapi import FakeTelegramAPI

TIMEOUT = 30.0
ATTEMPT = re.compile(
    r"^\S+ \S+ WARNING bot\.telegram\.connect: cannot reach Telegram \(NetworkError: [^\n]*\): "
    r"attempt (\d+) failed, next in (\d+) s$"
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def output(bot: BotProcess) -> list[str]:
    """What the bot printed, without the fixture's '---- start' headers."""
    return [line for line in bot.log().splitlines() if not line.startswith("---- start #")]


async def wait_log(bot: BotProcess, done: Callable[[list[str]], bool], what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + TIMEOUT
    while not done(output(bot)):
        assert loop.time() < deadline, f"{what} not seen; log:\n{bot.log()[-3000:]}"
        await asyncio.sleep(0.1)


async def answers_start(api: FakeTelegramAPI, name: str) -> None:
    user = api.add_user(name)
    private = api.private_chat(user)
    api.send_message(user, private, "/start")
    await api.wait_for_message(private, timeout=TIMEOUT)


async def test_a_second_bot_on_the_same_database_refuses_with_one_line(
    fake_api: FakeTelegramAPI, launch_bot: LaunchBot
) -> None:
    first = await launch_bot()
    since = fake_api.last_seq
    second = await launch_bot(db_path=first.db_path, wait_polling=False)
    assert second.process is not None
    assert await asyncio.wait_for(second.process.wait(), TIMEOUT) == 3
    assert output(second) == [
        f"sixshooter: another sixshooter (pid {first.pid}) is already running on the database "
        f"'{first.db_path}'; stop it first, or point SIXSHOOTER_DB at another file"
    ]
    assert fake_api.calls("getMe")[-1].seq < since, "the second bot talked to Telegram"
    assert not fake_api.failed_calls(include_conflicts=True)  # no 409 fight over getUpdates
    await answers_start(fake_api, "Alice")  # the first keeps working

    await first.kill()  # a crash: the kernel releases the lock
    third = await launch_bot(db_path=first.db_path)
    await answers_start(fake_api, "Bob")
    assert third.running


async def test_without_a_network_it_retries_one_line_each_then_starts(tmp_path: Path) -> None:
    api = FakeTelegramAPI(port=free_port())  # nothing listens there yet
    bot = BotProcess(api, tmp_path / "sixshooter.db", tmp_path / "bot.log")
    try:
        await bot.start(wait_polling=False)
        await wait_log(bot, lambda lines: len(lines) >= 3, "three attempts")
        assert bot.running
        lines = output(bot)
        matches = [ATTEMPT.match(line) for line in lines]
        assert all(matches), f"not one short line per attempt:\n{lines}"
        assert [(m.group(1), m.group(2)) for m in matches if m][:3] == [
            ("1", "1"), ("2", "2"), ("3", "4")]  # 1 s doubling
        assert all(len(line) < 200 for line in lines)
        assert "Traceback" not in bot.log() and api.token not in bot.log()

        await api.start()  # the network comes back
        await bot.wait_polling(timeout=TIMEOUT)
        await wait_log(bot, lambda lines: any("reached Telegram at attempt" in x for x in lines),
                       "the line saying it got through")
        await answers_start(api, "Alice")
        assert "Traceback" not in bot.log()
        assert await bot.stop() == 0
    finally:
        await bot.kill()
        await api.stop()


async def test_a_stop_while_waiting_for_the_network_exits_cleanly(tmp_path: Path) -> None:
    api = FakeTelegramAPI(port=free_port())  # never started
    bot = BotProcess(api, tmp_path / "sixshooter.db", tmp_path / "bot.log")
    try:
        await bot.start(wait_polling=False)
        await wait_log(bot, lambda lines: len(lines) >= 1, "the first attempt")
        assert await bot.stop(timeout=10) == 0
        assert "Traceback" not in bot.log()
    finally:
        await bot.kill()


async def test_a_refused_token_is_one_line_and_exit_2(
    fake_api: FakeTelegramAPI, launch_bot: LaunchBot
) -> None:
    wrong = "987654321:" + "Z" * 35  # well formed, not the fake's
    bot = await launch_bot(env={"TELEGRAM_BOT_TOKEN": wrong}, wait_polling=False)
    assert bot.process is not None
    assert await asyncio.wait_for(bot.process.wait(), TIMEOUT) == 2
    assert output(bot) == ["sixshooter: Telegram refused the token in TELEGRAM_BOT_TOKEN; get a "
                           "valid one from @BotFather (/token)"]
    assert fake_api.calls("getMe")[-1].status == 401
