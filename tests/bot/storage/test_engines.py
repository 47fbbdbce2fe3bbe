"""The engines by URL scheme (`bot.storage.engines`): a location parsed once, each engine's
capabilities, and the rest of the bot asking those, never an engine's name."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from bot.storage import Storage, StorageError, locate, open_database
from bot.storage.engines import ENGINES
from bot.storage.postgres import PostgresDatabase
from bot.storage.postgres_sql import servers
from bot.storage.sqlite import SqliteDatabase

BOT = Path(__file__).resolve().parents[3] / "bot"


def test_a_location_names_its_engine_what_it_opens_and_what_may_be_shown(tmp_path: Path) -> None:
    file = locate(tmp_path / "s.db")
    assert (file.engine, file.target, file.shown, file.file) == (
        SqliteDatabase, str(tmp_path / "s.db"), str(tmp_path / "s.db"), str(tmp_path / "s.db"))
    assert locate(f"sqlite:///{tmp_path}/s.db") == file
    assert locate("sqlite:///:memory:").file == ":memory:"
    assert locate("~/s.db").file == str(Path.home() / "s.db")
    url = "postgresql://bot:hunter2@db.example.org:5432/six"
    server = locate(url)
    assert (server.engine, server.target, server.file) == (PostgresDatabase, url, None)
    assert server.shown == "postgresql://bot:***@db.example.org:5432/six"
    assert "hunter2" not in repr(server)
    assert locate("postgres://db/six").engine is PostgresDatabase


def test_a_url_of_several_servers_is_read_as_libpq_writes_it() -> None:
    url = ("postgresql://bot:hunter2@db1:5432,db2:6432,[::1]:5433,db4/six"
           "?target_session_attrs=read-write")
    server = locate(url)
    assert (server.engine, server.target, server.file) == (PostgresDatabase, url, None)
    assert servers(url) == [("db1", 5432), ("db2", 6432), ("::1", 5433), ("db4", None)]
    assert server.shown == ("postgresql://bot:***@db1:5432,db2:6432,[::1]:5433,db4/six"
                            "?target_session_attrs=read-write")
    assert server.secrets == ("hunter2",) and "hunter2" not in repr(server)
    assert locate("postgres://db1,db2/six?target_session_attrs=primary").shown == (
        "postgres://db1,db2/six?target_session_attrs=primary")


def test_a_password_is_masked_wherever_the_url_carries_it() -> None:
    # After the user (an @ in it encoded), or as libpq's `password` parameter.
    url = "postgresql://bot:p%40ss@db1,db2/six?password=s3cr%2Bt&sslmode=prefer&application_name=x"
    server = locate(url)
    assert server.shown == ("postgresql://bot:***@db1,db2/six?password=***&sslmode=prefer"
                            "&application_name=x")
    assert set(server.secrets) >= {"p%40ss", "p@ss", "s3cr%2Bt", "s3cr+t"}
    assert locate("postgresql://bot@db/six").secrets == ()


@pytest.mark.parametrize(("where", "says"), [
    ("mysql://h/db", "unknown database scheme 'mysql'"),
    ("sqlite:data.db", "three slashes"),
    ("sqlite:///", "three slashes"),
    ("postgresql://h:port/db", "not a usable PostgreSQL URL"),
    ("postgresql://", "names no PostgreSQL server"),
    ("postgresql://u:pw@db1:5432,db2:x/six", "the port 'x' of 'db2'"),
    ("postgresql://u:pw@db1:5432,,db2/six", "a server without a host"),
    ("postgresql://u:pw@[::1/six", "IPv6"),
    ("postgresql://u:pw@db1:99999/six", "not a port number"),
    ("postgresql://db1,db2/six?target_session_attrs=standby", "the bot writes"),
    ("postgresql://db1,db2/six?target_session_attrs=read-only", "read-write, primary"),
])
def test_a_location_that_cannot_work_says_why(where: str, says: str) -> None:
    with pytest.raises(StorageError, match=re.escape(says)) as e:
        locate(where)
    assert ":pw" not in str(e.value)  # the password never in a refusal


def test_each_engine_declares_what_it_can_do_and_its_dialect() -> None:
    assert set(ENGINES) == {"sqlite", "postgresql", "postgres"}
    assert SqliteDatabase.can.one_process and not PostgresDatabase.can.one_process
    for engine in set(ENGINES.values()):
        assert engine.can.skip_locked == bool(engine.SKIP_LOCKED), engine
        assert {"references", "key"} <= set(engine.CATALOG), engine


async def test_a_parsed_location_opens_as_its_text_does(database: str) -> None:
    store = await Storage.open(locate(database))
    try:
        assert store.can is store.db.can is locate(database).engine.can
        assert store.engine == store.db.engine
    finally:
        await store.close()
    with pytest.raises(ValueError, match="busy timeout"):
        await open_database(database, busy_timeout=0)


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names |= {node.module, *(f"{node.module}.{a.name}" for a in node.names)}
    return names


def test_the_seam_imports_no_engine_and_nothing_above_storage() -> None:
    for name in ("db.py", "watch.py"):
        bad = {n for n in _imports(BOT / "storage" / name)
               if n.startswith(("bot.storage.sqlite", "bot.storage.postgres",
                                "bot.storage.engines", "bot.ops", "bot.telegram"))}
        assert not bad, (name, bad)


def test_nothing_asks_an_engine_by_its_name() -> None:
    """Outside the engines, code asks `can` (what the engine can do), never compares `engine`
    with a name."""
    names = {"sqlite", "postgresql", "postgres"}
    for path in sorted(BOT.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Compare):
                continue
            sides = [node.left, *node.comparators]
            named = any(isinstance(s, ast.Constant) and s.value in names for s in sides)
            engine = any(isinstance(s, ast.Attribute) and s.attr == "engine" for s in sides)
            assert not (named and engine), f"{path}:{node.lineno} asks an engine's name"
