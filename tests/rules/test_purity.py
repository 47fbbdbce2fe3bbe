"""The functional core stays pure: rules/ imports no I/O, no Telegram, no pictures, and holds no
language (the words people read are the catalogs' and the shell's)."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "rules"
FORBIDDEN = ("bot", "render", "telegram", "sqlite3", "aiosqlite", "asyncio", "PIL", "httpx",
             "aiohttp", "socket", "os", "time")
CYRILLIC = re.compile("[\u0400-\u04ff]+")


def _modules() -> list[Path]:
    """Every module of rules/, its packages' included."""
    modules = sorted(RULES.rglob("*.py"))
    assert len(modules) >= 20, "rules/ has moved?"
    return modules


def _name(path: Path) -> str:
    parts = path.relative_to(RULES.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_no_module_of_rules_imports_io_telegram_or_pictures() -> None:
    for path in _modules():
        bad = _imports(path) & set(FORBIDDEN)
        assert not bad, f"{_name(path)} imports {sorted(bad)}"


def test_importing_every_rule_loads_none_of_them() -> None:
    names = [_name(p) for p in _modules()]
    code = (f"import sys, importlib\nfor n in {names!r}: importlib.import_module(n)\n"
            f"print(sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN[:8]!r}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=RULES.parent).stdout.strip()
    assert out == "[]", out


def test_no_module_of_rules_holds_a_language() -> None:
    """No Russian (nor any other Cyrillic text) in rules/: what people read is translated by
    the catalogs, and rules/ hands out values and keys."""
    found = {
        _name(path): CYRILLIC.findall(path.read_text(encoding="utf-8"))
        for path in _modules()
    }
    found = {name: words for name, words in found.items() if words}
    assert not found, found
