"""`sixshooter [run]`: run the bot (long polling, or a webhook when configured);
`sixshooter verify COMMITMENT SALT DECK`: check a round's deck offline (no configuration);
`sixshooter demo [DIR]`: two AI players play a duel, its pictures and transcript into DIR;
`sixshooter db copy SRC DST [--force]`: copy a whole database, e.g. SQLite to PostgreSQL;
`sixshooter db backup DEST [--db SRC]`: a checked copy of a running bot's SQLite database.

`--help` and `--version` need no configuration either. `run` reads the environment (see
`bot.config.ENVIRONMENT`), takes the database's single-instance lock, then reaches Telegram,
retrying while the network is down. Each refusal to start is one line on stderr and an exit
code (`EXIT_CODES`, also in `--help`).
"""

from __future__ import annotations

import argparse
import asyncio
import errno
import os
import sys
from importlib import metadata

from telegram.error import InvalidToken, TelegramError

from bot import dbbackup, dbcopy, instance, logs
from bot.config import ENVIRONMENT, Config, ConfigError
from bot.i18n import LANGUAGES
from bot.ops import memory
from bot.ops.health import HealthHandler
from bot.storage import Storage, StorageError
from bot.telegram import App, connect, http, runner, webhook

EXIT_OK = 0
EXIT_FAILED = 1  # Telegram failed the start in a way retrying does not fix
EXIT_CONFIG = 2  # the configuration, the token or the database needs fixing
EXIT_RUNNING = 3  # another bot runs on the same database
EXIT_CODES = f"""\
exit codes of run:
  {EXIT_OK}  stopped (SIGTERM or Ctrl-C)
  {EXIT_FAILED}  Telegram failed the start in a way that retrying does not fix
  {EXIT_CONFIG}  a variable, the token or the database needs fixing (the line says which)
  {EXIT_RUNNING}  another sixshooter is already running on the same database
"""
_TOKEN_REFUSED = ("Telegram refused the token in TELEGRAM_BOT_TOKEN; get a valid one from "
                  "@BotFather (/token)")
_LISTEN_ERRORS = (errno.EADDRINUSE, errno.EADDRNOTAVAIL, errno.EACCES)


def version() -> str:
    try:
        return metadata.version("sixshooter")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


def parser() -> argparse.ArgumentParser:
    raw = argparse.RawDescriptionHelpFormatter
    top = argparse.ArgumentParser(
        prog="sixshooter", formatter_class=raw, epilog=f"{ENVIRONMENT}\n{EXIT_CODES}",
        description="Six-Shooter Poker, a two-player card duel for Telegram groups: the bot.",
    )
    top.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    commands = top.add_subparsers(dest="command", title="commands", metavar="COMMAND")
    commands.add_parser(
        "run", formatter_class=raw, epilog=f"{ENVIRONMENT}\n{EXIT_CODES}",
        help="run the bot (the default), configured by the environment below",
        description="Run the bot: long polling, or a webhook when SIXSHOOTER_WEBHOOK_URL is set.",
    )
    check = commands.add_parser(
        "verify", formatter_class=raw,
        help="check a round's deck order against its commitment, offline",
        description="Check that SHA-256(SALT + ':' + DECK) is COMMITMENT, as published before "
                    "the round.",
        epilog="exit codes: 0 it matches, 1 it does not, 2 malformed input",
    )
    check.add_argument("commitment", metavar="COMMITMENT", help="64 hexadecimal digits")
    check.add_argument("salt", metavar="SALT", help="the salt published after the round (hex)")
    check.add_argument("deck", metavar="DECK", nargs="+",
                       help="the 52 cards in deal order, e.g. AsKd7h... (one word or several)")
    demo = commands.add_parser(
        "demo", help="see a whole duel first: no token, no network",
        description="Two AI players play a whole duel; every picture the group would see and "
                    "the transcript of the captions are written to DIR.")
    demo.add_argument("dir", metavar="DIR", nargs="?", default="sixshooter-demo",
                      help="where to write (default: ./sixshooter-demo)")
    demo.add_argument("--lang", choices=LANGUAGES, default="en")
    demo.add_argument("--levels", nargs=2, metavar=("FIRST", "SECOND"),
                      default=("easy", "hard"), help="the two players' levels: random, easy, "
                      "normal or hard (default: easy hard)")
    demo.add_argument("--seed", type=int, default=1, help="the deal's seed (default 1)")
    db = commands.add_parser(
        "db", help="database tools: db copy SRC DST, db backup DEST (no token)",
        description="Database tools; they need no token.")
    tools = db.add_subparsers(dest="tool", title="tools", metavar="TOOL", required=True)
    copy = tools.add_parser(
        "copy", formatter_class=raw, epilog=dbcopy.EXIT_CODES,
        help="copy a whole database into an empty one, e.g. SQLite to PostgreSQL",
        description="Copy every row of SRC into DST (each a SQLite path, sqlite:///path or\n"
                    "postgresql://user:password@host:5432/database), in one transaction on\n"
                    "DST, keeping ids. Both are first migrated to the latest schema. Stop the\n"
                    "bot first. Prints each table's rows and checks the counts after.")
    copy.add_argument("source", metavar="SRC", help="the database to copy from")
    copy.add_argument("target", metavar="DST", help="the database to copy into (empty)")
    copy.add_argument("--force", action="store_true",
                      help="replace DST's rows if it has any (all of its tables are emptied)")
    backup = tools.add_parser(
        "backup", formatter_class=raw, epilog=dbbackup.EXIT_CODES,
        help="a checked copy of the bot's SQLite database, while the bot runs",
        description="Copy the SQLite database (SIXSHOOTER_DB, or --db) to DEST, a file or a\n"
                    "directory (then DEST/NAME-YYYYMMDDTHHMMSSZ.db), while the bot runs: its\n"
                    "writes go on meanwhile. The copy is checked, then renamed into place:\n"
                    "DEST never holds half a copy. PostgreSQL: use pg_dump or the server's\n"
                    "own backups (README: Back up and restore).")
    backup.add_argument("dest", metavar="DEST", help="the backup file, or a directory for it")
    backup.add_argument("--db", metavar="SRC", default=None,
                        help="the database to back up (default: SIXSHOOTER_DB, else "
                             "./sixshooter.db)")
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.command == "verify":
        from bot.fairness.verify import cli

        return cli([args.commitment, args.salt, *args.deck])
    if args.command == "demo":
        return _demo(args)
    if args.command == "db":
        if args.tool == "backup":
            return dbbackup.cli(args.dest, args.db)
        return dbcopy.cli(args.source, args.target, force=args.force)
    return run()


def _demo(args: argparse.Namespace) -> int:
    from pathlib import Path

    from bot.duel import demo
    from rules.duel.ai import parse_level

    try:
        levels = (parse_level(args.levels[0]), parse_level(args.levels[1]))
    except ValueError as e:
        return _refuse(str(e), EXIT_CONFIG)
    out = Path(args.dir)
    written = demo.play(out, lang=args.lang, levels=levels, seed=args.seed)
    print(f"a duel of {levels[0]} against {levels[1]}: {len(written) - 1} pictures and "
          f"the transcript in {out.resolve()}/ (start with {written[-1].name})")
    return EXIT_OK


def run() -> int:
    # python-telegram-bot's time periods as timedelta, not the deprecated int (which warns):
    # bot.telegram.send.retry_after_seconds reads RetryAfter.retry_after either way.
    os.environ["PTB_TIMEDELTA"] = "1"
    try:
        config = Config.from_env(os.environ)
    except ConfigError as e:
        return _refuse(str(e), EXIT_CONFIG)
    logs.setup(config.log_level, secrets=config.secrets)
    connect.one_line_network_errors()
    memory.tame_malloc()
    try:
        if config.db_path is None:  # PostgreSQL: several bots may share it (no lock)
            return _serve(config)
        with instance.hold(config.db_path):  # before anything talks to Telegram
            return _serve(config)
    except instance.AlreadyRunning as e:
        return _refuse(str(e), EXIT_RUNNING)
    except instance.LockError as e:
        return _refuse(str(e), EXIT_CONFIG)


def _serve(config: Config) -> int:
    from bot.app import UPDATES, build, storage_of

    app = build(config)
    loop = _new_loop()  # the one python-telegram-bot then runs the bot in
    asyncio.set_event_loop(loop)
    try:
        hook = None
        if config.use_webhook:
            webhook.check_listen(config)
            assert config.webhook_url is not None
            hook = runner.Webhook(
                url=config.webhook_url, path=webhook.url_path(config),
                listen=config.webhook_listen, port=config.webhook_port,
                secret=loop.run_until_complete(webhook.secret(config)),
                # The load balancer's health check, beside the updates.
                routes=[(r"/healthz", HealthHandler, {"storage": lambda: _storage(app)})])
        if not loop.run_until_complete(connect.connect(app)):
            return EXIT_OK
        loop.run_until_complete(runner.run(app, storage_of, allowed=UPDATES, webhook=hook))
    except StorageError as e:
        return _refuse(str(e), EXIT_CONFIG)
    except InvalidToken:
        return _refuse(_TOKEN_REFUSED, EXIT_CONFIG)
    except TelegramError as e:
        return _refuse(f"Telegram failed the start: {connect.describe(e)}", EXIT_FAILED)
    except OSError as e:
        if e.errno not in _LISTEN_ERRORS:
            raise
        return _refuse(f"cannot listen for the webhook on {config.webhook_listen} port "
                       f"{config.webhook_port}: {e.strerror}; free the port or change "
                       "SIXSHOOTER_WEBHOOK_LISTEN / SIXSHOOTER_WEBHOOK_PORT", EXIT_CONFIG)
    finally:
        if not loop.is_closed():
            loop.run_until_complete(http.close_all())  # a start that failed midway
            loop.close()
    return EXIT_OK


def _new_loop() -> asyncio.AbstractEventLoop:
    """uvloop's event loop where it is installed (Linux and macOS: a dependency there), else
    asyncio's own. The bot is mostly the loop's bookkeeping (sockets, callbacks, another
    thread's results): uvloop does it in C (issue 21: bench/bot_load.py, taps per CPU-second
    of the bot with it against without, in one alternating run)."""
    try:
        import uvloop
    except ImportError:
        return asyncio.new_event_loop()
    return uvloop.new_event_loop()


def _storage(app: App) -> Storage | None:
    from bot.services import KEY

    svc = app.bot_data.get(KEY)
    return None if svc is None else svc.storage


def _refuse(line: str, code: int) -> int:
    print(f"sixshooter: {logs.redact(line)}", file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
