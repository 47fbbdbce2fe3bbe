"""`sixshooter`: run the bot (long polling, or a webhook when configured).

`sixshooter verify COMMITMENT SALT DECK` checks a round's deck against its commitment instead
(exit 0: it matches, 1: it does not, 2: malformed input); it needs no configuration.
"""

from __future__ import annotations

import os
import sys

from telegram.error import InvalidToken

from bot import logs
from bot.config import Config, ConfigError
from bot.storage import StorageError


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["verify"]:  # a round's fairness proof, checked offline: no token needed
        from bot.verify import cli

        return cli(args[1:])
    try:
        config = Config.from_env(os.environ)
    except ConfigError as e:
        print(f"sixshooter: {e}", file=sys.stderr)
        return 2
    logs.setup(config.log_level, secrets=[config.token])
    from bot.app import UPDATES, build

    app = build(config)
    try:
        if config.use_webhook and config.webhook_url:
            app.run_webhook(listen="0.0.0.0", port=config.webhook_port,
                            webhook_url=config.webhook_url, allowed_updates=UPDATES)
        else:
            app.run_polling(allowed_updates=UPDATES)
    except StorageError as e:
        print(f"sixshooter: {e}", file=sys.stderr)
        return 2
    except InvalidToken:
        print("sixshooter: Telegram refused the token in TELEGRAM_BOT_TOKEN; get a valid one "
              "from @BotFather (/token)", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
