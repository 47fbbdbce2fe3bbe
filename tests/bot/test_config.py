from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.config import DEFAULT_WEBHOOK_PORT, Config, ConfigError, check_db_path, mask_token

TOKEN = "123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11"


def env(tmp_path: Path, **extra: str) -> dict[str, str]:
    return {"TELEGRAM_BOT_TOKEN": TOKEN, "SIXSHOOTER_DB": str(tmp_path / "s.db"), **extra}


def test_minimal_environment_gives_the_defaults(tmp_path: Path) -> None:
    config = Config.from_env(env(tmp_path))
    assert config.token == TOKEN
    assert config.db_path == tmp_path / "s.db"
    assert config.log_level == "INFO"
    assert config.api_base_url is None
    assert config.webhook_url is None
    assert config.webhook_port == DEFAULT_WEBHOOK_PORT
    assert not config.use_webhook
    assert config.metrics_port is None  # /metrics is off unless asked for
    assert config.metrics_listen == "127.0.0.1"


def test_default_db_path_is_in_the_working_directory() -> None:
    config = Config.from_env({"TELEGRAM_BOT_TOKEN": TOKEN}, check_paths=False)
    assert config.db_path == Path("sixshooter.db")


def test_everything_set(tmp_path: Path) -> None:
    config = Config.from_env(env(
        tmp_path,
        TELEGRAM_API_BASE_URL="http://127.0.0.1:8081/bot",
        SIXSHOOTER_LOG_LEVEL="debug",
        SIXSHOOTER_WEBHOOK_URL="https://bot.example.org/hook",
        SIXSHOOTER_WEBHOOK_PORT="8080",
    ))
    assert config.api_base_url == "http://127.0.0.1:8081/bot"
    assert config.log_level == "DEBUG"
    assert config.webhook_url == "https://bot.example.org/hook"
    assert config.webhook_port == 8080
    assert config.use_webhook


def test_token_is_stripped_and_never_in_the_repr(tmp_path: Path) -> None:
    config = Config.from_env(env(tmp_path, TELEGRAM_BOT_TOKEN=f"  {TOKEN}\n"))
    assert config.token == TOKEN
    assert TOKEN not in repr(config)
    assert TOKEN.split(":")[1] not in str(config)


@pytest.mark.parametrize("environ", [{}, {"TELEGRAM_BOT_TOKEN": ""}, {"TELEGRAM_BOT_TOKEN": " "}])
def test_missing_token_says_how_to_get_one(environ: dict[str, str]) -> None:
    with pytest.raises(ConfigError) as info:
        Config.from_env(environ, check_paths=False)
    message = str(info.value)
    assert "TELEGRAM_BOT_TOKEN" in message
    assert "@BotFather" in message
    assert "\n" not in message


@pytest.mark.parametrize("bad", [
    "123456",  # no secret
    "1234:ABC-DEF1234ghIkl-zyx57W2v1u123ew11",  # id too short
    "123456:short",
    "123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11 extra",
    "123456:ABC+DEF1234ghIkl/zyx57W2v1u123ew11",  # characters outside the alphabet
    "bot123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11",
    "123456:" + "A" * 51,
])
def test_malformed_token_is_refused_and_masked(bad: str) -> None:
    with pytest.raises(ConfigError) as info:
        Config.from_env({"TELEGRAM_BOT_TOKEN": bad}, check_paths=False)
    message = str(info.value)
    assert "@BotFather" in message
    assert "\n" not in message
    if len(bad) > 12:
        assert bad not in message
        assert bad[-12:] not in message


def test_token_shape_bounds() -> None:
    ok = ["12345:" + "a" * 30, "123456789012:" + "Z_-9" * 12 + "ab"]
    for token in ok:
        assert Config.from_env({"TELEGRAM_BOT_TOKEN": token}, check_paths=False).token == token


def test_mask_token_hides_the_secret() -> None:
    masked = mask_token(TOKEN)
    assert masked.startswith("1234")
    assert "ABC-DEF" not in masked
    assert str(len(TOKEN)) in masked
    assert mask_token("abc") == "***"


@pytest.mark.parametrize(("name", "value"), [
    ("TELEGRAM_API_BASE_URL", "127.0.0.1:8081/bot"),
    ("TELEGRAM_API_BASE_URL", "ftp://example.org/bot"),
    ("TELEGRAM_API_BASE_URL", "http:///bot"),
    ("TELEGRAM_API_BASE_URL", "http://host:99999/bot"),
    ("TELEGRAM_API_BASE_URL", "http://ho st/bot"),
    ("SIXSHOOTER_WEBHOOK_URL", "http://example.org/hook"),  # Telegram wants https
    ("SIXSHOOTER_WEBHOOK_PORT", "0"),
    ("SIXSHOOTER_WEBHOOK_PORT", "65536"),
    ("SIXSHOOTER_WEBHOOK_PORT", "eighty"),
    ("SIXSHOOTER_METRICS_PORT", "0"),
    ("SIXSHOOTER_METRICS_PORT", "70000"),
    ("SIXSHOOTER_METRICS_PORT", "9100/tcp"),
    ("SIXSHOOTER_METRICS_LISTEN", "localhost:9100"),
    ("SIXSHOOTER_LOG_LEVEL", "LOUD"),
])
def test_invalid_values_name_the_variable(tmp_path: Path, name: str, value: str) -> None:
    with pytest.raises(ConfigError) as info:
        Config.from_env(env(tmp_path, **{name: value}))
    assert name in str(info.value)
    assert "\n" not in str(info.value)


def test_blank_optional_values_mean_unset(tmp_path: Path) -> None:
    config = Config.from_env(env(tmp_path, TELEGRAM_API_BASE_URL=" ", SIXSHOOTER_LOG_LEVEL=""))
    assert config.api_base_url is None
    assert config.log_level == "INFO"


def test_db_in_a_missing_directory_is_a_broken_path(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="broken database path") as info:
        Config.from_env(env(tmp_path, SIXSHOOTER_DB=str(tmp_path / "nope" / "s.db")))
    assert "does not exist" in str(info.value)


def test_db_path_that_is_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="directory"):
        check_db_path(tmp_path)


def test_relative_db_path_in_the_working_directory_is_fine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    check_db_path(Path("sixshooter.db"))


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write anywhere")
def test_db_in_a_read_only_directory_is_a_broken_path(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        with pytest.raises(ConfigError, match="broken database path"):
            check_db_path(locked / "s.db")
    finally:
        locked.chmod(0o700)


def test_unwritable_directory_or_file_is_a_broken_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Runs as root too: the permission check itself is simulated.
    db = tmp_path / "s.db"
    monkeypatch.setattr("bot.config.os.access", lambda path, mode: False)
    with pytest.raises(ConfigError, match=r"broken database path.*not writable"):
        check_db_path(db)
    db.write_bytes(b"")
    with pytest.raises(ConfigError, match=r"broken database path.*not readable and writable"):
        check_db_path(db)


def test_time_scale_defaults_to_one_and_reads_a_fraction(tmp_path: Path) -> None:
    assert Config.from_env(env(tmp_path)).time_scale == 1.0
    assert Config.from_env(env(tmp_path, SIXSHOOTER_TIME_SCALE="0.01")).time_scale == 0.01
    assert Config.from_env(env(tmp_path, SIXSHOOTER_TIME_SCALE=" 2 ")).time_scale == 2.0


@pytest.mark.parametrize("value", ["0", "-1", "fast", "nan", "inf", "1e9", "0.00001"])
def test_a_time_scale_out_of_range_is_refused(tmp_path: Path, value: str) -> None:
    with pytest.raises(ConfigError) as info:
        Config.from_env(env(tmp_path, SIXSHOOTER_TIME_SCALE=value))
    assert "SIXSHOOTER_TIME_SCALE" in str(info.value)
    assert "\n" not in str(info.value)


def test_webhook_listens_on_loopback_at_the_urls_path_by_default(tmp_path: Path) -> None:
    config = Config.from_env(env(tmp_path, SIXSHOOTER_WEBHOOK_URL="https://bot.example.org/hook"))
    assert config.webhook_listen == "127.0.0.1"  # behind a reverse proxy, not on every interface
    assert config.webhook_path == "/hook"
    assert config.webhook_secret is None  # generated and kept in the database


@pytest.mark.parametrize(("url", "path"), [
    ("https://bot.example.org", "/"),
    ("https://bot.example.org/", "/"),
    ("https://bot.example.org:8443/tg/hook/", "/tg/hook/"),
    ("https://bot.example.org/hook?from=telegram", "/hook"),
])
def test_the_webhook_path_is_the_urls(tmp_path: Path, url: str, path: str) -> None:
    assert Config.from_env(env(tmp_path, SIXSHOOTER_WEBHOOK_URL=url)).webhook_path == path


@pytest.mark.parametrize(("value", "address"), [
    ("0.0.0.0", "0.0.0.0"), (" 10.0.0.5 ", "10.0.0.5"), ("::", "::"), ("::1", "::1"),
])
def test_the_listen_address_is_configurable(tmp_path: Path, value: str, address: str) -> None:
    config = Config.from_env(env(tmp_path, SIXSHOOTER_WEBHOOK_LISTEN=value))
    assert config.webhook_listen == address


@pytest.mark.parametrize("value", ["localhost", "300.1.1.1", "0.0.0.0:8443", "any"])
def test_a_listen_address_that_is_no_ip_is_refused(tmp_path: Path, value: str) -> None:
    with pytest.raises(ConfigError) as info:
        Config.from_env(env(tmp_path, SIXSHOOTER_WEBHOOK_LISTEN=value))
    assert "SIXSHOOTER_WEBHOOK_LISTEN" in str(info.value)
    assert "127.0.0.1" in str(info.value)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("secret", ["a" * 16, "Az09_-" * 42 + "abcd", "my-own_secret-0123456789"])
def test_a_webhook_secret_of_telegrams_alphabet_is_taken(tmp_path: Path, secret: str) -> None:
    config = Config.from_env(env(tmp_path, SIXSHOOTER_WEBHOOK_SECRET=secret))
    assert config.webhook_secret == secret
    assert secret not in repr(config)


@pytest.mark.parametrize("secret", [
    "a" * 15,  # guessable, and too short to mask in logs
    "a" * 257,  # Telegram takes at most 256
    "secret:with:colons-0123456789",
    "secret with spaces 0123456789",
    "sécret-0123456789abcdef",
])
def test_a_webhook_secret_telegram_would_refuse_is_refused_without_showing_it(
    tmp_path: Path, secret: str
) -> None:
    with pytest.raises(ConfigError) as info:
        Config.from_env(env(tmp_path, SIXSHOOTER_WEBHOOK_SECRET=secret))
    message = str(info.value)
    assert message.startswith("SIXSHOOTER_WEBHOOK_SECRET ")
    assert "A-Z, a-z, 0-9, _ and -" in message and "generated" in message
    assert secret not in message and secret[:10] not in message
    assert "\n" not in message


def test_sixshooter_db_takes_a_path_a_sqlite_url_or_a_postgresql_url(tmp_path: Path) -> None:
    sqlite = Config.from_env(env(tmp_path, SIXSHOOTER_DB=f"sqlite:///{tmp_path}/u.db"))
    assert sqlite.db_path == tmp_path / "u.db" and sqlite.db_url is None
    assert sqlite.database.file == str(tmp_path / "u.db")
    relative = Config.from_env(env(tmp_path, SIXSHOOTER_DB="sqlite:///data.db"),
                               check_paths=False)
    assert relative.db_path == Path("data.db")
    url = "postgresql://bot:s3cret-pass@db.example.org:5432/six"
    pg = Config.from_env(env(tmp_path, SIXSHOOTER_DB=url))
    assert pg.db_path is None and pg.database.target == url and pg.db_url == url
    # The password is a secret (masked in every log line) and out of the config's repr.
    assert pg.secrets == [TOKEN, "s3cret-pass"] and "s3cret" not in repr(pg)
    assert Config.from_env(env(tmp_path, SIXSHOOTER_DB="postgres://h/six")).db_url
    # Several servers (libpq's form), the password also as a parameter: both secrets.
    url = ("postgresql://bot:s3cret-pass@db1:5432,db2:5432/six?target_session_attrs=read-write"
           "&password=0ther-pass")
    several = Config.from_env(env(tmp_path, SIXSHOOTER_DB=url))
    assert several.db_url == url and {"s3cret-pass", "0ther-pass"} <= set(several.secrets)
    assert "s3cret" not in several.database.shown and "0ther" not in several.database.shown


@pytest.mark.parametrize(("raw", "says"), [
    ("mysql://h/db", "unknown database scheme 'mysql'"),
    ("sqlite://data.db", "three slashes"),
    ("postgresql://h:port/db", "not a usable PostgreSQL URL"),
    ("postgresql://", "names no PostgreSQL server"),
])
def test_a_database_url_that_cannot_work_is_refused_with_one_line(
        tmp_path: Path, raw: str, says: str) -> None:
    with pytest.raises(ConfigError, match=says) as e:
        Config.from_env(env(tmp_path, SIXSHOOTER_DB=raw))
    assert str(e.value).startswith("SIXSHOOTER_DB: ") and "\n" not in str(e.value)


def test_metrics_get_a_port_and_an_address_of_their_own(tmp_path: Path) -> None:
    config = Config.from_env(env(tmp_path, SIXSHOOTER_METRICS_PORT="9100",
                                 SIXSHOOTER_METRICS_LISTEN="0.0.0.0"))
    assert (config.metrics_port, config.metrics_listen) == (9100, "0.0.0.0")


def test_metrics_never_share_the_webhook_s_port(tmp_path: Path) -> None:
    hook = {"SIXSHOOTER_WEBHOOK_URL": "https://bot.example.org/hook"}
    with pytest.raises(ConfigError, match="SIXSHOOTER_METRICS_PORT=8443") as info:
        Config.from_env(env(tmp_path, SIXSHOOTER_METRICS_PORT="8443", **hook))
    assert "\n" not in str(info.value)
    assert Config.from_env(env(tmp_path, SIXSHOOTER_METRICS_PORT="8443")).metrics_port == 8443


def test_backups_are_off_by_default_and_read_a_directory_a_period_and_a_count(
        tmp_path: Path) -> None:
    config = Config.from_env(env(tmp_path))
    assert (config.backup_dir, config.backup_every, config.backup_keep) == (None, 86400, 7)
    config = Config.from_env(env(tmp_path, SIXSHOOTER_BACKUP_DIR=str(tmp_path),
                                 SIXSHOOTER_BACKUP_EVERY="6h", SIXSHOOTER_BACKUP_KEEP="30"))
    assert (config.backup_dir, config.backup_every, config.backup_keep) == (tmp_path, 21600, 30)
    for every, seconds in (("30m", 1800), ("24h", 86400), ("7d", 604800), ("90S", 90)):
        assert Config.from_env(env(tmp_path, SIXSHOOTER_BACKUP_EVERY=every)).backup_every == (
            seconds)


@pytest.mark.parametrize(("name", "value", "says"), [
    ("SIXSHOOTER_BACKUP_EVERY", "24", "is not a period"),
    ("SIXSHOOTER_BACKUP_EVERY", "10s", "is not a period"),
    ("SIXSHOOTER_BACKUP_EVERY", "1y", "is not a period"),
    ("SIXSHOOTER_BACKUP_KEEP", "0", "is not a count"),
    ("SIXSHOOTER_BACKUP_KEEP", "seven", "is not a count"),
])
def test_a_backup_setting_that_cannot_work_is_one_line(
        tmp_path: Path, name: str, value: str, says: str) -> None:
    with pytest.raises(ConfigError, match=f"^{name}={value!r} {says}") as e:
        Config.from_env(env(tmp_path, **{name: value}))
    assert "\n" not in str(e.value)


def test_a_backup_directory_must_exist_and_be_writable(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="is not a directory; create it"):
        Config.from_env(env(tmp_path, SIXSHOOTER_BACKUP_DIR=str(tmp_path / "missing")))
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    if os.access(locked, os.W_OK):  # root writes anywhere
        return
    with pytest.raises(ConfigError, match="is not writable"):
        Config.from_env(env(tmp_path, SIXSHOOTER_BACKUP_DIR=str(locked)))


def test_backups_on_postgresql_stop_the_bot_pointing_to_the_server_s_own(
        tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as e:
        Config.from_env(env(tmp_path, SIXSHOOTER_DB="postgresql://bot:pw@db/bot",
                            SIXSHOOTER_BACKUP_DIR=str(tmp_path)))
    assert str(e.value).startswith("SIXSHOOTER_BACKUP_DIR backs up a SQLite file; on "
                                   "PostgreSQL use pg_dump or the server's own backups")
    assert "\n" not in str(e.value) and "pw" not in str(e.value)
