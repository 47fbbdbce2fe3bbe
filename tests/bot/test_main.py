"""The `sixshooter` command line: --help and --version need no token; `run` is the default;
`verify` keeps its exit codes; a refusal to start is one line and an exit code."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from bot import __main__ as cli
from bot.config import ENVIRONMENT
from bot.storage import Storage
from bot.storage.schema import MIGRATIONS
from rules.fairness import commitment_of
from tests.support import databases
from tests.support.full_database import ROWS, SECRET, fill

REPO = Path(__file__).resolve().parents[2]
TOKEN = "123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11"
DECK = "".join(rank + suit for suit in "cdhs" for rank in "23456789TJQKA")
SALT = "00112233445566778899aabbccddeeff"


@pytest.fixture(autouse=True)
def no_configuration(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith(("TELEGRAM_", "SIXSHOOTER_")):
            monkeypatch.delenv(name)


def exits(argv: list[str]) -> int:
    with pytest.raises(SystemExit) as info:
        cli.main(argv)
    code = info.value.code
    assert isinstance(code, int)
    return code


def test_help_needs_no_token(capsys: pytest.CaptureFixture[str]) -> None:
    assert exits(["--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: sixshooter")
    assert "run" in out and "verify" in out and "db" in out
    assert ENVIRONMENT in out and "SIXSHOOTER_WEBHOOK_SECRET" in out
    assert "another sixshooter is already running" in out  # the exit codes


def test_version_needs_no_token(capsys: pytest.CaptureFixture[str]) -> None:
    assert exits(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"sixshooter {metadata.version('sixshooter')}"


def test_each_command_has_its_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert exits(["run", "--help"]) == 0
    assert "SIXSHOOTER_WEBHOOK_URL" in capsys.readouterr().out
    assert exits(["verify", "--help"]) == 0
    assert "COMMITMENT SALT DECK" in capsys.readouterr().out
    assert exits(["db", "copy", "--help"]) == 0
    assert "SRC DST" in (text := capsys.readouterr().out) and "--force" in text


def test_run_is_the_default_and_a_missing_token_is_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for argv in ([], ["run"]):
        assert cli.main(argv) == cli.EXIT_CONFIG
        err = capsys.readouterr().err
        assert err.startswith("sixshooter: TELEGRAM_BOT_TOKEN is not set") and err.count("\n") == 1


def test_a_bad_metrics_port_is_one_line_and_exit_code_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", TOKEN)
    monkeypatch.setenv("SIXSHOOTER_DB", str(tmp_path / "s.db"))
    monkeypatch.setenv("SIXSHOOTER_METRICS_PORT", "ninety-one hundred")
    assert cli.main(["run"]) == cli.EXIT_CONFIG
    err = capsys.readouterr().err
    assert err.startswith("sixshooter: SIXSHOOTER_METRICS_PORT=") and err.count("\n") == 1
    assert "SIXSHOOTER_METRICS_PORT" in ENVIRONMENT and "SIXSHOOTER_METRICS_LISTEN" in ENVIRONMENT


def test_verify_goes_through_with_its_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    promise = commitment_of(DECK, bytes.fromhex(SALT))
    assert cli.main(["verify", promise, SALT, DECK]) == 0
    assert capsys.readouterr().out.startswith("match")
    cards = [DECK[i:i + 2] for i in range(0, len(DECK), 2)]
    assert cli.main(["verify", promise, SALT, *cards]) == 0  # a card a word
    capsys.readouterr()
    assert cli.main(["verify", promise, "ff" + SALT[2:], DECK]) == 1
    assert capsys.readouterr().out.startswith("MISMATCH")
    assert cli.main(["verify", promise, "xyz", DECK]) == 2
    assert "salt must be hexadecimal" in capsys.readouterr().err
    assert exits(["verify", promise]) == 2
    assert "usage: sixshooter verify" in capsys.readouterr().err


def test_an_unknown_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert exits(["serve"]) == 2
    assert "invalid choice" in capsys.readouterr().err


def test_a_second_instance_is_refused_before_anything_else(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot import instance

    db = tmp_path / "s.db"
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", TOKEN)
    monkeypatch.setenv("SIXSHOOTER_DB", str(db))
    with instance.hold(db):
        assert cli.main([]) == cli.EXIT_RUNNING
    err = capsys.readouterr().err
    assert err == (f"sixshooter: another sixshooter (pid {os.getpid()}) is already running on "
                   f"the database '{db}'; stop it first, or point SIXSHOOTER_DB at another file\n")
    assert not db.exists()  # the database was not even opened


def run_script(*args: str) -> subprocess.CompletedProcess[str]:
    """The installed console script (python -m bot where it is not installed)."""
    script = Path(sys.executable).parent / "sixshooter"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "bot"]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "SIXSHOOTER_"))}
    return subprocess.run([*command, *args], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=60, check=False)


def test_the_console_script_helps_without_a_token() -> None:
    done = run_script("--help")
    assert done.returncode == 0 and done.stdout.startswith("usage: sixshooter"), done.stderr
    assert "TELEGRAM_BOT_TOKEN is not set" not in done.stderr
    version = run_script("--version")
    assert version.returncode == 0 and version.stdout.startswith("sixshooter ")


async def _full_sqlite(path: Path) -> None:
    store = await Storage.open(path)
    await fill(store.db)
    await store.close()


def test_db_copy_prints_each_table_refuses_a_full_target_and_forces(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    source, target = tmp_path / "old.db", tmp_path / "new.db"
    asyncio.run(_full_sqlite(source))
    assert cli.main(["db", "copy", str(source), str(target)]) == 0
    out, err = capsys.readouterr()
    assert "sixshooter:" not in err  # no refusal, no mismatch
    for table, rows in ROWS.items():
        assert re.search(rf"^  {table} +{len(rows)}$", out, re.MULTILINE), table
    total = sum(len(rows) for rows in ROWS.values())
    assert re.search(rf"^  total +{total} rows in {len(ROWS)} tables$", out, re.MULTILINE)
    assert "migrated to the latest schema" in out and f"schema version {len(MIGRATIONS)}" in out
    assert SECRET not in out

    assert cli.main(["db", "copy", str(source), str(target)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("sixshooter: the target") and "--force" in err
    assert err.count("\n") == 1

    assert cli.main(["db", "copy", "--force", str(source), str(target)]) == 0
    assert re.search(rf"^  total +{total} rows", capsys.readouterr().out, re.MULTILINE)


def test_db_copy_refuses_a_missing_source_the_same_file_and_a_running_bot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    from bot import instance

    missing, there = tmp_path / "typo.db", tmp_path / "there.db"
    assert cli.main(["db", "copy", str(missing), str(there)]) == 2
    assert "no database at" in capsys.readouterr().err and not there.exists()
    asyncio.run(_full_sqlite(there))
    assert cli.main(["db", "copy", str(there), f"sqlite:///{there}"]) == 2
    assert "the same database" in capsys.readouterr().err
    with instance.hold(there):
        assert cli.main(["db", "copy", str(there), str(tmp_path / "new.db")]) == 3
    assert "is already running" in capsys.readouterr().err
    assert exits(["db", "copy", str(there)]) == 2  # DST missing: a usage error
    assert "usage: sixshooter db copy" in capsys.readouterr().err


async def test_the_console_script_copies_into_postgresql_without_showing_the_password(
    tmp_path: Path, postgres: str | None,
) -> None:
    if postgres is None:
        pytest.skip(databases.HOW)
    source = tmp_path / "old.db"
    await _full_sqlite(source)
    password = "hunter2-not-shown"
    async with databases.fresh_schema(postgres) as url:
        secret_url = url.replace("postgres@", f"postgres:{password}@", 1)
        done = run_script("db", "copy", str(source), secret_url)
        assert done.returncode == 0, done.stderr
        assert password not in done.stdout + done.stderr and SECRET not in done.stdout
        assert "postgres:***@" in done.stdout
        assert "  bot_meta" in done.stdout and "total" in done.stdout
        again = run_script("db", "copy", str(source), secret_url)
        assert again.returncode == 2 and password not in again.stdout + again.stderr
    unreachable = run_script("db", "copy", str(source),
                             f"postgresql://postgres:{password}@127.0.0.1:1/none")
    assert unreachable.returncode == 2 and password not in unreachable.stderr
    assert unreachable.stderr.startswith("sixshooter: cannot open the database")
    assert unreachable.stderr.count("\n") == 1
    # Several servers, libpq's way: the first refuses, the second takes the copy; the
    # password also as a parameter. Neither shown, whether the copy succeeds or fails.
    async with databases.fresh_schema(postgres) as url:
        parts = urlsplit(url)
        servers = f"127.0.0.1:1,{parts.hostname}:{parts.port or 5432}"
        several = parts._replace(
            netloc=f"postgres:{password}@{servers}",
            query=f"{parts.query}&target_session_attrs=read-write&password={password}").geturl()
        done = run_script("db", "copy", str(source), several)
        assert done.returncode == 0, done.stderr
        assert password not in done.stdout + done.stderr
        assert f"postgres:***@{servers}/" in done.stdout and "password=***" in done.stdout
    nowhere = run_script("db", "copy", str(source),
                         f"postgresql://postgres:{password}@127.0.0.1:1,127.0.0.1:2/none"
                         f"?target_session_attrs=primary&password={password}")
    assert nowhere.returncode == 2 and password not in nowhere.stderr
    assert nowhere.stderr.startswith("sixshooter: cannot open the database")


def test_the_bot_runs_on_uvloop_where_it_is_installed() -> None:
    uvloop = pytest.importorskip("uvloop")
    loop = cli._new_loop()
    try:
        assert isinstance(loop, uvloop.Loop)
    finally:
        loop.close()
