"""Webhook mode through the real bot process: updates posted with the secret Telegram was given
are answered; forged ones (a wrong or missing secret, another path) are refused and change
nothing; the secret is generated once and kept in the database unless configured.

The fake Bot API records setWebhook but delivers nothing to the webhook (its URL is a public
https one): the tests post each update to the bot's local port as Telegram would, with the
`X-Telegram-Bot-Api-Secret-Token` header.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest
from telegram.error import BadRequest, Conflict

from bot.telegram.webhook import SECRET_KEY
from tests.support.botprocess import BotProcess, LaunchBot, fake_bot
from tests.support.fakeapi import FakeTelegramAPI, RecordedRequest
from tests.support.fakeapi.core import member_dict
from tests.support.fakeapi.model import JSON, FakeChat, FakeMessage, FakeUser, bot_user_dict
from tests.support.workers import free_port

HOOK_URL = "https://bot.example.org/hook"
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
TIMEOUT = 30.0


def webhook_env(port: int, **extra: str) -> dict[str, str]:
    return {"SIXSHOOTER_WEBHOOK_URL": HOOK_URL, "SIXSHOOTER_WEBHOOK_PORT": str(port), **extra}


async def wait_webhook_set(bot: BotProcess, *, since: int = 0) -> RecordedRequest:
    """The bot's setWebhook call, once its server listens; fails early if the bot exits."""
    assert bot.process is not None
    waiting = asyncio.ensure_future(
        bot.api.wait_for_request("setWebhook", since=since, timeout=TIMEOUT))
    exited = asyncio.ensure_future(bot.process.wait())
    try:
        done, _ = await asyncio.wait({waiting, exited}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (waiting, exited):
            if not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
    assert waiting in done, f"the bot exited before setWebhook:\n{bot.log()[-4000:]}"
    request = waiting.result()
    assert request.ok, request.summary()
    await wait_listening(int(bot.extra_env["SIXSHOOTER_WEBHOOK_PORT"]))
    return request


async def wait_listening(port: int) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + TIMEOUT
    while True:
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            assert loop.time() < deadline, f"nothing listens on port {port}"
            await asyncio.sleep(0.05)
            continue
        writer.close()
        await writer.wait_closed()
        return


async def post(port: int, update: JSON, *, secret: str | None, path: str = "/hook") -> int:
    headers = {} if secret is None else {SECRET_HEADER: secret}
    async with httpx.AsyncClient(timeout=10) as client:
        response = await client.post(f"http://127.0.0.1:{port}{path}", json=update,
                                     headers=headers)
    return response.status_code


def update_of(api: FakeTelegramAPI, message: FakeMessage) -> JSON:
    """The queued update carrying `message` (what Telegram would post to the webhook)."""
    assert message.update_id is not None, "the bot would not see this message"
    return next(u for u in api.all_updates if u["update_id"] == message.update_id)


def kicked_update(api: FakeTelegramAPI, chat: FakeChat, by: FakeUser) -> JSON:
    """A made-up my_chat_member update saying the bot was removed from the chat."""
    bot = bot_user_dict()
    return {
        "update_id": 999_999_001,
        "my_chat_member": {
            "chat": chat.to_dict(),
            "from": by.to_dict(),
            "date": 1_700_000_000,
            "old_chat_member": member_dict(bot, "member"),
            "new_chat_member": member_dict(bot, "left"),
        },
    }


# What the bot's clock moves on its own, whatever comes in: its repeating jobs' next times.
CLOCKWORK = ("due_jobs",)


def database(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table but the clockwork's (read-only, beside the running bot): a
    snapshot that knows nothing else of the schema, to show that nothing changed."""
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
        tables = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            if r[0] not in CLOCKWORK]
        return {t: sorted(map(tuple, conn.execute(f'SELECT * FROM "{t}"')), key=repr)
                for t in tables}


async def stored_secret(bot: BotProcess) -> str | None:
    return await (await bot.storage()).meta.get(SECRET_KEY)


def listen_addresses(port: int) -> set[str] | None:
    """Local addresses listening on `port` (Linux /proc), or None where /proc has no answer."""
    found: set[str] = set()
    for name in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(name).read_text().splitlines()[1:]:
                local, state = line.split()[1], line.split()[3]
                address, hex_port = local.rsplit(":", 1)
                if state == "0A" and int(hex_port, 16) == port:  # 0A: LISTEN
                    found.add(address)
    return found or None


async def test_webhook_answers_the_secret_and_refuses_forgeries(
    fake_api: FakeTelegramAPI, launch_bot: LaunchBot
) -> None:
    port = free_port()
    bot = await launch_bot(env=webhook_env(port, SIXSHOOTER_LOG_LEVEL="DEBUG"),
                           wait_polling=False)
    hook = await wait_webhook_set(bot)
    secret = hook.params["secret_token"]
    assert hook.params["url"] == HOOK_URL
    assert re.fullmatch(r"[A-Za-z0-9_-]{16,256}", secret)
    assert await stored_secret(bot) == secret  # generated once, kept in bot_meta
    assert set(hook.params["allowed_updates"]) == {
        "message", "callback_query", "my_chat_member", "inline_query", "chosen_inline_result"}
    addresses = listen_addresses(port)
    if addresses is not None:
        assert addresses == {"0100007F"}, "the webhook listens on 127.0.0.1 only by default"

    alice = fake_api.add_user("Alice", username="alice")
    bob = fake_api.add_user("Bob", username="bob")
    private = fake_api.private_chat(alice)
    start = update_of(fake_api, fake_api.send_message(alice, private, "/start"))
    assert await post(port, start, secret=secret) == 200
    await fake_api.wait_for_message(private, timeout=TIMEOUT)

    group = fake_api.create_group("Friends", members=[alice, bob])
    duel = update_of(fake_api, fake_api.send_command(alice, group, "duel", mention_bot=True))
    for wrong_path in ("/", "/hooks", "/other/hook"):
        assert await post(port, duel, secret=secret, path=wrong_path) == 404
    assert await post(port, duel, secret=secret) == 200  # the URL's own path: a proxy keeps it
    challenge = await fake_api.wait_for_message(group, lambda m: bool(m.buttons()),
                                                timeout=TIMEOUT)
    await asyncio.sleep(0.5)  # the challenge's row is saved around its message

    before, sent = database(bot.db_path), len(fake_api.bot_messages(group))
    forged_duel = update_of(fake_api, fake_api.send_command(bob, group, "duel", mention_bot=True))
    for update in (forged_duel, kicked_update(fake_api, group, bob)):
        assert await post(port, update, secret=secret[:-1]) == 403
        assert await post(port, update, secret=secret + "x") == 403
        assert await post(port, update, secret=None) == 403
    await asyncio.sleep(1.0)
    assert len(fake_api.bot_messages(group)) == sent, "a forged update was answered"
    assert database(bot.db_path) == before, "a forged update changed the database"
    assert fake_api.message(group, challenge.message_id).buttons() == challenge.buttons()

    assert await post(port, forged_duel, secret=secret) == 200  # the same update, genuine
    answer = await fake_api.wait_for_message(group, after_message_id=challenge.message_id,
                                             timeout=TIMEOUT)
    # Delivered again (Telegram retries a POST whose answer it did not get): 200, no effect.
    assert await post(port, forged_duel, secret=secret) == 200
    await asyncio.sleep(1.0)
    assert [m.message_id for m in fake_api.bot_messages(group)
            if m.message_id > challenge.message_id] == [answer.message_id]
    # The load balancer's health check, on the same port.
    async with httpx.AsyncClient() as client:
        health = await client.get(f"http://127.0.0.1:{port}/healthz")
    assert (health.status_code, health.text) == (200, "ok\n")
    assert bot.running
    log = bot.log()
    assert "setWebhook" in log  # PTB logged the call's parameters at DEBUG...
    assert secret not in log and fake_api.token not in log  # ...with the secrets masked


async def test_the_secret_is_kept_across_restarts_unless_configured(
    fake_api: FakeTelegramAPI, launch_bot: LaunchBot
) -> None:
    port = free_port()
    bot = await launch_bot(env=webhook_env(port), wait_polling=False)
    generated = (await wait_webhook_set(bot)).params["secret_token"]

    await bot.kill()
    since = fake_api.last_seq
    await bot.start(wait_polling=False)
    assert (await wait_webhook_set(bot, since=since)).params["secret_token"] == generated

    configured = "my-own_secret-0123456789abcdef"
    await bot.kill()
    bot.extra_env["SIXSHOOTER_WEBHOOK_SECRET"] = configured
    since = fake_api.last_seq
    await bot.start(wait_polling=False)
    assert (await wait_webhook_set(bot, since=since)).params["secret_token"] == configured
    assert await stored_secret(bot) == generated  # kept for when the variable goes

    alice = fake_api.add_user("Alice")
    private = fake_api.private_chat(alice)
    start = update_of(fake_api, fake_api.send_message(alice, private, "/start"))
    assert await post(port, start, secret=generated) == 403
    assert await post(port, start, secret=configured) == 200
    await fake_api.wait_for_message(private, timeout=TIMEOUT)
    assert configured not in bot.log()


async def test_the_fakes_webhook_methods_check_like_telegram(fake_api: FakeTelegramAPI) -> None:
    async with fake_bot(fake_api) as client:
        for url, error in (("http://bot.example.org/hook", "HTTPS URL must be provided"),
                           ("https://bot.example.org:8080/hook", "only on ports 80, 88, 443")):
            with pytest.raises(BadRequest, match=f"(?i){error}"):
                await client.set_webhook(url)
        with pytest.raises(BadRequest, match=r"(?i)unallowed characters"):
            await client.set_webhook(HOOK_URL, secret_token="no:colons")
        with pytest.raises(BadRequest, match=r"(?i)too long"):
            await client.set_webhook(HOOK_URL, secret_token="a" * 257)
        assert await client.set_webhook(HOOK_URL, secret_token="s" * 256,
                                        allowed_updates=["message"], max_connections=5)
        info = fake_api.webhook
        assert info is not None
        assert (info["url"], info["max_connections"], info["allowed_updates"]) == (
            HOOK_URL, 5, ["message"])
        with pytest.raises(Conflict, match="webhook is active"):
            await client.get_updates()
        assert await client.delete_webhook()
        assert fake_api.webhook is None
        assert await client.get_updates(timeout=0) == ()
