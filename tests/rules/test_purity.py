"""The functional core stays pure: rules/ imports no I/O, no Telegram, no pictures."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "rules"
FORBIDDEN = ("bot", "render", "telegram", "sqlite3", "aiosqlite", "asyncio", "PIL", "httpx",
             "aiohttp", "socket", "os", "time")


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_no_module_of_rules_imports_io_telegram_or_pictures() -> None:
    modules = sorted(RULES.glob("*.py"))
    assert len(modules) >= 8
    for path in modules:
        bad = _imports(path) & set(FORBIDDEN)
        assert not bad, f"{path.name} imports {sorted(bad)}"


def test_importing_every_rule_loads_none_of_them() -> None:
    names = " ".join(f"rules.{p.stem}" for p in sorted(RULES.glob("*.py")) if p.stem != "__init__")
    code = (f"import sys, importlib\nfor n in {names.split()!r}: importlib.import_module(n)\n"
            f"print(sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN[:8]!r}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=RULES.parent).stdout.strip()
    assert out == "[]", out
