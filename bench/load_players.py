"""The players of bench/bot_load.py: each plays its table's duel to the end, tapping as
soon as it is their turn or after a thinking time, and times each tap (from the update's
delivery to its answer and drawing)."""

from __future__ import annotations

import asyncio
import random
import time
from functools import partial
from typing import Any

from bench.load_fake import TimedFake
from bench.load_report import Figures
from tests.support.driver import Table, actor, duel_keyboard, live_duel_message, moves_on
from tests.support.fakeapi.model import FakeMessage

APOLOGY = "⚠️"  # a press's answer when its handling failed (bot.common.errors)


def _edited(m: FakeMessage, version: tuple[Any, ...]) -> bool:
    return bool(m.content_key() != version)


async def play(api: TimedFake, table: Table, rng: random.Random, figures: Figures,
                think: float, wait: float) -> int:
    taps = 0
    while True:
        if think:  # a person looks at the table before tapping
            await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
        m = live_duel_message(api, table.chat)
        if m is None:
            return taps
        buttons = duel_keyboard(m)
        if any(d.endswith((":ty", ":tn")) for d in buttons):
            decline = next(d for d in buttons if d.endswith(":tn"))
            user = table.players[0]
            data = decline
        else:
            who = actor(m)
            user = next(p for p in table.players if p.id == who)
            data = rng.choice(buttons)
        version, last = m.content_key(), api.newest(table.chat)
        new_message = moves_on(m, data)
        query = api.press_button(user, m, data)
        update_id = api.all_updates[-1]["update_id"]
        try:
            answer = await api.answer_to(table.chat, query, wait)
            figures.late += answer == "late"
            figures.unanswered += answer == "none"
            if query.text == APOLOGY:  # the move failed (a database too busy): tap again
                figures.failed += 1
                continue
            if new_message:  # a fresh live message (the turn passed), the pressed one deleted
                await api.wait_in(table.chat, partial(api.newer, table.chat, last), wait,
                                  "a new message")
            else:
                await api.wait_in(table.chat, partial(_edited, m, version), wait,
                                  "the pressed message edited")
        except TimeoutError as e:  # what this chat saw, to tell a slow bot from a stuck duel
            if m.content_key() == version and live_duel_message(api, table.chat) is m:
                figures.failed += 1  # nothing moved (its apology lost to a quiet answer)
                print(f"[{figures.label}] a press moved nothing within {wait:g} s, tapped "
                      f"again: {str(e).splitlines()[0]}", flush=True)
                continue
            raise TimeoutError(f"{str(e).splitlines()[0]} after pressing {data!r} (a new "
                               f"message expected: {new_message}; "
                               f"{api.fate(update_id, query.id)}){api.trail(table.chat)}") from e
        done = time.perf_counter()
        delivered = api.delivered_at(update_id)
        figures.latencies.append(done - (done if delivered is None else delivered))
        taps += 1
