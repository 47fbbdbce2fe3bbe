"""What operators see: the metrics (metrics), the health check (health) and the small HTTP
server for both (server). The Bot API's calls are counted where they are made
(`bot.telegram.http.MeteredRequest`): bot.ops imports nothing of bot.telegram.

`metrics` imports nothing of the bot, so any layer may call its hooks (`bot.storage.db` times
every statement through it); the server and the health check sit above storage."""
