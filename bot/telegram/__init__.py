"""Everything that speaks to Telegram and nothing about a game: sending and editing (send),
the callback data of every button (callbacks), the HTML the bot writes (html), the command
menu (menu), the per-chat rate limiter (ratelimit), the fair update processor (scheduling),
the webhook (webhook) and the first connection (connect)."""
