"""The bot's configuration, read once at start from the environment.

`Config.from_env(os.environ)` validates everything up front and raises `ConfigError` with one
readable line naming the variable and the fix, so a misconfigured bot stops before it talks to
Telegram. The token never appears in full in any message, repr or log line.

`ENVIRONMENT` lists the variables (`sixshooter --help` prints it; the README's Configuration
section explains them).
"""

from __future__ import annotations

import ipaddress
import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from bot.storage import Location, StorageError, locate

TOKEN_RE = re.compile(r"^\d{5,12}:[A-Za-z0-9_-]{30,50}$")
# Telegram takes 1-256 of these; fewer than 16 would be guessable (and too short to be masked
# in logs, see bot.logs.add_secret).
WEBHOOK_SECRET_RE = re.compile(r"^[A-Za-z0-9_-]{16,256}$")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
DEFAULT_DB = "sixshooter.db"
DEFAULT_WEBHOOK_PORT = 8443
DEFAULT_WEBHOOK_LISTEN = "127.0.0.1"  # behind a reverse proxy that terminates TLS
DEFAULT_CHALLENGE_TTL = 600
DEFAULT_METRICS_LISTEN = "127.0.0.1"  # metrics are for the operator's scraper, not the world
TIME_SCALE_MIN, TIME_SCALE_MAX = 0.0001, 100.0
DEFAULT_BACKUP_EVERY = 86400  # seconds between automatic backups
DEFAULT_BACKUP_KEEP = 7
BACKUP_KEEP_MAX = 1000
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}

ENVIRONMENT = """\
environment:
  TELEGRAM_BOT_TOKEN          required: the token from @BotFather
  TELEGRAM_API_BASE_URL       another Bot API server, e.g. http://127.0.0.1:8081/bot
  SIXSHOOTER_DB               the database: a SQLite file (a path or sqlite:///path; default
                              ./sixshooter.db; one bot per file: the lock on FILE.lock beside
                              it keeps a second one out) or postgresql://user:pass@host:port/db
                              (PostgreSQL: several bots may share it)
  SIXSHOOTER_LOG_LEVEL        DEBUG, INFO (default), WARNING, ERROR or CRITICAL
  SIXSHOOTER_WEBHOOK_URL      a public https URL: receive updates by webhook instead of long
                              polling; the webhook serves this URL's path
  SIXSHOOTER_WEBHOOK_LISTEN   the address the webhook listens on; default 127.0.0.1 (behind a
                              reverse proxy); 0.0.0.0 or :: for every interface
  SIXSHOOTER_WEBHOOK_PORT     the port the webhook listens on; default 8443
  SIXSHOOTER_WEBHOOK_SECRET   what Telegram sends with every update (16-256 of A-Z a-z 0-9 _ -);
                              default: one generated once and kept in the database
  SIXSHOOTER_CHALLENGE_TTL    seconds before an unanswered challenge expires; default 600
  SIXSHOOTER_RATE_LIMIT       on (default): pace sends to Telegram's flood limits; off: only
                              for a Bot API server without limits (a benchmark's fake)
  SIXSHOOTER_TIME_SCALE       multiplies every turn timer and its reminder; default 1 (tests:
                              0.01 makes a 5-minute turn last 3 seconds)
  SIXSHOOTER_METRICS_PORT     serve GET /metrics (Prometheus) and GET /healthz on this port;
                              default: off. Never the webhook's port
  SIXSHOOTER_METRICS_LISTEN   the address /metrics listens on; default 127.0.0.1; 0.0.0.0 or ::
                              for a scraper on another machine (keep the port firewalled)
  SIXSHOOTER_BACKUP_DIR       SQLite only: back the database up into this directory while the
                              bot runs; default: off (PostgreSQL: use the server's backups)
  SIXSHOOTER_BACKUP_EVERY     how often: 30m, 6h, 24h (the default), 7d...
  SIXSHOOTER_BACKUP_KEEP      how many backups to keep, the oldest removed first; default 7
"""

_HOW_TO_GET_A_TOKEN = (
    "open a chat with @BotFather in Telegram, send /newbot (or /token for an existing bot) "
    "and put the token it gives you, like 123456789:AAE..., in TELEGRAM_BOT_TOKEN"
)


class ConfigError(ValueError):
    """The configuration cannot work; the message is one line saying what to fix."""


def mask_token(token: str) -> str:
    """Enough of a token to recognise it, never enough to use it."""
    if len(token) <= 8:
        return "*" * len(token)
    return f"{token[:4]}…{token[-2:]} ({len(token)} characters)"


@dataclass(frozen=True, slots=True)
class Config:
    token: str = field(repr=False)
    # SIXSHOOTER_DB parsed once, as `Storage.open` takes it (its repr shows no password).
    database: Location = field(default_factory=lambda: locate(DEFAULT_DB))
    log_level: str = "INFO"
    api_base_url: str | None = None
    webhook_url: str | None = None
    webhook_port: int = DEFAULT_WEBHOOK_PORT
    webhook_listen: str = DEFAULT_WEBHOOK_LISTEN
    webhook_secret: str | None = field(default=None, repr=False)  # None: kept in the database
    challenge_ttl: int = DEFAULT_CHALLENGE_TTL  # seconds before an unanswered challenge expires
    rate_limit: bool = True  # keep to Telegram's flood limits (off only for a limitless server)
    time_scale: float = 1.0  # turn timers last this many times their nominal length
    metrics_port: int | None = None  # /metrics and /healthz for operators; None: off
    metrics_listen: str = DEFAULT_METRICS_LISTEN
    backup_dir: Path | None = None  # automatic backups of the SQLite file; None: off
    backup_every: int = DEFAULT_BACKUP_EVERY  # seconds between them
    backup_keep: int = DEFAULT_BACKUP_KEEP  # how many are kept

    @property
    def db_path(self) -> Path | None:
        """The file the database is in (the bot's lock goes beside it); None: a server."""
        return None if self.database.file is None else Path(self.database.file)

    @property
    def db_url(self) -> str | None:
        """The database server's URL (it may hold a password); None: a file."""
        return None if self.database.file is not None else self.database.target

    @property
    def secrets(self) -> list[str]:
        """What no log line may print: the token and the database's password, if any."""
        return [self.token, *self.database.secrets]

    @property
    def use_webhook(self) -> bool:
        return self.webhook_url is not None

    @property
    def webhook_path(self) -> str:
        """The path of SIXSHOOTER_WEBHOOK_URL ("/" if none): a proxy that keeps it passes it on."""
        if self.webhook_url is None:
            return "/"
        return urlsplit(self.webhook_url).path or "/"

    @classmethod
    def from_env(cls, environ: Mapping[str, str], *, check_paths: bool = True) -> Config:
        """Read and validate the configuration; `check_paths` also checks the database path."""
        config = cls(
            token=_token(environ.get("TELEGRAM_BOT_TOKEN")),
            database=_database(_get(environ, "SIXSHOOTER_DB") or DEFAULT_DB),
            log_level=_log_level(_get(environ, "SIXSHOOTER_LOG_LEVEL")),
            api_base_url=_url(
                environ, "TELEGRAM_API_BASE_URL", ("http", "https"), "http://127.0.0.1:8081/bot"
            ),
            webhook_url=_url(
                environ, "SIXSHOOTER_WEBHOOK_URL", ("https",), "https://bot.example.org/hook"
            ),
            webhook_port=_port(environ, "SIXSHOOTER_WEBHOOK_PORT") or DEFAULT_WEBHOOK_PORT,
            webhook_listen=_address(environ, "SIXSHOOTER_WEBHOOK_LISTEN", DEFAULT_WEBHOOK_LISTEN),
            webhook_secret=_webhook_secret(_get(environ, "SIXSHOOTER_WEBHOOK_SECRET")),
            challenge_ttl=_seconds(environ, "SIXSHOOTER_CHALLENGE_TTL", DEFAULT_CHALLENGE_TTL),
            rate_limit=_switch(environ, "SIXSHOOTER_RATE_LIMIT", True),
            time_scale=_scale(environ, "SIXSHOOTER_TIME_SCALE"),
            metrics_port=_port(environ, "SIXSHOOTER_METRICS_PORT"),
            metrics_listen=_address(environ, "SIXSHOOTER_METRICS_LISTEN", DEFAULT_METRICS_LISTEN),
            backup_dir=_path(environ, "SIXSHOOTER_BACKUP_DIR"),
            backup_every=_every(environ, "SIXSHOOTER_BACKUP_EVERY", DEFAULT_BACKUP_EVERY),
            backup_keep=_count(environ, "SIXSHOOTER_BACKUP_KEEP", DEFAULT_BACKUP_KEEP,
                               BACKUP_KEEP_MAX),
        )
        if config.use_webhook and config.metrics_port == config.webhook_port:
            raise ConfigError(f"SIXSHOOTER_METRICS_PORT={config.metrics_port} is the webhook's "
                              "port: metrics never share the public webhook; give them another")
        if config.backup_dir is not None and config.db_path is None:
            raise ConfigError("SIXSHOOTER_BACKUP_DIR backs up a SQLite file; on PostgreSQL use "
                              "pg_dump or the server's own backups (README: Back up and "
                              "restore) and unset it")
        if check_paths and config.db_path is not None:
            check_db_path(config.db_path)
        if check_paths and config.backup_dir is not None:
            check_backup_dir(config.backup_dir)
        return config


def _database(raw: str) -> Location:
    """SIXSHOOTER_DB parsed, once: a SQLite path or URL, or a PostgreSQL URL."""
    try:
        return locate(raw)
    except StorageError as e:
        raise ConfigError(f"SIXSHOOTER_DB: {e}") from None


def check_db_path(path: Path) -> None:
    """Raise ConfigError unless SQLite could create or open `path` for writing."""
    where = f"SIXSHOOTER_DB={str(path)!r}"
    if path.is_dir():
        raise ConfigError(
            f"{where} is a broken database path: it is a directory; "
            "give the path of a database file inside it"
        )
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise ConfigError(
            f"{where} is a broken database path: the directory {str(parent)!r} does not exist; "
            "create it or point SIXSHOOTER_DB elsewhere"
        )
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        raise ConfigError(
            f"{where} is a broken database path: the file is not readable and writable "
            "by this user; fix its permissions or point SIXSHOOTER_DB elsewhere"
        )
    # WAL mode creates -wal and -shm files beside the database, so the directory must be writable.
    if not os.access(parent, os.W_OK | os.X_OK):
        raise ConfigError(
            f"{where} is a broken database path: the directory {str(parent)!r} is not writable "
            "by this user; fix its permissions or point SIXSHOOTER_DB elsewhere"
        )


def check_backup_dir(path: Path) -> None:
    """Raise ConfigError unless backups can be written into the directory `path`."""
    where = f"SIXSHOOTER_BACKUP_DIR={str(path)!r}"
    if not path.is_dir():
        raise ConfigError(f"{where} is not a directory; create it (mkdir -p) or point "
                          "SIXSHOOTER_BACKUP_DIR elsewhere")
    if not os.access(path, os.W_OK | os.X_OK):
        raise ConfigError(f"{where} is not writable by this user; fix its permissions or "
                          "point SIXSHOOTER_BACKUP_DIR elsewhere")


def _get(environ: Mapping[str, str], name: str) -> str | None:
    value = environ.get(name)
    if value is None:
        return None
    value = value.strip()
    return value or None


def _token(raw: str | None) -> str:
    token = (raw or "").strip()
    if not token:
        raise ConfigError(f"TELEGRAM_BOT_TOKEN is not set: {_HOW_TO_GET_A_TOKEN}")
    if not TOKEN_RE.fullmatch(token):
        raise ConfigError(
            f"TELEGRAM_BOT_TOKEN does not look like a bot token (got {mask_token(token)}; "
            f"expected digits, a colon and 30-50 letters, digits, _ or -): {_HOW_TO_GET_A_TOKEN}"
        )
    return token


def _log_level(raw: str | None) -> str:
    level = (raw or "INFO").upper()
    if level not in LOG_LEVELS:
        raise ConfigError(
            f"SIXSHOOTER_LOG_LEVEL={raw!r} is not a log level: use one of {', '.join(LOG_LEVELS)}"
        )
    return level


def _url(
    environ: Mapping[str, str], name: str, schemes: tuple[str, ...], example: str
) -> str | None:
    raw = _get(environ, name)
    if raw is None:
        return None
    try:
        parts = urlsplit(raw)
        valid = parts.scheme in schemes and bool(parts.hostname) and parts.port != 0
    except ValueError:  # a malformed port or IPv6 address
        valid = False
    if not valid or any(c.isspace() for c in raw):
        wanted = " or ".join(f"{s}://" for s in schemes)
        raise ConfigError(
            f"{name}={raw!r} is not a valid URL: it must start with {wanted} and name a host, "
            f"e.g. {example}"
        )
    return raw


def _port(environ: Mapping[str, str], name: str) -> int | None:
    raw = _get(environ, name)
    if raw is None:
        return None
    if not (raw.isascii() and raw.isdigit() and 1 <= int(raw) <= 65535):
        raise ConfigError(f"{name}={raw!r} is not a TCP port: use a number from 1 to 65535")
    return int(raw)


def _address(environ: Mapping[str, str], name: str, default: str) -> str:
    raw = _get(environ, name)
    if raw is None:
        return default
    try:
        return str(ipaddress.ip_address(raw))
    except ValueError:
        raise ConfigError(
            f"{name}={raw!r} is not an IP address: use 127.0.0.1 (the default) for this host "
            "only, or 0.0.0.0 (:: for IPv6) to listen on every interface"
        ) from None


def _webhook_secret(raw: str | None) -> str | None:
    if raw is None or WEBHOOK_SECRET_RE.fullmatch(raw):
        return raw
    if re.fullmatch(r"[A-Za-z0-9_-]+", raw):
        problem = f"it has {len(raw)} characters"
    else:
        problem = "it has characters other than A-Z, a-z, 0-9, _ and -"
    raise ConfigError(
        f"SIXSHOOTER_WEBHOOK_SECRET is not a usable secret token ({problem}): use 16 to 256 "
        "characters of A-Z, a-z, 0-9, _ and - (e.g. from `openssl rand -hex 32`), or unset it "
        "to have one generated and kept in the database"
    )


def _seconds(environ: Mapping[str, str], name: str, default: int) -> int:
    raw = _get(environ, name)
    if raw is None:
        return default
    if not (raw.isascii() and raw.isdigit() and 1 <= int(raw) <= 86400):
        raise ConfigError(f"{name}={raw!r} is not a duration: use seconds from 1 to 86400")
    return int(raw)


def _scale(environ: Mapping[str, str], name: str) -> float:
    raw = _get(environ, name)
    if raw is None:
        return 1.0
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and TIME_SCALE_MIN <= value <= TIME_SCALE_MAX):
        raise ConfigError(
            f"{name}={raw!r} is not a time scale: use a number from {TIME_SCALE_MIN} to "
            f"{TIME_SCALE_MAX:g}, e.g. 0.01 to make a 5-minute turn last 3 seconds"
        )
    return value


def _switch(environ: Mapping[str, str], name: str, default: bool) -> bool:
    raw = _get(environ, name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in ("1", "on", "true", "yes"):
        return True
    if value in ("0", "off", "false", "no"):
        return False
    raise ConfigError(f"{name}={raw!r} is not a switch: use on or off")


def _path(environ: Mapping[str, str], name: str) -> Path | None:
    raw = _get(environ, name)
    return None if raw is None else Path(raw).expanduser()


def _every(environ: Mapping[str, str], name: str, default: int) -> int:
    raw = _get(environ, name)
    if raw is None:
        return default
    found = re.fullmatch(r"(\d{1,6})\s*([smhd])", raw.lower())
    seconds = int(found.group(1)) * _UNITS[found.group(2)] if found else 0
    if not 60 <= seconds <= 366 * 86400:
        raise ConfigError(f"{name}={raw!r} is not a period: use a number and a unit (s, m, h "
                          "or d) from 1m to 366d, e.g. 30m, 6h or 24h")
    return seconds


def _count(environ: Mapping[str, str], name: str, default: int, most: int) -> int:
    raw = _get(environ, name)
    if raw is None:
        return default
    if not (raw.isascii() and raw.isdigit() and 1 <= int(raw) <= most):
        raise ConfigError(f"{name}={raw!r} is not a count: use a whole number from 1 to {most}")
    return int(raw)
