"""Six-card poker through the real bot process and the fake Bot API: a player plays several
hands with one to three boxes (buys, a replace, folds, the dealer's game when it is offered),
and the balance in SQLite is the start plus the sum of the settlements the messages showed.
A stranger's tap and a stale button change nothing."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import GameStatus
from bot.telegram.chatter import REPEAT_WITHIN
from tests.support import stored
from tests.support.botprocess import LaunchBot
from tests.support.driver import Held, command, eventually, press, reply_to, text_of
from tests.support.fakeapi import FakeTelegramAPI
from tests.support.sixcard import BOX_NET, NET, Hand, Player, chips, game_buttons

# The state that matters survives on both engines: SQLite and PostgreSQL (tests/e2e/conftest.py).
pytestmark = pytest.mark.usefixtures("on_both_engines")

MAX_HANDS = 14
PLANS = [
    Hand("", [("b", "r", "p")], True),
    Hand("2 10 25", [("f",), ("b", "p")], False),
    Hand("3 5", [("p",), ("b", "f")], True),
    Hand("2 20", [("p",), ("p",)], True),
    Hand("1 50", [("b", "p")], False),
    Hand("3 10 10 10", [("b", "r", "p"), ("p",)], True),
]


async def test_several_hands_settle_to_the_stored_balance(fake_api: FakeTelegramAPI,
                                                          launch_bot: LaunchBot) -> None:
    # Without the flood limiter: it would pace the group's edits to 20 a minute (Telegram's
    # per-group limit), which is the limiter's business, not this game's.
    bot = await launch_bot(env={"SIXSHOOTER_RATE_LIMIT": "off"})
    alice = fake_api.add_user("Alice", username="alice", language_code="en")
    bob = fake_api.add_user("Bob", username="bob", language_code="en")
    group = fake_api.create_group(members=[alice, bob])
    me = Player(fake_api, alice, group)

    shown = await reply_to(fake_api, alice, group, "balance")
    assert "1000 chips" in text_of(shown)
    rules = await reply_to(fake_api, alice, group, "rules", "sixcard")
    assert "150 in all" in text_of(rules) and "2010" in text_of(rules)
    for args, expected in (("4", "Play 1 to 3 boxes, not 4."),
                           ("2 10 20 30", "Give one ante for all 2 boxes"),
                           ("1 0", "An ante is 1 to 100 chips, not 0."),
                           ("x", "is not a whole number")):
        refused = await reply_to(fake_api, alice, group, "sixcard", args)
        assert expected in text_of(refused) and refused.photo is None

    # The first hand, with a stranger's tap, a stale button and a second /sixcard in between.
    first = PLANS[0]
    m = await command(fake_api, alice, group, "sixcard", first.args)
    assert m.photo is not None and "Alice" in text_of(m)
    buttons = game_buttons(m)
    assert set(buttons) == {"b", "p", "f"}
    assert m.button_texts() == ["Buy 6th card (−10)", "Play (−20)", "Fold"]
    before = m.content_key()
    toast = await press(fake_api, bob, m, buttons["p"])
    assert toast is not None and "another player's game" in toast
    busy = await command(fake_api, alice, group, "sixcard")
    assert "finish it first" in text_of(busy)
    assert busy.reply_to is not None and busy.reply_to.message_id == m.message_id  # points to it
    assert m.content_key() == before
    await me.tap(m, buttons["b"])
    first.moves.append("b")
    toast = await press(fake_api, alice, m, buttons["p"], force=True)  # drawn for version 0
    assert toast is not None and "out of date" in toast
    replaces = [k for k in game_buttons(m) if k.startswith("r")]
    assert len(replaces) == 6 and "b" not in game_buttons(m)
    await me.tap(m, game_buttons(m)["r0"])
    first.moves.append("r0")
    while buttons := game_buttons(m):
        code = "g" if "g" in buttons else "p"
        first.offered += code == "g"
        first.moves.append(code)
        last, final = buttons[code], buttons
        await me.tap(m, last)
    found = NET.search(text_of(m))
    assert found, text_of(m)
    first.net, first.balance = chips(found[1]), int(found[2])
    first.box_nets = [chips(n) for _, n, _ in BOX_NET.findall(text_of(m))]
    # the last move pressed again (a double tap) is answered quietly; another button of
    # that moment says the game is over
    assert await press(fake_api, alice, m, last, force=True) is None
    other = next(data for data in final.values() if data != last)
    toast = await press(fake_api, alice, m, other, force=True)
    assert toast is not None and "over" in toast

    hands = [first]
    for n in range(1, MAX_HANDS):
        if n < len(PLANS):
            hand = PLANS[n]
        elif any(h.offered for h in hands):
            break
        else:  # until the dealer's game has been offered at least once
            hand = Hand("2 5", [("p",), ("p",)], True)
        await me.play(hand)
        hands.append(hand)

    # Every message showed its boxes' payouts, adding up to its result, and a running balance.
    balance = 1000
    for hand in hands:
        assert sum(hand.box_nets) == hand.net, hand
        balance += hand.net
        assert hand.balance == balance, hand
    assert any(h.offered for h in hands), "the dealer never lacked a game"
    moves = [c for h in hands for c in h.moves]
    assert "b" in moves and "r0" in moves and "f" in moves and "p" in moves
    assert not any(game_buttons(m) for m in fake_api.bot_messages(group))

    await asyncio.sleep(REPEAT_WITHIN)  # asked again sooner, /balance is a repeat: no reply
    shown = await reply_to(fake_api, alice, group, "balance")
    assert f"{balance} chips" in text_of(shown), text_of(shown)
    refused = await reply_to(fake_api, alice, group, "rebuy")
    assert "A rebuy is for a balance of zero" in text_of(refused)

    # A game in the private chat has a balance of its own.
    private = fake_api.private_chat(alice)
    solo = await Player(fake_api, alice, private).play(Hand("1 7", [("f",)], False))
    assert "Result: −7 · balance 993" in text_of(solo)

    assert fake_api.failed_calls() == []
    await bot.stop()
    storage = await bot.storage()
    row = await stored.balance(storage, group.id, alice.id)
    assert (row.balance, row.games, row.net) == (balance, len(hands), balance - 1000)
    assert (await stored.balance(storage, private.id, alice.id)).balance == 993
    games = await stored.games(storage, group.id, alice.id)
    assert [g.net for g in games] == [h.net for h in hands]
    assert all(g.status is GameStatus.FINISHED and g.shown_version == g.version for g in games)
    log = bot.log()
    for g in games + await stored.games(storage, private.id, alice.id):
        assert stored.game_deck(g) not in log  # the deck order never reaches a log line
    print("\nsix-card e2e:", len(hands), "hands in the group;",
          "; ".join(f"/sixcard {h.args or '(defaults)'}: {' '.join(h.moves)} -> "
                    f"boxes {h.box_nets}, net {h.net:+d}, balance {h.balance}" for h in hands))


async def test_a_game_saved_but_not_shown_is_brought_up_to_date_after_a_crash(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot(env={"SIXSHOOTER_RATE_LIMIT": "off"})
    storage = await bot.storage()
    alice = fake_api.add_user("Alice", language_code="en")
    chat = fake_api.private_chat(alice)
    m = await command(fake_api, alice, chat, "sixcard", "2 10")
    assert set(game_buttons(m)) == {"b", "p", "f"}
    # kill -9 once the tap is saved, before it is answered or shown.
    with Held(fake_api, "answerCallbackQuery") as held:
        fake_api.press_button(alice, m, game_buttons(m)["f"])
        await held.wait_arrived()
        await bot.kill()
    [game] = await stored.games(storage, chat.id, alice.id)
    assert (game.version, game.shown_version) == (1, 0)
    assert (await stored.balance(storage, chat.id, alice.id)).balance == 980  # both antes out
    await bot.start()
    # At start the message is brought to the saved version: box 1 folded, box 2 to decide.
    await eventually(lambda: game_buttons(m) and all(d.split(":")[2] == "1"
                                                    for d in game_buttons(m).values()),
                     "the redraw after the restart")
    assert "Box 1: folded, 10 lost" in text_of(m)
    player = Player(fake_api, alice, chat)
    hand = Hand("", [("f",)], False)
    while buttons := game_buttons(m):
        code = "n" if "n" in buttons else "f"
        hand.moves.append(code)
        await player.tap(m, buttons[code])
    assert "Result: −20 · balance 980" in text_of(m)
    await bot.stop()
    [game] = await stored.games(storage, chat.id, alice.id)
    assert (game.version, game.shown_version, game.status, game.net) == (
        2, 2, GameStatus.FINISHED, -20)
    assert (await stored.balance(storage, chat.id, alice.id)).balance == 980
