"""render/ draws from the public views only and knows nothing of the bot: checked on the imports
of every module under render/ (the drawing itself is checked per game in duel/test_no_leak.py
and sixcard/test_table.py)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import render

RENDER = Path(render.__file__).parent


def _imports(path: Path, *, nested: bool = True) -> set[str]:
    """The modules `path` imports (`nested=False`: at module level only)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree) if nested else tree.body:
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def _modules() -> list[Path]:
    modules = sorted(RENDER.rglob("*.py"))
    assert len(modules) >= 10
    return modules


def test_render_draws_from_the_public_view_only() -> None:
    """Only the preview scripts (which play games to have something to draw) may touch a
    game's state; the drawing modules see the public views (rules.duel.view,
    rules.sixcard.view), cards and hand values (and what decides between two of them,
    rules.showdown, pure), nothing else."""
    allowed = {"rules.duel.view", "rules.sixcard.view", "rules.cards", "rules.hands",
               "rules.showdown"}
    for path in _modules():
        rules = {m for m in _imports(path) if m.split(".")[0] == "rules"}
        if path.name.startswith("preview"):
            continue
        assert rules <= allowed, f"{path.name} imports {rules - allowed}"


def test_render_imports_nothing_from_bot_or_telegram() -> None:
    """The pictures take their words as a `Labels` argument, never from bot/. The preview
    scripts' command line alone asks bot.i18n for the catalogs' words, inside `main()`:
    importing any module of render/ (the previews too) loads nothing of bot/ or telegram."""
    for path in _modules():
        top = {m.split(".")[0] for m in _imports(path, nested=False)}
        assert not top & {"bot", "telegram"}, path.name
        nested = {m for m in _imports(path) if m.split(".")[0] in ("bot", "telegram")}
        if path.name.startswith("preview"):
            assert nested <= {"bot.i18n"}, (path.name, nested)
        else:
            assert not nested, (path.name, nested)
    modules = [".".join(p.relative_to(RENDER.parent).with_suffix("").parts) for p in _modules()]
    code = (f"import sys, importlib\nfor m in {modules!r}: importlib.import_module(m)\n"
            "bad = [m for m in sys.modules if m.split('.')[0] in ('bot', 'telegram')]\n"
            "assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=RENDER.parent)
