"""The shell's layers: bot/ holds no game rule and does not read the rules' log; bot/common
serves every game and knows none of them; no arrow runs back up a floor, and no file of bot/,
rules/ or render/ imports, however indirectly, one that imports it (files are cut by meaning,
not by a line count)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "bot"
# The games' packages: each game's rules (a package under rules/) and its bot/ package of the
# same name, so a new game is walled in without a line here.
GAMES = tuple(sorted(f"bot.{p.name}" for p in (ROOT / "rules").iterdir()
                     if (p / "__init__.py").exists() and (BOT / p.name / "__init__.py").exists()))


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
    assert {"bot.duel", "bot.sixcard"} <= set(GAMES), GAMES  # still found where they are
    for path in _modules(BOT / "common"):
        bad = sorted(n for n in _imports(path) if n.startswith(GAMES))
        assert not bad, f"{_name(path)} imports {bad}"



def test_telegram_imports_no_game_nor_feature() -> None:
    """bot/telegram is the framing (callback data, sends, intake): the features' payloads
    follow its `Payload`, it imports none of them, nor any game's rules."""
    features = sorted(p.name for p in BOT.iterdir() if p.is_dir() and (p / "__init__.py").exists()
                      and p.name not in ("telegram", "storage", "common", "ops"))
    assert {"duel", "sixcard", "settings"} <= set(features), features
    banned = ("rules", *(f"bot.{f}" for f in features))
    for path in _modules(BOT / "telegram"):
        bad = sorted(n for n in _imports(path)
                     if any(n == b or n.startswith(f"{b}.") for b in banned))
        assert not bad, f"{_name(path)} imports {bad}"


def test_the_low_floors_import_nothing_of_telegram() -> None:
    """The texts (bot.i18n, its HTML) and the operators' counters (bot.ops) sit below the
    framing: bot/telegram counts through bot.ops.metrics and fills texts through bot.i18n, never
    the other way round."""
    low = [BOT / "i18n.py", BOT / "html.py", *_modules(BOT / "ops")]
    for path in low:
        bad = sorted(n for n in _imports(path)
                     if n == "bot.telegram" or n.startswith("bot.telegram."))
        assert not bad, f"{_name(path)} imports {bad}"


def test_only_storage_reaches_the_database() -> None:
    """Features go through `Storage` (its repositories, `transaction()`, `move_chat()`):
    outside bot/storage nothing touches `storage.db`, builds a repository over a Database,
    imports an engine, or sees SQL's connections."""
    engines = ("aiosqlite", "asyncpg", "sqlite3", "bot.storage.db", "bot.storage.sqlite",
               "bot.storage.postgres", "bot.storage.engines")
    for path in _modules():
        if _name(path).startswith("bot.storage"):
            continue
        assert not {n for n in _imports(path) if n.startswith(engines)}, _name(path)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Attribute) and node.attr == "db":
                assert ast.unparse(node.value).split(".")[-1] != "storage", (
                    f"{_name(path)}:{node.lineno} reaches into storage.db")


PACKAGES = ("bot", "rules", "render")


def _files() -> dict[str, Path]:
    """Every module of bot/, rules/ and render/ by its dotted name."""
    files: dict[str, Path] = {}
    for package in PACKAGES:
        for path in _modules(ROOT / package):
            parts = path.relative_to(ROOT).with_suffix("").parts
            files[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return files


def _imported_files(name: str, path: Path, files: dict[str, Path]) -> set[str]:
    """The modules of `files` that `path` (module `name`) imports, read as text: inside a
    function or under TYPE_CHECKING too, relative imports resolved, and `from a.b import c` is
    module a.b.c when that is one (else a.b)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")
                up = up[: len(up) - (node.level - 1)]
                base = ".".join([*up, base] if base else up)
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in files else base)
    return {n for n in found if n in files and n != name}


def _cycle(start: str, within: set[str], graph: dict[str, set[str]]) -> list[str]:
    """One circle through `start` inside a strongly connected set of modules."""
    paths = {start: [start]}
    queue = [start]
    while queue:
        here = queue.pop(0)
        for there in sorted(graph[here] & within):
            if there == start:
                return [*paths[here], start]
            if there not in paths:
                paths[there] = [*paths[here], there]
                queue.append(there)
    raise AssertionError(f"no circle through {start}")


def _circles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected sets of more than one module (Tarjan's, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            for succ in successors:
                if succ not in index:
                    index[succ] = low[succ] = len(index)
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(sorted(graph[succ]))))
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    members = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        members.add(member)
                        if member == node:
                            break
                    if len(members) > 1:
                        found.append(members)
    return found


def test_no_circle_of_imports_between_files() -> None:
    """A file that imports one importing it back is one meaning cut in two (or two tangled):
    join them, or cut them so the arrows run one way."""
    files = _files()
    graph = {name: _imported_files(name, path, files) for name, path in files.items()}
    assert {"bot.storage.db", "rules.duel.state", "render.duel"} <= set(graph)
    circles = []
    for members in _circles(graph):
        circle = _cycle(min(members), members, graph)
        rest = sorted(members - set(circle))
        circles.append(" -> ".join(circle) + (f" (and with it {', '.join(rest)})" if rest else ""))
    assert not circles, "circles of imports:\n" + "\n".join(sorted(circles))
