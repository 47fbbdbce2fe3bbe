"""The shell's layers: bot/ holds no game rule and does not read the rules' log; bot/common
serves every game and knows none of them."""

from __future__ import annotations

import ast
from pathlib import Path

BOT = Path(__file__).resolve().parents[2] / "bot"
GAMES = ("bot.duel", "bot.sixcard")


def _modules(root: Path = BOT) -> list[Path]:
    modules = sorted(root.rglob("*.py"))
    assert len(modules) >= (20 if root == BOT else 3), f"{root} has moved?"
    return modules


def _name(path: Path) -> str:
    parts = path.relative_to(BOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Every module a file imports, and every name it imports from one (`a.b.c` for
    `from a.b import c`), so a private module imported by name is seen too."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names |= {f"{node.module}.{a.name}" for a in node.names}
    return names


def _private(name: str) -> bool:
    return any(part.startswith("_") and part != "__init__" for part in name.split("."))


def test_bot_imports_no_private_module_or_name_of_the_rules() -> None:
    for path in _modules():
        bad = sorted(n for n in _imports(path)
                     if n.split(".")[0] == "rules" and _private(n))
        assert not bad, f"{_name(path)} imports {bad}"


def test_bot_never_reads_the_log_of_a_state() -> None:
    """The log is the rules' own record: the shell asks the state (`at`, `actors_since`),
    it never parses a saved state's JSON, nor looks up a "log" in anything."""
    for path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        where = f"{_name(path)}:"
        for node in ast.walk(tree):
            if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
                assert node.slice.value != "log", f"{where}{node.lineno} reads a log"
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                continue
            args = [ast.unparse(a) for a in node.args]
            if node.func.attr == "get":
                assert "'log'" not in args, f"{where}{node.lineno} reads a log"
            if node.func.attr in ("loads", "load") and ast.unparse(node.func.value) == "json":
                assert not any("state" in a for a in args), (
                    f"{where}{node.lineno} parses a saved state")


def test_common_imports_no_game() -> None:
    for path in _modules(BOT / "common"):
        bad = sorted(n for n in _imports(path) if n.startswith(GAMES))
        assert not bad, f"{_name(path)} imports {bad}"



def test_telegram_imports_no_game_nor_feature() -> None:
    """bot/telegram is the framing (payloads' registry, sends, intake): the features register
    their payloads with it, it imports none of them, nor any game's rules."""
    features = sorted(p.name for p in BOT.iterdir() if p.is_dir() and (p / "__init__.py").exists()
                      and p.name not in ("telegram", "storage", "common", "ops"))
    assert {"duel", "sixcard", "settings"} <= set(features), features
    banned = ("rules", *(f"bot.{f}" for f in features))
    for path in _modules(BOT / "telegram"):
        bad = sorted(n for n in _imports(path)
                     if any(n == b or n.startswith(f"{b}.") for b in banned))
        assert not bad, f"{_name(path)} imports {bad}"

# Over the limit still, and why: none now (the storage's database layer is split by engine).
LONG: set[str] = set()


def test_only_storage_reaches_the_database() -> None:
    """Features go through `Storage` (its repositories, `transaction()`, `move_chat()`):
    outside bot/storage nothing touches `storage.db`, builds a repository over a Database,
    imports an engine, or sees SQL's connections."""
    engines = ("aiosqlite", "asyncpg", "sqlite3", "bot.storage.db", "bot.storage.sqlite",
               "bot.storage.postgres")
    for path in _modules():
        if _name(path).startswith("bot.storage"):
            continue
        assert not {n for n in _imports(path) if n.startswith(engines)}, _name(path)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Attribute) and node.attr == "db":
                assert ast.unparse(node.value).split(".")[-1] != "storage", (
                    f"{_name(path)}:{node.lineno} reaches into storage.db")


def test_no_module_of_bot_is_over_300_lines() -> None:
    long = {_name(p): n for p in _modules()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 310}
    assert set(long) <= LONG, long
