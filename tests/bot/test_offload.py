"""The search pool (bot.offload) with real processes: started on first use, niced, a search's
result back; a process that dies is replaced by a new pool and the search run once more; a
search that kills every process it runs in fails, and the pool after it works; with no
workers, a search runs right here; a pool process ends when its bot is killed."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from bot.offload import NICE, Offload


@pytest.fixture
async def pool() -> AsyncIterator[Offload]:
    offload = Offload(1)
    yield offload
    await offload.close()


async def test_a_search_runs_in_a_niced_process_made_at_first_use(pool: Offload) -> None:
    assert pool.pids() == [] and pool.pools == 0
    pid = await pool.run(os.getpid)
    assert pid != os.getpid() and pool.pids() == [pid] and pool.pools == 1
    assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, os.nice(0) + NICE)
    assert await pool.run(divmod, 17, 5) == (3, 2)
    assert await pool.run(os.getpid) == pid  # the same process, kept


async def test_a_killed_process_is_replaced_and_the_search_run_again(pool: Offload) -> None:
    first = await pool.run(os.getpid)
    os.kill(first, signal.SIGKILL)
    second = await pool.run(os.getpid)
    assert second != first and pool.pools == 2


async def test_a_search_that_kills_its_process_twice_fails_and_the_next_works(
        pool: Offload) -> None:
    with pytest.raises(BrokenProcessPool):
        await pool.run(os._exit, 9)
    assert pool.pools == 2  # made again once, for the one retry
    assert await pool.run(divmod, 7, 2) == (3, 1)
    assert pool.pools == 3


async def test_with_no_workers_a_search_runs_here() -> None:
    here = Offload.in_process()
    assert await here.run(os.getpid) == os.getpid()
    assert here.pools == 0 and here.pids() == []


async def test_a_pool_process_ends_when_the_bot_is_killed(tmp_path: Path) -> None:
    script = ("import asyncio, os, sys; from bot.offload import Offload\n"
              "async def main():\n"
              "    pid = await Offload(1).run(os.getpid)\n"
              "    print(pid, flush=True); os.kill(os.getpid(), 9)\n"
              "if __name__ == '__main__':\n"
              "    asyncio.run(main())\n")
    (tmp_path / "bot_like.py").write_text(script)
    done = subprocess.run([sys.executable, str(tmp_path / "bot_like.py")], capture_output=True,
                          text=True, timeout=60, cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == -signal.SIGKILL, done.stderr
    child = int(done.stdout.split()[0])
    async with asyncio.timeout(20):
        while Path(f"/proc/{child}").exists() and "Z" not in _state(child):
            await asyncio.sleep(0.05)


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"


async def test_no_search_starts_a_process_once_closed(pool: Offload) -> None:
    await pool.run(os.getpid)
    await pool.close()
    with pytest.raises(RuntimeError):
        await pool.run(os.getpid)
    assert pool.pids() == [] and pool.pools == 1


def test_the_bot_loads_no_search_module_and_a_pool_process_runs_them() -> None:
    """The bot's process names the searches (`rules.duel.searches`) without importing them:
    numpy and the judge load only where a search runs, in the pool's process."""
    script = (
        "import asyncio, random, sys\n"
        "import bot.app\n"
        "from bot.offload import Offload\n"
        "from rules.cards import shuffled_deck\n"
        "from rules.duel import DuelState\n"
        "from rules.duel.searches import hand_odds\n"
        "HEAVY = ('numpy', 'rules.duel.judge', 'rules.duel.odds', 'rules.duel.advice')\n"
        "def heavy(): return [m for m in HEAVY if m in sys.modules]\n"
        "async def main():\n"
        "    assert not heavy(), heavy()\n"
        "    state = DuelState.new(20, 0)\n"
        "    state.deal(shuffled_deck(random.Random(1)), bytes(16))\n"
        "    pool = Offload(1)\n"
        "    odds = await pool.run(hand_odds, state.public_view(), random.Random(2))\n"
        "    await pool.close()\n"
        "    assert [o.position for o in odds] == list(range(6)), odds\n"
        "    assert not heavy(), heavy()\n"
        "    print('ok')\n"
        "asyncio.run(main())\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, cwd=Path(__file__).resolve().parents[2])
    assert done.stdout.strip() == "ok", done.stderr
