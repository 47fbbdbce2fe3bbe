"""A practice duel's hint count (migration V13): added one at a time, read back by every
query of the duel, kept across a reopen of the database, zero for a new duel."""

from __future__ import annotations

from pathlib import Path

from bot.storage import Storage


async def test_hints_are_counted_and_survive_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "h.db"
    store = await Storage.open(path)
    try:
        duel = await store.duels.create(-5, None, (1, 2), "{}", 100, ai_level="hard")
        other = await store.duels.create(-5, None, (3, 2), "{}", 100, ai_level="easy")
        assert duel.hints == 0
        assert [await store.duels.add_hint(duel.id) for _ in range(3)] == [1, 2, 3]
        assert await store.duels.add_hint(other.id) == 1
        assert await store.duels.add_hint(10**6) == 0  # no such duel
    finally:
        await store.close()
    again = await Storage.open(path)
    try:
        found = await again.duels.get(duel.id)
        assert found is not None and found.hints == 3
        live = await again.duels.live_for_user_in_chat(-5, 1)
        assert live is not None and live.hints == 3
        assert [r.hints for r in await again.duels.live_in_chat(-5)] == [3, 1]
    finally:
        await again.close()
