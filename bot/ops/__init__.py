"""What operators see: the metrics (metrics), the Bot API request class that counts every call
(requests), the health check (health) and the small HTTP server for both (server).

`metrics` imports nothing of the bot, so any layer may call its hooks (`bot.storage.db` times
every statement through it); the server and the health check sit above storage."""
