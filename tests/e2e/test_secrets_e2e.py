"""Secrets stay out of the logs at every level, and out of the metrics: a whole duel at DEBUG.

At DEBUG python-telegram-bot logs every Bot API call with its parameters and aiosqlite every
SQL statement with its parameters, so a careless set-up prints the token (in each request
URL) and every saved game (undealt deck and salt). The token must appear in no line at all;
a deal's deck order and salt may appear only once they are published, that is only in the
Bot API call that publishes them (the round's proof) and in Telegram's echoes after it.
"""

from __future__ import annotations

import random
from urllib.parse import quote

from tests.support import stored
from tests.support.botprocess import LaunchBot
from tests.support.driver import finish, new_table, open_duel
from tests.support.fakeapi import FakeTelegramAPI
from tests.support.ops import free_port, metrics_text, ops_env, words

PUBLISHING = "Calling Bot API endpoint"  # python-telegram-bot's DEBUG line for a call


async def test_debug_logs_of_a_whole_duel_hold_no_token_and_no_secret_before_its_reveal(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    port = free_port()
    bot = await launch_bot(env=ops_env(port, SIXSHOOTER_LOG_LEVEL="DEBUG"))
    table, _ = new_table(fake_api)
    await open_duel(fake_api, table)
    await finish(fake_api, table, random.Random(11))
    scraped = await metrics_text(port)  # what an operator's Prometheus keeps
    await bot.stop()
    lines = bot.log().splitlines()
    assert sum(" DEBUG " in line for line in lines) > 100  # DEBUG really was on
    token = fake_api.token
    for secret in (token, quote(token, safe=""), token.split(":")[1]):
        assert not [line for line in lines if secret in line], "the token is in the log"
        assert secret not in scraped, "the token is in the metrics"
    assert "sixshooter_taps_total" in scraped
    labels = words(scraped)
    for person in (table.chat.id, *(p.id for p in table.players)):
        assert not [w for w in labels if str(abs(person)) in w], "an id is in the metrics"
    storage = await bot.storage()
    deals = [d for duel in await stored.duels(storage, table.chat.id) for d in stored.deals(duel)]
    assert len(deals) >= 2
    for deck, salt in deals:
        showing = [i for i, line in enumerate(lines) if deck in line or salt in line]
        assert showing, "each round's proof is published (and logged at DEBUG as it goes out)"
        first = lines[showing[0]]
        assert PUBLISHING in first and deck in first and salt in first, first[:300]
        assert deck not in scraped and salt not in scraped, "a card or salt in the metrics"
        for i in showing:  # never in a SQL parameter or a line of the bot's own
            assert " aiosqlite" not in lines[i] and " bot." not in lines[i], lines[i][:300]
