"""Playing the bot as people do, through the fake Bot API: challenge, accept, tap, read."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from .fakeapi import ApiError, FakeTelegramAPI
from .fakeapi.model import FakeChat, FakeMessage, FakeUser
from .ops import until

TIMEOUT = 20.0
SOON = 1.0  # seconds within which a quiet chat's old message is deleted
T = TypeVar("T")


@dataclass
class Table:
    api: FakeTelegramAPI
    chat: FakeChat
    players: tuple[FakeUser, FakeUser]
    thread: int | None = None


def duel_keyboard(m: FakeMessage) -> list[str]:
    return [d for d in m.callback_data() if d.startswith("d:")]


def _duels_of(m: FakeMessage) -> set[str]:
    """The duel ids a message's buttons name (its moves, or its result's buttons)."""
    return {d.split(":")[1] for d in m.callback_data() if d.startswith(("d:", "r:"))}


def live_duel_message(api: FakeTelegramAPI, chat: FakeChat) -> FakeMessage | None:
    """The newest bot message carrying duel buttons that is its duel's newest message: an
    older one still waiting to be deleted (the chat's flood budget had no room yet) is not
    the duel's live message."""
    newer: set[str] = set()
    for m in reversed(api.bot_messages(chat)):
        if duel_keyboard(m) and not _duels_of(m) & newer:
            return m
        newer |= _duels_of(m)
    return None


def mentioned_ids(m: FakeMessage) -> list[int]:
    entities = m.caption_entities if m.caption is not None else m.entities
    return [e["user"]["id"] for e in entities if e.get("type") == "text_mention"]


def actor(m: FakeMessage) -> int:
    """Whose move a live bullet message asks for: the last mention in its caption (the turn
    line comes after the stacks and the bets)."""
    ids = mentioned_ids(m)
    assert ids, f"no mention in {m.caption!r}"
    return ids[-1]


async def open_duel(api: FakeTelegramAPI, table: Table, args: str = "") -> FakeMessage:
    """Player 0 answers player 1's message with /duel; player 1 accepts. Returns the first
    bullet's message."""
    a, b = table.players
    hello = api.send_message(b, table.chat, "hi there", message_thread_id=table.thread)
    before = api.bot_messages(table.chat)
    last = before[-1].message_id if before else 0
    api.send_command(a, table.chat, "duel", args, reply_to=hello,
                     message_thread_id=table.thread)
    challenge = await api.wait_for_message(table.chat, lambda m: any(
        d.startswith("c:") for d in m.callback_data()), after_message_id=last, timeout=TIMEOUT)
    accept = next(d for d in challenge.callback_data() if d.endswith(":a"))
    query = api.press_button(b, challenge, accept)
    await api.wait_for_answer(query, timeout=TIMEOUT)
    return await api.wait_for_message(table.chat, lambda m: bool(duel_keyboard(m)),
                                      after_message_id=challenge.message_id, timeout=TIMEOUT)


def newest_id(api: FakeTelegramAPI, chat: FakeChat) -> int:
    """The id of the bot's newest message in the chat, deleted ones included."""
    sent = api.bot_messages(chat, include_deleted=True)
    return sent[-1].message_id if sent else 0


async def tap(api: FakeTelegramAPI, user: FakeUser, m: FakeMessage, data: str,
              *, force: bool = False) -> str | None:
    """Press a button and wait for the bot's answer; returns the toast text (None if silent).
    When a duel press is accepted, also waits for the duel to move on: a fresh live message
    (the turn passed; the pressed one is deleted when the chat's flood budget has room, at
    once in a quiet chat: see `gone`), or the pressed message edited in place (a tiebreak
    answer, the other player still to decide)."""
    version = m.content_key()
    last = newest_id(api, m.chat)
    # Judged from the message as pressed: the bot answers and redraws at once, so by the
    # time the answer is seen the message may already show the press.
    moving_on = moves_on(m, data)
    query = api.press_button(user, m, data, force=force)
    answered = await api.wait_for_answer(query, timeout=TIMEOUT)
    if answered.text:
        return answered.text
    if data.startswith("d:") and moving_on:
        await api.wait_for_message(m.chat, after_message_id=last, timeout=TIMEOUT)
        with contextlib.suppress(TimeoutError):  # at once in a quiet chat; later in a busy one
            await api.wait_for(lambda: m.deleted or not duel_keyboard(m), SOON, "the delete")
    elif data.startswith("d:"):
        await api.wait_for(lambda: m.content_key() != version, TIMEOUT, "an edit")
    return None


REFUSED = "storage error while handling an update"  # the bot's log line for a failed update
APOLOGY = "⚠️"  # the toast of a press the database could not take


async def tap_refusable(api: FakeTelegramAPI, user: FakeUser, m: FakeMessage, data: str,
                        log: Callable[[], str]) -> str | None:
    """`tap`, for a press the database may fail to take: the apology, or None when the press
    was taken (a fresh message shows it). A press whose wait for the database outlasts the
    bot's ACK_WITHIN (a pooler holding the statement while it retries the server, a loaded
    machine) is acknowledged quietly first and its toast is lost: then the outcome is the
    message that shows it, or the failure in the bot's `log` (read anew each time)."""
    refused, last = log().count(REFUSED), newest_id(api, m.chat)
    query = api.press_button(user, m, data)
    answer = (await api.wait_for_answer(query, timeout=TIMEOUT)).text
    if answer is not None:
        return answer

    async def outcome() -> str | None:  # polled: a line in the log wakes nobody
        if newest_id(api, m.chat) > last:
            return ""
        return APOLOGY if log().count(REFUSED) > refused else None

    return await until(outcome, "the quietly acknowledged press taken or refused",
                       TIMEOUT) or None


async def gone(api: FakeTelegramAPI, *messages: FakeMessage, timeout: float = 75.0) -> None:
    """Wait until the bot has deleted these messages (or, a kept reveal, taken their
    buttons): a delete waits for room in the chat's flood budget, a minute at most."""
    await api.wait_for(lambda: all(m.deleted or not duel_keyboard(m) for m in messages),
                       timeout, "the old messages to go")


def moves_on(m: FakeMessage, data: str) -> bool:
    """Does this (accepted) press pass the turn, so a fresh message follows? Every bet does
    (to the dealer, or to the next bullet); a tiebreak "yes" only from the last player to
    answer (the offer mentions only those still to answer)."""
    if data.endswith(":ty"):
        return len(mentioned_ids(m)) <= 1
    return True


async def play_bullet_move(api: FakeTelegramAPI, table: Table, rng: random.Random) -> bool:
    """Make one move in the live bullet as the player to act; False when no duel is live."""
    m = live_duel_message(api, table.chat)
    if m is None:
        return False
    who = actor(m)
    user = next(p for p in table.players if p.id == who)
    data = rng.choice(duel_keyboard(m))
    toast = await tap(api, user, m, data)
    assert toast is None, f"a legal tap was refused: {toast}"
    return True


async def play_to_the_end(api: FakeTelegramAPI, table: Table, rng: random.Random,
                          *, accept_tiebreak: bool = False, limit: int = 60) -> FakeMessage:
    """Play random legal moves until the duel ends; returns the result message."""
    for _ in range(limit):
        m = live_duel_message(api, table.chat)
        if m is None:
            break
        if any(d.endswith((":ty", ":tn")) for d in duel_keyboard(m)):
            waiting = set(mentioned_ids(m))  # the offer mentions who is still to answer
            for p in table.players:
                if p.id not in waiting:
                    continue
                choice = next(d for d in duel_keyboard(m)
                              if d.endswith(":ty" if accept_tiebreak else ":tn"))
                await tap(api, p, m, choice)
                if not accept_tiebreak:
                    break
            continue
        await play_bullet_move(api, table, rng)
    last = api.bot_messages(table.chat)[-1]
    assert not duel_keyboard(last), "the duel did not end"
    return last


# --- more of the table: commands, challenges, held calls, request costs ----------------------

NOISE = frozenset({"getUpdates"})  # requests that are not the bot talking to people


def text_of(m: FakeMessage) -> str:
    """A message's plain text or caption (what people read, after Telegram parsed the HTML)."""
    return m.content_text or ""


def challenge_keyboard(m: FakeMessage) -> list[str]:
    return [d for d in m.callback_data() if d.startswith("c:")]


def button(m: FakeMessage, op: str) -> str:
    """A challenge button's data by its operation: a(ccept), d(ecline), w(ithdraw)."""
    return next(d for d in challenge_keyboard(m) if d.endswith(":" + op))


async def command(api: FakeTelegramAPI, user: FakeUser, chat: FakeChat, name: str,
                  args: str = "", **kwargs: Any) -> FakeMessage:
    """Send ``/name args`` (kwargs as for ``send_command``) and return the bot's first new
    message after it (a reply, a challenge...), passing over live duel messages that another
    duel may send meanwhile."""
    sent = api.send_command(user, chat, name, args, **kwargs)
    return await api.wait_for_message(chat, lambda m: not duel_keyboard(m),
                                      after_message_id=sent.message_id, timeout=TIMEOUT)


async def reply_to(api: FakeTelegramAPI, user: FakeUser, chat: FakeChat, name: str,
                   args: str = "", **kwargs: Any) -> FakeMessage:
    """Send a command and return the bot's reply to exactly that message."""
    sent = api.send_command(user, chat, name, args, **kwargs)
    return await api.wait_for_message(
        chat, lambda m: m.reply_to is not None and m.reply_to.message_id == sent.message_id,
        after_message_id=sent.message_id, timeout=TIMEOUT)


async def press(api: FakeTelegramAPI, user: FakeUser, m: FakeMessage, data: str,
                *, force: bool = False) -> str | None:
    """Press and wait for the answer only; returns the toast (None: a silent answer)."""
    query = api.press_button(user, m, data, force=force)
    answered = await api.wait_for_answer(query, timeout=TIMEOUT)
    return answered.text


async def accept(api: FakeTelegramAPI, user: FakeUser, challenge: FakeMessage) -> FakeMessage:
    """Accept a challenge; returns the duel's first bullet message."""
    toast = await press(api, user, challenge, button(challenge, "a"))
    assert toast is None, f"accepting was refused: {toast}"
    return await api.wait_for_message(challenge.chat, lambda m: bool(duel_keyboard(m)),
                                      after_message_id=challenge.message_id, timeout=TIMEOUT)


def player(table: Table, user_id: int) -> FakeUser:
    return next(p for p in table.players if p.id == user_id)


def other(table: Table, user_id: int) -> FakeUser:
    return next(p for p in table.players if p.id != user_id)


def version_of(m: FakeMessage) -> int:
    """The duel version a live message's buttons carry (d:<duel>:<version>:<action>)."""
    versions = {int(d.split(":")[2]) for d in duel_keyboard(m)}
    assert len(versions) == 1, f"buttons of several versions: {m.callback_data()}"
    return versions.pop()


def former_button(m: FakeMessage, end: str, *, start: str = "") -> str:
    """The callback data of a button the message had before an edit took it away (the
    newest such version first), to press it again as a slow client would."""
    for old in reversed(m.history):
        for row in old.get("reply_markup", {}).get("inline_keyboard", []):
            for b in row:
                data = str(b.get("callback_data", ""))
                if data.startswith(start) and data.endswith(end):
                    return data
    raise AssertionError(f"no former button {start}...{end} on message {m.message_id}")


def duel_id_of(m: FakeMessage) -> int:
    return int(duel_keyboard(m)[0].split(":")[1])


def costs(api: FakeTelegramAPI, since: int, until: int | None = None) -> Counter[str]:
    """The bot's calls (getUpdates aside) with since < seq <= until."""
    return Counter(r.method for r in api.requests
                   if r.seq > since and (until is None or r.seq <= until)
                   and r.method not in NOISE)


def _display(card: str) -> str:
    symbols = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
    return ("10" if card[0] == "T" else card[0]) + symbols[card[1]]


def face_up_cards(deck: str) -> set[str]:
    """The top card of each of the six hands, in display form: these are public."""
    return {_display(deck[i:i + 2]) for i in range(0, 60, 10)}


def every_version(api: FakeTelegramAPI, chat: FakeChat) -> list[str]:
    """The text or caption, and the button labels, of every version of every bot message."""
    out = []
    for m in api.bot_messages(chat, include_deleted=True):
        out.append(text_of(m) + "\n" + "\n".join(m.button_texts()))
        for old in m.history:
            labels = [b["text"] for row in old.get("reply_markup", {}).get("inline_keyboard", [])
                      for b in row]
            out.append(str(old.get("caption") or old.get("text") or "") + "\n" + "\n".join(labels))
    return out


Handler = Callable[[Any, Any], Awaitable[Any]]


class Refused:
    """Telegram refuses the next `count` calls of `method` with 400 `detail` (a send the bot
    cannot make); the calls after those go through. Use as ``with Refused(api, ...):``."""

    def __init__(self, api: FakeTelegramAPI, method: str, detail: str, count: int = 1) -> None:
        self.api, self.method, self.detail, self.left = api, method, detail, count
        self._original: Handler | None = None

    def __enter__(self) -> Refused:
        handlers = self.api._handlers  # the fake's method table (no public hook for this)
        self._original = original = handlers[self.method]

        async def refused(params: Any, uploads: Any) -> Any:
            if self.left > 0:
                self.left -= 1
                raise ApiError.bad_request(self.detail)
            return await original(params, uploads)

        handlers[self.method] = refused
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._original is not None
        self.api._handlers[self.method] = self._original


class Held:
    """Hold every call of one Bot API method in the fake until released (a call the bot
    made and is waiting on). Use ``with Held(api, "answerCallbackQuery") as held:``; leaving
    the block releases the calls and restores the method."""

    def __init__(self, api: FakeTelegramAPI, method: str) -> None:
        self.api, self.method = api, method
        self.arrived = 0
        self._gate = asyncio.Event()
        self._original: Any = None

    def __enter__(self) -> Held:
        handlers = self.api._handlers  # the fake's method table (no public hook for this)
        self._original = original = handlers[self.method]

        async def held(params: Any, uploads: Any) -> Any:
            self.arrived += 1
            self.api._notify()
            await self._gate.wait()
            return await original(params, uploads)

        handlers[self.method] = held
        return self

    def __exit__(self, *exc: object) -> None:
        self.api._handlers[self.method] = self._original
        self._gate.set()

    async def wait_arrived(self, n: int = 1) -> None:
        await self.api.wait_for(lambda: self.arrived >= n, TIMEOUT, f"{n} held {self.method}")


async def eventually(check: Callable[[], T | None], what: str,
                     timeout: float = TIMEOUT) -> T:
    """Poll ``check`` until it returns something truthy (for the bot's database, whose writes
    the fake is not told about, ``stored.until`` polls a repository read)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not (value := check()):
        if loop.time() > deadline:
            raise TimeoutError(f"{what}: not within {timeout}s")
        await asyncio.sleep(0.02)
    return value


# --- the duel scenarios' table: two friends in a group, their moves, Telegram's refusals --------


def new_table(api: FakeTelegramAPI, *, lang: str = "en", extra: int = 0,
              **group: Any) -> tuple[Table, list[FakeUser]]:
    """Alice and Bob at a table in a new group, plus `extra` onlookers in the same group."""
    alice = api.add_user("Alice", username="alice", language_code=lang)
    bob = api.add_user("Bob", username="bob_the_builder", language_code=lang)
    others = [api.add_user(name, username=name.lower(), language_code=lang)
              for name in ("Carol", "Dave", "Eve")[:extra]]
    chat = api.create_group(members=[alice, bob, *others], **group)
    return Table(api, chat, (alice, bob)), others


def refused_calls(api: FakeTelegramAPI, *, allow: tuple[str, ...] = ()) -> list[str]:
    """Calls Telegram would have refused, except answers containing one of `allow`."""
    return [r.summary() for r in api.failed_calls()
            if not any(a in (r.description or "") for a in allow)]


def live_duel(api: FakeTelegramAPI, chat: FakeChat) -> FakeMessage:
    """The live duel message, which must exist."""
    m = live_duel_message(api, chat)
    assert m is not None, "no live duel message"
    return m


def actor_user(table: Table, m: FakeMessage) -> FakeUser:
    return player(table, actor(m))


async def move(api: FakeTelegramAPI, table: Table, rng: random.Random) -> FakeMessage:
    """One legal random move by the player to act; returns the message it was made on."""
    m = live_duel(api, table.chat)
    toast = await tap(api, actor_user(table, m), m, rng.choice(duel_keyboard(m)))
    assert toast is None, f"a legal tap was refused: {toast}"
    return m


def tiebreak_answer(table: Table, m: FakeMessage) -> tuple[FakeUser, str] | None:
    """On a tiebreak offer: a player who has not answered, and the 'no' button."""
    keys = duel_keyboard(m)
    if not any(d.endswith(":tn") for d in keys):
        return None
    waiting = set(mentioned_ids(m))  # the offer mentions those still to answer
    user = next(p for p in table.players if p.id in waiting)
    return user, next(d for d in keys if d.endswith(":tn"))


async def finish(api: FakeTelegramAPI, table: Table, rng: random.Random) -> int:
    """Play random legal moves (declining any tiebreak) to the end; returns the taps made."""
    taps = 0
    while (m := live_duel_message(api, table.chat)) is not None:
        answer = tiebreak_answer(table, m)
        user, data = answer or (actor_user(table, m), rng.choice(duel_keyboard(m)))
        assert await tap(api, user, m, data) is None
        taps += 1
        assert taps < 40, "the duel does not end"
    return taps


async def quiet(seconds: float = 0.3) -> None:
    """Let a moment pass in which the bot could (wrongly) still be talking."""
    await asyncio.sleep(seconds)
