"""Importing a module of bot/ registers nothing: handlers, due kinds, sync plug-ins and
chat-close hooks are registered with an application, by its features' `register(app)`, so
two applications in one process (the tests build many) each have their own, once; a button
payload is its feature's own definition (its `PAYLOADS`), in no registry."""

from __future__ import annotations

import ast
from pathlib import Path

from bot import app as application
from bot.common import chats, due, sync
from bot.config import Config

BOT = Path(__file__).resolve().parents[1].parent / "bot"
TOKEN = "123456:" + "A" * 35

# What registers or adds to something: called at a module's top level, it is a side effect of
# importing it.
VERBS = {"register", "plug", "closes", "add_handler", "add_error_handler", "append", "extend",
         "insert", "add", "update", "setdefault", "kind"}
# Calls at a module's top level that stay, and why (module, the call's start).
ALLOWED = {
    # The metrics' own registry, filled where it is defined: nothing outside the module.
    ("bot.ops.metrics", "ProcessCollector("), ("bot.ops.metrics", "PlatformCollector("),
    ("bot.ops.metrics", "GCCollector("),
    # python-telegram-bot's advice to use its own method for the two calls read raw.
    ("bot.telegram.send", "warnings.filterwarnings("),
}


def _name(path: Path) -> str:
    parts = path.relative_to(BOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _top_level(body: list[ast.stmt]) -> list[ast.AST]:
    """What runs when the module is imported: its statements, but not function bodies (a
    class body runs; so do decorators and default values)."""
    out: list[ast.AST] = []
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out += [*node.decorator_list, *node.args.defaults,
                    *(d for d in node.args.kw_defaults if d is not None)]
        elif isinstance(node, ast.ClassDef):
            out += [*node.decorator_list, *node.bases, *_top_level(node.body)]
        elif isinstance(node, ast.If):
            if ast.unparse(node.test) == "__name__ == '__main__'":
                continue  # run as a program, not imported
            out += [node.test, *_top_level(node.body), *_top_level(node.orelse)]
        elif isinstance(node, ast.Try):
            out += _top_level(node.body) + _top_level(node.orelse) + _top_level(node.finalbody)
            for handler in node.handlers:
                out += _top_level(handler.body)
        elif not isinstance(node, (ast.Import, ast.ImportFrom)):
            out.append(node)
    return out


def _verb(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _side_effects(source: str, module: str) -> list[str]:
    """The calls a module's import makes that register or add to something, or that stand
    alone as a statement (a call made for its effect), but those `ALLOWED`."""
    found = []
    for node in _top_level(ast.parse(source, module).body):
        for call in (c for c in ast.walk(node) if isinstance(c, ast.Call)):
            alone = isinstance(node, ast.Expr) and node.value is call
            if not alone and _verb(call) not in VERBS:
                continue
            text = ast.unparse(call)
            if not any(module == m and text.startswith(start) for m, start in ALLOWED):
                found.append(f"{module}:{call.lineno}: {text[:80]}")
    return found


def test_importing_a_module_of_bot_registers_nothing() -> None:
    modules = sorted(BOT.rglob("*.py"))
    assert len(modules) > 100, "bot/ has moved?"
    found = [effect for path in modules
             for effect in _side_effects(path.read_text(encoding="utf-8"), _name(path))]
    assert not found, "\n".join(found)


def test_the_check_sees_a_registration_at_import() -> None:
    source = ("from bot.common import due, sync\n"
              "def f(): due.register(app, 'x', g)\n"  # in a function: at a call, not import
              "sync.plug(LIVE)\n"
              "X = due.register('y', g)\n"
              "@due.kind('z')\n"
              "async def g(app, key, data): ...\n"
              "class C:\n"
              "    HOOKS.append(1)\n"
              "LIVE = Live(GAME, Screen())\n")  # a definition: fine
    found = _side_effects(source, "bot.duel.example")
    assert [int(f.split(":")[1]) for f in found] == [3, 4, 5, 8]
    # A button payload is a definition (its PREFIX, fields and parse): none registered.
    assert _side_effects("register('x', P, f, g)\n", "bot.duel.payloads") == [
        "bot.duel.payloads:1: register('x', P, f, g)"]
    assert _side_effects("if __name__ == '__main__':\n    main()\n", "bot.__main__") == []


def test_each_application_registers_its_own_once() -> None:
    """A second application built in the same process has the same registrations as the
    first, not twice as many, and adding to one does not add to the other."""
    first, second = (application.build(Config(token=TOKEN)) for _ in range(2))
    for app in (first, second):
        assert len(due.handlers_of(app)) == 10
        assert [g.name for g in chats.closing(app)] == ["duel", "six-card", "tournament"]
        assert len(sync.loops_of(app)) == 2
        assert len(app.handlers[0]) == len(first.handlers[0])
    assert due.handlers_of(first) is not due.handlers_of(second)
    assert chats.closing(first) is not chats.closing(second)
