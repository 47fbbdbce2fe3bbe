"""A consistent copy of a live SQLite database, written so that no half of one ever has the
backup's name; and the rotation of a directory of such copies.

    made = Copy(Path("sixshooter.db"), Path("backups/")).run()   # blocking: run it in a thread
    rotate(Path("backups/"), "sixshooter", keep=7)               # the oldest beyond 7 removed

The copy is `VACUUM INTO` a temporary file beside the destination, from one read transaction
on the source: in WAL mode (the bot's) a reader never blocks the writers, so the bot writes on
while the copy reads its snapshot (the WAL only grows meanwhile; the next checkpoint after the
copy shrinks it back). SQLite's online backup API was the other way: copied in steps (to let
writers in between, which WAL does not need) it starts again from the first page whenever
another connection writes, so a busy bot's backup may never end; in one step it is what
`VACUUM INTO` is, except that a statement can be interrupted (`Copy.interrupt`, from another
thread: a bot that stops does not wait for the copy to end) and it writes a compact file.
The copy is checked (`PRAGMA quick_check`: every page, row and index entry readable and well
formed) and flushed to disk before it is renamed over the destination; a failure removes it.
"""

from __future__ import annotations

import os
import re
import sqlite3
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bot.storage.db import StorageError

STAMP = "%Y%m%dT%H%M%SZ"  # UTC: names sort as the times they were made
_STAMPED = r"-(\d{8}T\d{6}Z)\.db"
BUSY_MS = 5000  # the source's busy timeout (a reader waits only while the WAL is recovered)


class BackupError(StorageError):
    """The copy could not be made or failed its check; the message is one line."""


@dataclass(frozen=True, slots=True)
class Made:
    path: Path  # the backup, under its final name
    size: int  # bytes
    seconds: float  # from the first read to the rename


def stamped(directory: Path, stem: str, when: datetime) -> Path:
    """The file a backup of the database `stem` made at `when` has in `directory`."""
    return directory / f"{stem}-{when.astimezone(UTC).strftime(STAMP)}.db"


def backups(directory: Path, stem: str) -> list[Path]:
    """The backups of the database `stem` in `directory`, oldest first (by their names)."""
    pattern = re.compile(re.escape(stem) + _STAMPED)
    if not directory.is_dir():
        return []
    return sorted(p for p in directory.iterdir() if pattern.fullmatch(p.name) and p.is_file())


def made_at(path: Path) -> float:
    """The unix time a backup was made, from its name (its mtime if the name has none)."""
    found = re.search(_STAMPED + "$", path.name)
    if found is None:
        return path.stat().st_mtime
    return datetime.strptime(found.group(1), STAMP).replace(tzinfo=UTC).timestamp()


def rotate(directory: Path, stem: str, keep: int) -> list[Path]:
    """Remove the oldest backups of `stem` beyond the newest `keep`, and the temporary files
    of copies whose process is gone (a kill mid-copy); returns the backups removed."""
    if keep < 1:
        raise ValueError("keep at least one backup")
    old = backups(directory, stem)[:-keep]
    for path in old:
        path.unlink(missing_ok=True)
    temp = re.compile(r"\." + re.escape(stem) + _STAMPED + r"\.(\d+)\.tmp")
    for path in directory.iterdir():
        found = temp.fullmatch(path.name)
        if found is not None and not _alive(int(found.group(2))):
            path.unlink(missing_ok=True)
    return old


class Copy:
    """One backup of the SQLite file `source` to `dest` (a file, or a directory to put a
    file named by `stamped` in); `run` blocks, `interrupt` may be called from another thread."""

    def __init__(self, source: Path, dest: Path, *, when: datetime | None = None) -> None:
        self.source = source
        when = when or datetime.now(UTC)
        self.dest = stamped(dest, source.stem, when) if dest.is_dir() else dest
        self.temp = self.dest.with_name(f".{self.dest.name}.{os.getpid()}.tmp")
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        self._interrupted = False

    def run(self) -> Made:
        if not self.source.is_file():
            raise BackupError(f"no database at {str(self.source)!r}: nothing to back up")
        if not self.dest.parent.is_dir():
            raise BackupError(f"the directory {str(self.dest.parent)!r} does not exist; "
                              "create it or back up elsewhere")
        if self.dest.resolve() == self.source.resolve():
            raise BackupError("the backup would replace the database itself; give another path")
        started = time.perf_counter()
        try:
            self._copy()
            self._check()
            _flush(self.temp)
            os.replace(self.temp, self.dest)
            _flush(self.dest.parent)
        except BaseException:
            self.temp.unlink(missing_ok=True)
            raise
        return Made(self.dest, self.dest.stat().st_size, time.perf_counter() - started)

    def interrupt(self) -> None:
        """Stop the copy or its check where it is (run raises BackupError, leaving nothing)."""
        with self._lock:
            self._interrupted = True
            if self._conn is not None:
                self._conn.interrupt()

    def _copy(self) -> None:
        self.temp.unlink(missing_ok=True)  # (a crashed run's, with this pid again)
        uri = f"{self.source.resolve().as_uri()}?mode=ro"
        conn = self._open(uri, uri=True)
        try:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_MS:d}")
            conn.execute("VACUUM INTO ?", (str(self.temp),))
        except sqlite3.Error as e:
            raise self._failed("copying the database", e) from None
        finally:
            self._close(conn)

    def _check(self) -> None:
        conn = self._open(str(self.temp))
        try:
            # A file of its own, not the source's WAL mode: restored, it is one file.
            conn.execute("PRAGMA journal_mode = DELETE")
            problems = [row[0] for row in conn.execute("PRAGMA quick_check")]
        except sqlite3.Error as e:
            raise self._failed("checking the copy", e) from None
        finally:
            self._close(conn)
        if problems != ["ok"]:
            raise BackupError(f"the copy failed its check ({problems[0]}); nothing was kept")

    def _open(self, where: str, *, uri: bool = False) -> sqlite3.Connection:
        try:
            conn = sqlite3.connect(where, uri=uri, isolation_level=None,
                                   check_same_thread=False)
        except sqlite3.Error as e:
            raise self._failed("opening the database", e) from None
        with self._lock:
            if self._interrupted:
                conn.close()
                raise BackupError("the backup was interrupted; nothing was kept")
            self._conn = conn
        return conn

    def _close(self, conn: sqlite3.Connection) -> None:
        with self._lock:
            self._conn = None
        conn.close()

    def _failed(self, doing: str, e: sqlite3.Error) -> BackupError:
        if self._interrupted:
            return BackupError("the backup was interrupted; nothing was kept")
        return BackupError(f"{doing} failed: {e}; nothing was kept")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's
        return True
    return True


def _flush(path: Path) -> None:
    """fsync a file or a directory (the rename), so a crash after it keeps the backup."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
