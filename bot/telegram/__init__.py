"""Everything that speaks to Telegram and nothing about a game: sending and editing (send),
the callback data of every button (callbacks), the HTML the bot writes (html), the command
menu (menu), the one drawing thread (drawing), the per-chat rate limiter (ratelimit) and the
flood window it counts in (flood), the commands that only show something (chatter), the fair
update processor (scheduling), the updates coming in (intake: saved before acknowledged;
polling, one leader at a time; hook, the webhook's server; runner, the application's life),
the webhook's settings (webhook) and the first connection (connect).

`App` is the Application every feature package registers its handlers with."""

from __future__ import annotations

from typing import Any

from telegram.ext import Application

App = Application[Any, Any, Any, Any, Any, Any]
