"""One bot per database: the lock beside it keeps a second process out, and dies with its holder."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot import instance

REPO = Path(__file__).resolve().parents[2]
HOLDER = """
import sys, time
from pathlib import Path
from bot import instance
with instance.hold(Path(sys.argv[1])):
    print("held", flush=True)
    time.sleep(60)
"""


def take(db: Path) -> None:
    """Take the lock and let it go."""
    with instance.hold(db):
        pass


def test_the_lock_file_sits_beside_the_database(tmp_path: Path) -> None:
    assert instance.lock_path(tmp_path / "s.db") == tmp_path / "s.db.lock"


def test_a_second_holder_is_refused_with_one_line_naming_the_first(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    with instance.hold(db) as path:
        assert path.read_text().strip() == str(os.getpid())
        with pytest.raises(instance.AlreadyRunning) as info:
            take(db)
        message = str(info.value)
        assert f"(pid {os.getpid()})" in message and str(db) in message
        assert "SIXSHOOTER_DB" in message and "\n" not in message
        take(tmp_path / "other.db")  # another database is another lock
    take(db)  # released at the end of the block


def test_the_kernel_releases_the_lock_of_a_killed_holder(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    with subprocess.Popen([sys.executable, "-c", HOLDER, str(db)], cwd=REPO,
                          stdout=subprocess.PIPE, text=True) as holder:  # closes its pipe
        try:
            assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
            with pytest.raises(instance.AlreadyRunning, match=f"pid {holder.pid}"):
                take(db)
        finally:
            holder.send_signal(signal.SIGKILL)  # as a crash or an OOM kill would
            holder.wait()
    take(db)  # no stale lock: the restart after a crash starts


def test_a_lock_file_that_cannot_be_opened_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(instance.LockError) as info:
        take(tmp_path / "missing" / "s.db")
    assert "s.db.lock" in str(info.value) and "\n" not in str(info.value)
