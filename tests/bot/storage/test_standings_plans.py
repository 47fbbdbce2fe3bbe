"""The kept standings are read through their indexes on both engines: a board's top is the
first rows of an index in its order (no sort of the window's rows), a chart the last points of
a player's, so a read costs what it shows, however long the chat's past."""

from __future__ import annotations

from bot.storage import Storage
from bot.storage import standings as kept

BOARD = ("SELECT * FROM standings WHERE chat_id = ? AND season = ? ORDER BY {} LIMIT ?",
         (-1, "all", 10))
CHART = ("SELECT mu, sigma, duels FROM rating_points WHERE chat_id = ? AND user_id = ?"
         " ORDER BY finished_at DESC, duel_id DESC LIMIT ?", (-1, 1, kept.CHART_POINTS))


async def plan(store: Storage, sql: str, params: tuple[object, ...]) -> str:
    """The engine's plan for `sql`, as text (PostgreSQL's with sequential scans off: on the
    test's near-empty tables they would win, and the question is what the index can do)."""
    if store.engine == "sqlite":
        rows = await store.db.fetchall(f"EXPLAIN QUERY PLAN {sql}", params)
        return "\n".join(str(r["detail"]) for r in rows)
    async with store.db.transaction():
        await store.db.execute("SET LOCAL enable_seqscan = off")
        rows = await store.db.fetchall(f"EXPLAIN {sql}", params)
        return "\n".join(str(r[0]) for r in rows)


async def test_a_board_is_the_head_of_its_index_in_either_order(store: Storage) -> None:
    for fresh, index in ((False, "standings_board"), (True, "standings_board_fresh")):
        sql, params = BOARD
        text = await plan(store, sql.format(kept._order(fresh)[0]), params)
        assert index in text, text
        assert "TEMP B-TREE" not in text and "Sort" not in text, text


async def test_a_chart_is_the_tail_of_a_players_points(store: Storage) -> None:
    text = await plan(store, *CHART)
    assert "rating_points" in text and ("INDEX" in text or "Index" in text), text
    assert "TEMP B-TREE" not in text and "Sort" not in text, text
