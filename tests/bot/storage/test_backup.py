"""`bot.storage.backup`: a copy of a live SQLite database made while another connection writes
(in WAL mode the writer goes on), checked, renamed into place only whole; and the rotation."""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.storage.backup import BackupError, Copy, backups, made_at, rotate, stamped

ROWS = 20_000
PAYLOAD = "x" * 400  # ~8 MB in all: a copy that takes long enough to write during


def _database(path: Path, rows: int = ROWS) -> None:
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")  # as the bot opens it
    db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)")
    db.execute("CREATE INDEX t_v ON t (v)")
    db.execute("BEGIN")
    db.executemany("INSERT INTO t (v) VALUES (?)", ((f"{i}{PAYLOAD}",) for i in range(rows)))
    db.execute("COMMIT")
    db.close()


def _count(path: Path, table: str = "t") -> int:
    db = sqlite3.connect(path)
    try:
        return int(db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
    finally:
        db.close()


def test_the_copy_holds_the_rows_passes_the_check_and_is_one_file(tmp_path: Path) -> None:
    source = tmp_path / "bot.db"
    _database(source)
    keeper = sqlite3.connect(source)  # the bot's connection: the WAL stays beside the file
    keeper.execute("INSERT INTO t (v) VALUES ('only in the WAL')")
    keeper.commit()
    made = Copy(source, tmp_path / "copy.db").run()
    keeper.close()
    assert made.path == tmp_path / "copy.db" and made.size == made.path.stat().st_size
    assert _count(made.path) == ROWS + 1  # the WAL's commit too
    db = sqlite3.connect(made.path)
    assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    assert db.execute("PRAGMA journal_mode").fetchone() == ("delete",)  # restored: one file
    db.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bot.db", "copy.db"]


def test_a_directory_gets_a_stamped_file_sorted_by_time(tmp_path: Path) -> None:
    source = tmp_path / "bot.db"
    _database(source, 10)
    out = tmp_path / "out"
    out.mkdir()
    when = datetime(2026, 12, 6, 14, 30, 5, tzinfo=UTC)
    made = Copy(source, out, when=when).run()
    assert made.path == out / "bot-20261206T143005Z.db" == stamped(out, "bot", when)
    assert made_at(made.path) == when.timestamp()
    assert backups(out, "bot") == [made.path]


def test_a_writer_keeps_writing_while_the_copy_is_made(tmp_path: Path) -> None:
    """The bot's writes are not held up by the copy: a writer commits throughout it, each
    commit in a moment (the busy timeout it would otherwise run into is 5 s)."""
    source = tmp_path / "bot.db"
    _database(source, 60_000)
    copying, done = threading.Event(), threading.Event()
    waits: list[float] = []
    during: list[int] = []

    def writer() -> None:
        db = sqlite3.connect(source, isolation_level=None)
        db.execute("PRAGMA busy_timeout = 5000")
        copying.wait()
        while not done.is_set():
            start = time.perf_counter()
            db.execute("BEGIN IMMEDIATE")
            db.execute("INSERT INTO t (v) VALUES ('during')")
            db.execute("COMMIT")
            waits.append(time.perf_counter() - start)
        db.close()

    thread = threading.Thread(target=writer)
    thread.start()
    copy = Copy(source, tmp_path / "copy.db")
    original = copy._copy

    def copied() -> None:  # the writer runs from the first read to the end of the copy
        copying.set()
        original()
        during.append(len(waits))
    copy._copy = copied  # type: ignore[method-assign]
    try:
        made = copy.run()
    finally:
        copying.set()
        done.set()
        thread.join()
    assert during[0] >= 3, f"only {during[0]} writes while the copy was made"
    assert max(waits) < 2.0, f"a write waited {max(waits):.2f} s"
    copied_rows = _count(made.path)
    assert 60_000 <= copied_rows < _count(source)  # a snapshot: the later writes not in it


def test_a_failed_copy_leaves_nothing_under_the_name_nor_beside_it(tmp_path: Path) -> None:
    source = tmp_path / "bot.db"
    _database(source, 100)
    dest = tmp_path / "copy.db"
    dest.write_bytes(b"yesterday's backup")
    copy = Copy(source, dest)

    def broken() -> None:
        copy.temp.write_bytes(b"half a copy")
        raise BackupError("the disk is full")
    copy._copy = broken  # type: ignore[method-assign]
    with pytest.raises(BackupError):
        copy.run()
    assert dest.read_bytes() == b"yesterday's backup"  # never half-written under its name
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bot.db", "copy.db"]


def test_a_copy_that_fails_its_check_is_not_kept(tmp_path: Path) -> None:
    source = tmp_path / "bot.db"
    _database(source, 2000)
    dest = tmp_path / "copy.db"
    copy = Copy(source, dest)
    original = copy._copy

    def corrupted() -> None:
        original()
        with copy.temp.open("r+b") as f:  # an index page overwritten
            f.seek(os.path.getsize(copy.temp) - 4096 * 3)
            f.write(b"\x0d" + b"\xff" * 4095)
    copy._copy = corrupted  # type: ignore[method-assign]
    with pytest.raises(BackupError, match="nothing was kept"):
        copy.run()
    assert not dest.exists() and not copy.temp.exists()


def test_an_interrupted_copy_leaves_nothing(tmp_path: Path) -> None:
    source = tmp_path / "bot.db"
    _database(source, 10)
    copy = Copy(source, tmp_path / "copy.db")
    copy.interrupt()  # (a bot stopping: before or during the copy, the same)
    with pytest.raises(BackupError, match="interrupted"):
        copy.run()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bot.db"]


def test_refusals_are_one_line(tmp_path: Path) -> None:
    with pytest.raises(BackupError, match="no database at"):
        Copy(tmp_path / "missing.db", tmp_path / "copy.db").run()
    _database(tmp_path / "bot.db", 1)
    with pytest.raises(BackupError, match="does not exist"):
        Copy(tmp_path / "bot.db", tmp_path / "nowhere" / "copy.db").run()
    with pytest.raises(BackupError, match="the database itself"):
        Copy(tmp_path / "bot.db", tmp_path / "bot.db").run()


def test_rotation_keeps_the_newest_and_removes_only_dead_copies_temporaries(tmp_path: Path) -> None:
    names = [f"bot-202612{d:02d}T030000Z.db" for d in range(1, 11)]
    live = f".bot-20261211T030000Z.db.{os.getpid()}.tmp"  # a copy being made
    others = ["other-20261201T030000Z.db", live, "notes.txt"]
    dead = ".bot-20261210T030000Z.db.999999999.tmp"  # a copy killed midway
    (tmp_path / dead).write_text("half")
    for name in [*names, *others]:
        (tmp_path / name).write_text("x")
    removed = rotate(tmp_path, "bot", keep=7)
    assert [p.name for p in removed] == names[:3]  # the oldest first
    assert [p.name for p in backups(tmp_path, "bot")] == names[3:]
    assert all((tmp_path / name).exists() for name in others)
    assert not (tmp_path / dead).exists()
    assert rotate(tmp_path, "bot", keep=7) == []
    with pytest.raises(ValueError):
        rotate(tmp_path, "bot", keep=0)
