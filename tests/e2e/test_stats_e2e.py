"""/stats, /history and /verify against duels played end to end through the real bot.

Three friends play in one group: a random duel, a surrender, a draw (level stacks, tiebreak
declined), a tiebreak (level stacks, tiebreak accepted and won) and a timeout forfeit (the bot
restarted with turn timers sped up; nobody moves). What each duel did is read from the messages
the players saw (reveals, bonuses, the result; the chat keeps each reveal, its setting, so every
bullet's hands stay in the chat); /stats must report the same figures. The level
stacks are forced by tests/support/forcing.py, which reads the deck from the bot's database to
choose the moves. The table is ranked by rating (Weng-Lin, rules.rating), replayed here from
the winners the chat announced; nobody has five duels, so every rating is marked "?".
"""

from __future__ import annotations

import random
import re
import time
from collections import Counter
from dataclasses import dataclass, field

from bot.i18n import translator
from bot.stats import seasons
from rules import rating
from rules.hands import Category
from rules.rating import Rating
from tests.support.botprocess import LaunchBot
from tests.support.driver import (
    Table,
    actor,
    live_duel_message,
    open_duel,
    play_to_the_end,
    text_of,
)
from tests.support.fakeapi import FakeTelegramAPI
from tests.support.fakeapi.model import FakeChat, FakeMessage, FakeUser
from tests.support.forcing import force

TIMEOUT = 20.0
START = 50
QUICK = {"SIXSHOOTER_RATE_LIMIT": "off"}  # the test measures the bot, not the flood limiter
FAST_TIMERS = {"SIXSHOOTER_TIME_SCALE": "0.005"}  # a 5-minute turn lasts 1.5 seconds


def lower_hand_name(category: Category) -> str:
    """A hand's name as the captions put it inside a sentence (the catalogs' `hand_lc.*`)."""
    return translator("en").text(f"hand_lc.{category.name.lower()}")


CATEGORY = {lower_hand_name(c): c for c in Category}  # as the captions name them
HAND = re.compile(r"^(\w+): hand #\d, (.+) \(\d+ chips?\)$", re.M)
BONUS = re.compile(r"Bonus for .+?: (\w+) takes (\d+) more chips?\.")
BULLET = re.compile(r"^(?:Round \d+ · bullet (\d+) of \d+|Tiebreak · bullet (\d+)|Bullet (\d+):)$",
                    re.M)
STACKS = re.compile(r"^(\w+): (\d+) · (\w+): (\d+)$", re.M)
WINNER = re.compile(r"🏆 (\w+) wins the duel")
LINE = re.compile(r"^(\d+)\. (\w+) (\d+\??) · ([+−]?\d+) · (\d+) duels? · (\d+)–(\d+)–(\d+)"
                  r" \((\d+)%\) · best: (.+?) · bonus: (\d+) · streak: (\S+)$", re.M)


@dataclass
class Played:
    """One duel as the chat saw it."""

    stacks: dict[str, int]
    winner: str | None
    best: dict[str, Category] = field(default_factory=dict)
    bonus: Counter[str] = field(default_factory=Counter)


def read_duel(api: FakeTelegramAPI, chat: FakeChat, first: FakeMessage,
              winner: str | None = None) -> Played:
    """The duel whose first bullet is `first`, from its messages as they are now."""
    messages = [m for m in api.bot_messages(chat) if m.message_id >= first.message_id]
    result = messages[-1].content_text or ""
    found = STACKS.findall(result)[-1]
    won = WINNER.search(result)
    played = Played({found[0]: int(found[1]), found[2]: int(found[3])},
                     winner or (won.group(1) if won else None))
    for text in bullets_in(messages).values():
        for name, category in HAND.findall(text):
            c = CATEGORY[category]
            played.best[name] = max(played.best.get(name, c), c)
        for name, n in BONUS.findall(text):
            played.bonus[name] += int(n)
    return played


def bullets_in(messages: list[FakeMessage]) -> dict[int, str]:
    """What each finished bullet showed, by its number: its kept reveal ("Round 1 · bullet 3
    of 6", "Tiebreak · bullet 7"), or a message that tells it after another heading (the
    result's "Bullet 6:"). A bullet told twice is counted once."""
    bullets: dict[int, str] = {}
    for m in messages:
        text = m.content_text or ""
        heads = list(BULLET.finditer(text))
        ends = [h.start() for h in heads[1:]] + [len(text)] if heads else []
        for head, end in zip(heads, ends, strict=True):
            number = int(next(g for g in head.groups() if g))
            bullets.setdefault(number, text[head.end():end])
    return bullets


def expected(duels: list[Played], name: str, against: str | None = None) -> dict[str, object]:
    """`name`'s figures over `duels` (only those against `against`, if given), as /stats
    writes them."""
    w = losses = d = net = top = streak = 0
    best: Category | None = None
    mine = [p for p in duels if name in p.stacks and (against is None or against in p.stacks)]
    for p in mine:
        net += p.stacks[name] - START
        top = max(top, p.bonus[name])
        if name in p.best:
            best = p.best[name] if best is None else max(best, p.best[name])
        if p.winner is None:
            d, streak = d + 1, 0
        elif p.winner == name:
            w, streak = w + 1, max(streak, 0) + 1
        else:
            losses, streak = losses + 1, min(streak, 0) - 1
    sign = "+" if net > 0 else "−" if net < 0 else ""
    return {"played": len(mine), "wld": (w, losses, d), "net": f"{sign}{abs(net)}",
            "rate": (200 * w + len(mine)) // (2 * len(mine)) if mine else 0,
            "best": lower_hand_name(best) if best else "—", "bonus": top,
            "streak": f"W{streak}" if streak > 0 else f"L{-streak}" if streak < 0 else "—"}


def ratings(duels: list[Played]) -> dict[str, Rating]:
    """Each player's rating after `duels`, in the order played (a surrender or a timeout is a
    win for the other player, as the chat announced it)."""
    out: dict[str, Rating] = {}
    for p in duels:
        a, b = p.stacks
        winner = None if p.winner is None else 0 if p.winner == a else 1
        out[a], out[b] = rating.after_duel(out.get(a, rating.initial()),
                                           out.get(b, rating.initial()), winner)
    return out


def rank_key(duels: list[Played], name: str) -> tuple[int, int, int, int, str]:
    """The shown rating, then net chips, then wins, then fewer losses (names stand for the
    user ids' order here)."""
    net = sum(p.stacks[name] - START for p in duels if name in p.stacks)
    wins = sum(p.winner == name for p in duels)
    losses = sum(p.winner not in (None, name) for p in duels if name in p.stacks)
    return (-rating.shown(ratings(duels)[name]), -net, -wins, losses, name)


def figures_in(line: tuple[str, ...]) -> dict[str, object]:
    return {"played": int(line[4]), "wld": (int(line[5]), int(line[6]), int(line[7])),
            "net": line[3], "rate": int(line[8]), "best": line[9], "bonus": int(line[10]),
            "streak": line[11]}


async def answer(api: FakeTelegramAPI, user: FakeUser, chat: FakeChat, command: str,
                 args: str = "", **kwargs: object) -> FakeMessage:
    """Send a command; the bot's message that replies to it."""
    sent = api.send_command(user, chat, command, args, **kwargs)  # type: ignore[arg-type]
    return await api.wait_for_message(
        chat, lambda m: m.reply_to is not None and m.reply_to.message_id == sent.message_id,
        after_message_id=sent.message_id, timeout=TIMEOUT)


async def pressed_board(api: FakeTelegramAPI, user: FakeUser, board: FakeMessage,
                        data: str) -> FakeMessage:
    """Press a board's scope button; the new board the bot sends in reply to it."""
    sent = api.bot_messages(board.chat, include_deleted=True)
    last = sent[-1].message_id if sent else board.message_id
    query = api.press_button(user, board, data)
    answered = await api.wait_for_answer(query, timeout=TIMEOUT)
    assert answered.text is None, answered.text
    return await api.wait_for_message(
        board.chat, lambda m: m.reply_to is not None and m.reply_to.message_id == board.message_id,
        after_message_id=last, timeout=TIMEOUT)


async def surrender_duel(api: FakeTelegramAPI, table: Table, who: FakeUser) -> FakeMessage:
    """`who` gives up in the first bullet; the result."""
    m = live_duel_message(api, table.chat)
    assert m is not None
    api.send_command(who, table.chat, "surrender")
    result = await api.wait_for_message(table.chat, lambda x: "wins the duel" in text_of(x),
                                        after_message_id=m.message_id, timeout=TIMEOUT)
    await api.wait_for(lambda: live_duel_message(api, table.chat) is None, TIMEOUT, "no buttons")
    await api.wait_for(lambda: m.deleted, 75.0, "the live message gone")  # may wait for room
    return result


def header_of(api: FakeTelegramAPI, chat: FakeChat, names: str) -> FakeMessage:
    """The header of the chat's newest duel between `names` ("Bob vs Carol")."""
    return next(m for m in reversed(api.bot_messages(chat))
                if text_of(m).startswith(f"⚔️ Duel: {names},"))


async def keep_each_reveal(api: FakeTelegramAPI, admin: FakeUser, chat: FakeChat) -> None:
    sent = api.send_command(admin, chat, "settings")
    shown = await api.wait_for_message(chat, lambda m: any(
        b["text"] == "Keep each" for b in m.buttons()), after_message_id=sent.message_id,
        timeout=TIMEOUT)
    keep = next(b["callback_data"] for b in shown.buttons() if b["text"] == "Keep each")
    answered = await api.wait_for_answer(api.press_button(admin, shown, keep), timeout=TIMEOUT)
    assert answered.text == "Saved."


async def test_stats_history_and_verify_after_real_duels(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    api = fake_api
    bot = await launch_bot(env=QUICK)
    alice = api.add_user("Alice", username="alice")
    bob = api.add_user("Bob", username="bob")
    carol = api.add_user("Carol", username="carol", language_code="ru")
    chat = api.create_group("Saloon", members=[alice, bob, carol])
    await keep_each_reveal(api, alice, chat)  # Alice made the group
    duels: list[Played] = []

    # 1. a random duel
    table = Table(api, chat, (alice, bob))
    first = await open_duel(api, table)
    await play_to_the_end(api, table, random.Random(7))
    duels.append(read_duel(api, chat, first))
    # 2. Carol surrenders in the first bullet (the round's deck is still checkable)
    table = Table(api, chat, (bob, carol))
    surrendered = await open_duel(api, table)
    await surrender_duel(api, table, carol)
    duels.append(read_duel(api, chat, surrendered, winner="Bob"))
    surrendered_header = header_of(api, chat, "Bob vs Carol")
    # 3. level after six bullets, tiebreak declined: a draw
    table = Table(api, chat, (alice, carol))
    first = await open_duel(api, table)
    await force(api, table, await bot.storage(), tiebreak=False)
    duels.append(read_duel(api, chat, first))
    assert duels[-1].winner is None and set(duels[-1].stacks.values()) == {START}
    # 4. level again, tiebreak accepted and won (duels speak the challenger's language)
    table = Table(api, chat, (bob, alice))
    first = await open_duel(api, table)
    await force(api, table, await bot.storage(), tiebreak=True)
    duels.append(read_duel(api, chat, first))
    said = [m.content_text or "" for m in api.bot_messages(chat)
            if m.message_id >= first.message_id]
    assert duels[-1].winner is not None and "🔫 Decided by a tiebreak bullet." in said[-1]
    assert any(text.startswith("Tiebreak · bullet 7") for text in said)  # its kept reveal
    # 5. nobody moves: with turn timers sped up, the first to act times out twice in a row
    await bot.stop()
    await launch_bot(env=QUICK | FAST_TIMERS, db_path=bot.db_path)
    table = Table(api, chat, (alice, carol))
    first = await open_duel(api, table)
    late = next(p.first_name for p in table.players if p.id == actor(first))
    result = await api.wait_for_message(chat, lambda m: "wins the duel" in (m.caption or ""),
                                        after_message_id=first.message_id, timeout=TIMEOUT)
    assert f"{late} ran out of time" in (result.caption or "")
    duels.append(read_duel(api, chat, first))
    assert duels[-1].winner is not None and duels[-1].winner != late

    # the leaderboard: a picture, its figures in the caption
    board = await answer(api, alice, chat, "stats")
    assert board.photo is not None and board.photo.width == 1000
    lines = LINE.findall(board.content_text or "")
    assert [line[1] for line in lines] == sorted(("Alice", "Bob", "Carol"),
                                                 key=lambda name: rank_key(duels, name))
    rated = ratings(duels)
    for line in lines:
        assert figures_in(line) == expected(duels, line[1]), line
        assert line[2] == rating.label(rated[line[1]]) and line[2].endswith("?"), line
    assert "5 duels" in (board.content_text or "")
    # ... by season: the board is this month's (UTC), where all five duels were played;
    # its buttons show all time (the same order: no duel before this season) and the
    # last season (none played in it)
    season = seasons.season_of(int(time.time()), "month")
    named = seasons.label(season, "en")
    assert f"📅 Season: {named} (UTC)." in (board.content_text or "")
    scopes = {b["text"]: b["callback_data"] for b in board.buttons()}
    assert sorted(scopes) == ["All time", "Last season"]
    all_time = await pressed_board(api, alice, board, scopes["All time"])
    assert [line[:3] for line in LINE.findall(all_time.content_text or "")] == [
        line[:3] for line in lines]
    assert "📅 All time" in (all_time.content_text or "")
    last = await pressed_board(api, bob, board, scopes["Last season"])
    previous = seasons.label(seasons.previous(season), "en")
    assert f"No duels were finished in {previous} (UTC)." in (last.content_text or "")

    # a player's card by @username, with the head to head against the asker
    card = await answer(api, alice, chat, "stats", "@bob")
    text = card.content_text or ""
    bob_figures = expected(duels, "Bob")
    assert card.photo is not None and text.startswith("📇 Bob in this chat")
    assert f"Net chips: {bob_figures['net']}" in text
    assert f"Best hand: {bob_figures['best']}" in text
    versus = expected(duels, "Alice", against="Bob")
    wins, losses, draws = versus["wld"]
    assert f"⚔️ You vs Bob: {versus['played']} duel" in text  # the asker's (Alice's) side
    assert f"you won {wins}, lost {losses}, drew {draws}, net {versus['net']}" in text
    assert f" of 3 by rating ({rating.label(rated['Bob'])})" in text
    assert "Ranked by rating, then by net chips." in (board.content_text or "")
    assert "“?” marks one still settling, under 5 duels" in (board.content_text or "")
    # ... and by replying to their message
    hello = api.send_message(carol, chat, "gg")
    card = await answer(api, alice, chat, "stats", reply_to=hello)
    carol_figures = expected(duels, "Carol")
    assert (card.content_text or "").startswith("📇 Carol in this chat")
    assert f"Streak: {carol_figures['streak']}" in (card.content_text or "")
    nobody = await answer(api, alice, chat, "stats", "@nobody_here")
    assert (nobody.content_text or "").startswith("I do not know @nobody_here yet")
    # in private: the same figures, from every chat
    private = api.private_chat(alice)
    mine = await answer(api, alice, private, "stats")
    alice_figures = expected(duels, "Alice")
    assert "Alice in all chats" in (mine.content_text or "")
    assert f"Net chips: {alice_figures['net']}" in (mine.content_text or "")

    # /history: newest first, how each duel ended
    history = (await answer(api, bob, chat, "history")).content_text or ""
    rows = history.splitlines()[1:]
    assert len(rows) == 5
    assert f"{late} ran out of time" in rows[0]
    assert "won the tiebreak" in rows[1] and "a draw" in rows[2]
    assert "Bob won, Carol surrendered" in rows[3]
    ru = (await answer(api, carol, chat, "history")).content_text or ""
    assert "ничья" in ru and "Carol сдаётся" in ru

    # /verify: the last bullet of a round shows its salt and deck order; in reply to it,
    # every finished deal of its duel checks out
    proof = next(m for m in api.bot_messages(chat) if "deck: salt" in (m.content_text or ""))
    ok = (await answer(api, bob, chat, "verify", reply_to=proof)).content_text or ""
    assert ok.startswith("🔎 Duel #1:") and "✅ Round 1:" in ok and "✅ Round 2:" in ok, ok
    assert "❌" not in ok
    salt, deck = re.findall(r"salt (\w+), order (\w+)", proof.content_text or "")[0]
    commitment = re.findall(r"[0-9a-f]{64}", ok)[0]
    # the duel's result copies the same proof for its round 1
    result = next(m for m in api.bot_messages(chat) if m.message_id > proof.message_id
                  and "📋 Round 1" in m.button_texts())
    copies = {b["text"]: b["copy_text"]["text"] for b in result.buttons() if "copy_text" in b}
    assert copies["📋 Round 1"] == f"/verify {commitment} {salt} {deck}"
    swapped = deck[2:4] + deck[:2] + deck[4:]
    bad = await answer(api, bob, chat, "verify", f"{commitment} {salt} {swapped}")
    assert (bad.content_text or "").startswith("❌ No match")
    good = await answer(api, bob, chat, "verify", f"{commitment} {salt} {deck}")
    assert (good.content_text or "").startswith("✅ Match")
    # a round cut short by the surrender is finished too: its deck checks out
    cut = (await answer(api, alice, chat, "verify", reply_to=surrendered_header)).content_text
    assert (cut or "").startswith("🔎 Duel #2:") and "✅ Round 1:" in (cut or ""), cut
    assert "Round 2" not in (cut or "")
    assert not api.failed_calls()
