"""`sixshooter db backup DEST [--db SRC]`: a checked copy of the bot's SQLite file made while
the bot holds its lock; PostgreSQL is not copied but pointed to its own tools, in one line."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot import __main__ as cli
from bot import dbbackup, instance
from bot.storage import Storage
from bot.storage.backup import backups


def _bot_database(path: Path) -> None:
    async def make() -> None:
        storage = await Storage.open(path)  # as the bot creates it: migrated, WAL
        await storage.close()
    asyncio.run(make())


def test_it_backs_up_the_running_bots_database_into_a_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "sixshooter.db"
    _bot_database(db)
    out = tmp_path / "backups"
    out.mkdir()
    monkeypatch.setenv("SIXSHOOTER_DB", str(db))
    with instance.hold(db):  # the bot runs: db copy would refuse, db backup does not
        assert cli.main(["db", "backup", str(out)]) == dbbackup.EXIT_OK
    [made] = backups(out, "sixshooter")
    said = capsys.readouterr()
    assert said.err == ""
    assert said.out.startswith(f"backed up {db} to {made}: ") and "checked" in said.out
    copy = sqlite3.connect(made)
    assert copy.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    assert copy.execute("PRAGMA user_version").fetchone() == (
        sqlite3.connect(db).execute("PRAGMA user_version").fetchone())
    copy.close()


def test_db_names_another_database_and_a_file_is_replaced_whole(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "other.db"
    _bot_database(db)
    dest = tmp_path / "copy.db"
    dest.write_bytes(b"an older copy")
    assert cli.main(["db", "backup", str(dest), "--db", f"sqlite:///{db}"]) == 0
    assert sqlite3.connect(dest).execute("PRAGMA quick_check").fetchone() == ("ok",)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("copy")) == ["copy.db"]


def test_postgresql_is_pointed_to_its_own_backups_in_one_line(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    monkeypatch.setenv("SIXSHOOTER_DB", "postgresql://bot:s3cr3t-pw@db.example.org:5432/bot")
    assert cli.main(["db", "backup", str(tmp_path)]) == dbbackup.EXIT_REFUSED
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "s3cr3t-pw" not in err
    assert "pg_dump" in err and "README: Back up and restore" in err
    assert list(tmp_path.iterdir()) == []  # nothing copied


def test_refusals_are_one_line_with_their_exit_code(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["db", "backup", str(tmp_path), "--db", str(tmp_path / "none.db")]) == 2
    assert "no database at" in capsys.readouterr().err
    assert cli.main(["db", "backup", str(tmp_path), "--db", "mysql://x/y"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    db = tmp_path / "s.db"
    _bot_database(db)
    assert cli.main(["db", "backup", str(tmp_path / "no" / "x.db"), "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "does not exist" in err


def test_help_names_the_tool_and_its_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        cli.main(["db", "backup", "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "DEST" in out and "--db SRC" in out and dbbackup.EXIT_CODES in out


def test_the_readme_says_how_to_back_up_and_restore_where_the_refusal_points() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    assert "\n## Back up and restore\n" in readme and "pg_restore" in readme
    for name in ("SIXSHOOTER_BACKUP_DIR", "SIXSHOOTER_BACKUP_EVERY", "SIXSHOOTER_BACKUP_KEEP"):
        assert f"\n| `{name}` |" in readme, name


def test_automatic_backups_on_postgresql_stop_the_bot_at_start_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", "123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11")
    monkeypatch.setenv("SIXSHOOTER_DB", "postgresql://bot:s3cr3t-pw@127.0.0.1:9/bot")
    monkeypatch.setenv("SIXSHOOTER_BACKUP_DIR", str(tmp_path))
    assert cli.main(["run"]) == cli.EXIT_CONFIG
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "s3cr3t-pw" not in err
    assert err.startswith("sixshooter: SIXSHOOTER_BACKUP_DIR backs up a SQLite file; on "
                          "PostgreSQL use pg_dump or the server's own backups")
