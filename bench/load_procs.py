"""The bot process under bench/bot_load.py: how to start it (this tree, under cProfile, or
another checkout), its CPU and peak memory, its ops port for /metrics."""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

from tests.support.botprocess import BotProcess
from tests.support.ops import free_port


def proc_stat(pid: int) -> tuple[float, int]:
    """(CPU seconds used, peak resident KiB) of a process."""
    ticks = os.sysconf("SC_CLK_TCK")
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / ticks
    peak = 0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            peak = int(line.split()[1])
    return cpu, peak


def children_stat(pids: list[int]) -> dict[int, tuple[float, int]]:
    """(CPU seconds, peak resident KiB) of each live child of these processes (the bot's
    search pool, bot.offload: separate processes, counted apart from the bot's)."""
    out: dict[int, tuple[float, int]] = {}
    for pid in pids:
        for task in Path(f"/proc/{pid}/task").glob("*/children"):
            for child in (int(c) for c in task.read_text().split()):
                with contextlib.suppress(OSError):  # ended meanwhile
                    out[child] = proc_stat(child)
    return out


def bot_command(checkout: Path | None, profile: str | None) -> list[str] | None:
    """How to start the bot: this tree's installed script, under cProfile, or the bot of
    another checkout (an older commit, to compare in one run)."""
    if checkout is not None:
        boot = (f"import sys; sys.path.insert(0, {str(checkout)!r}); "
                "from bot.__main__ import main; sys.exit(main())")
        return [sys.executable, "-c", boot]
    if profile:  # the bot under cProfile, written when it stops
        return [sys.executable, "-m", "cProfile", "-o", profile, "-m", "bot"]
    return None


def has_postgres(checkout: Path) -> bool:
    return (checkout / "bot" / "storage" / "postgres.py").exists()


def ops_ports(bots: list[BotProcess]) -> list[int]:
    """A free ops port (SIXSHOOTER_METRICS_PORT) for each process, to read its /metrics (an
    older tree without them ignores the variable: its counts are n/a)."""
    ports = [free_port() for _ in bots]
    for bot, port in zip(bots, ports, strict=True):
        bot.extra_env["SIXSHOOTER_METRICS_PORT"] = str(port)
    return ports
