"""Run the fake standalone: ``python -m tests.support.fakeapi [--port N]``.

Prints the base_url for the bot and serves until interrupted. Control it with
``curl -X POST http://127.0.0.1:N/_test/<action> -d '{...}'``; actions: state, add_user,
create_group, create_topic, messages, send_message, send_command, press_button,
callback_answer, kick_bot, delete_message, inject_rate_limit, inject_network_failure; inline
mode: set_inline_mode, user_chat, inline_query, inline_answer, choose_inline_result,
inline_message, press_inline_button, delete_inline_message.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib

from .server import FakeTelegramAPI


async def _serve(port: int) -> None:
    api = FakeTelegramAPI(port=port)
    await api.start()
    print(f"TELEGRAM_API_BASE_URL={api.base_url}", flush=True)
    print(f"TELEGRAM_BOT_TOKEN={api.token}", flush=True)
    print(f"control: {api.test_url}/<action>", flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await api.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_serve(args.port))


if __name__ == "__main__":
    main()
