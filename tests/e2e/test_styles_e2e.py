"""The buttons' colours through the real bot process and the fake Bot API (which refuses a style
the Bot API does not name): a challenge, a whole duel and its result, a six-card hand, a
tournament's sign-up and the settings, every version of every message coloured as
`bot.telegram.styles` says, and Telegram refused nothing."""

from __future__ import annotations

import random

from tests.support.botprocess import LaunchBot
from tests.support.driver import command, new_table, open_duel, play_to_the_end, refused_calls
from tests.support.fakeapi import FakeTelegramAPI
from tests.support.sixcard import Player, game_buttons
from tests.support.styles import every_button, miscoloured


def styles_of(buttons: list[dict[str, object]], prefix: str) -> dict[str, object]:
    """Each button's style by its callback data's last field, for data starting `prefix`."""
    return {str(b["callback_data"]).rsplit(":", 1)[1]: b.get("style") for b in buttons
            if str(b.get("callback_data", "")).startswith(prefix)}


async def test_every_message_is_coloured_by_the_table(fake_api: FakeTelegramAPI,
                                                      launch_bot: LaunchBot) -> None:
    await launch_bot(env={"SIXSHOOTER_RATE_LIMIT": "off"})
    table, _ = new_table(fake_api)
    alice, _bob = table.players
    first = await open_duel(fake_api, table)  # a challenge to Bob, accepted
    assert first.photo is not None
    result = await play_to_the_end(fake_api, table, random.Random(11))
    hand = await command(fake_api, alice, table.chat, "sixcard", "1 10")
    assert set(game_buttons(hand)) >= {"p", "f"}
    await Player(fake_api, alice, table.chat).tap(hand, game_buttons(hand)["f"])
    signup = await command(fake_api, alice, table.chat, "tournament")
    settings = await command(fake_api, alice, table.chat, "settings")

    buttons = every_button(fake_api.bot_messages(table.chat, include_deleted=True))
    assert miscoloured(buttons) == []
    assert not refused_calls(fake_api)
    # The colours are there, each where the table puts it.
    assert styles_of(buttons, "c:") == {"a": "success", "d": "danger", "w": "danger"}
    assert styles_of(every_button([result]), "r:") == {"m": "success", "s": None, "v": None}
    assert {s for code, s in styles_of(buttons, "d:").items() if code.startswith("b")} == {None}
    six = styles_of(every_button([hand]), "x:")  # as first sent: buy, play, fold
    assert (six.get("b"), six["p"], six["f"]) == (None, "primary", "danger")
    assert styles_of(every_button([signup]), "t:") == {
        "j": "success", "l": "danger", "s": "primary", "x": "danger"}
    assert settings.buttons() and not any(b.get("style") for b in settings.buttons())
