"""/duel's arguments: a stack written with the ASCII digits only, in range; a @username as
Telegram allows them; anything else a clear reply (a catalog key), never an exception."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from telegram import Chat, Message, MessageEntity, User

from bot.duel.challenges import BadDuelCommand, DuelRequest, parse_duel_command, parse_stack
from bot.i18n import LANGUAGES, Texts
from rules.duel import MAX_STACK, MIN_STACK

GROUP = Chat(-100123, Chat.SUPERGROUP)
ALICE = User(101, "Alice", False, username="alice")
BOB = User(202, "Bob", False)
ERRORS = {"error.stack_digits", "error.stack_range", "error.bad_args", "error.bad_username"}


def duel_message(args: str, entities: tuple[MessageEntity, ...] = ()) -> Message:
    text = "/duel" + (" " + args if args else "")
    return Message(1, dt.datetime(2025, 1, 1, tzinfo=dt.UTC), GROUP, from_user=ALICE,
                   text=text, entities=(MessageEntity(MessageEntity.BOT_COMMAND, 0, 5),
                                        *entities))


def parse(args: str, entities: tuple[MessageEntity, ...] = ()) -> DuelRequest:
    # As python-telegram-bot splits them into context.args.
    return parse_duel_command(duel_message(args, entities), args.split())


def refusal(args: str) -> str:
    with pytest.raises(BadDuelCommand) as e:
        parse(args)
    return e.value.refusal.key


@pytest.mark.parametrize(("arg", "stack"), [
    ("10", 10), ("40", 40), ("500", 500), ("050", 50), ("0000000040", 40),
])
def test_a_stack_of_ascii_digits_in_range(arg: str, stack: int) -> None:
    assert parse(arg).stack == stack
    assert parse_stack(arg) == stack


@pytest.mark.parametrize("arg", [
    "--5", "-5", "+40", "4.5", "4,5", "²", "①", "⁵⁰", "٥٠", "５０", "۵۰", "४०", "五十",
    "½", "Ⅻ", "4\u200b0", "40²",
])
def test_anything_else_meant_as_a_number_says_to_write_digits(arg: str) -> None:
    """Before, `--5`, `²`, `①`, `⁵⁰` passed str.isdigit() and crashed int() (no reply at all),
    and the Arabic-Indic and full-width fifties were taken as 50."""
    assert refusal(arg) == "error.stack_digits"


@pytest.mark.parametrize("arg", ["0", "9", "501", "1000", "9" * 5000, "0" * 3000 + "600"])
def test_a_stack_out_of_range(arg: str) -> None:
    assert refusal(arg) == "error.stack_range"


def test_words_and_a_second_stack_are_not_understood() -> None:
    assert refusal("please") == "error.bad_args"
    assert refusal("bob2") == "error.bad_args"
    assert refusal("40 50") == "error.bad_args"
    assert refusal("@bobby @carol") == "error.bad_args"


@pytest.mark.parametrize(("arg", "name"), [
    ("@bob_the_builder", "bob_the_builder"), ("@Alice_L", "Alice_L"), ("@abcd", "abcd"),
    ("@" + "a" * 32, "a" * 32), ("@user_5", "user_5"),
])
def test_a_telegram_username(arg: str, name: str) -> None:
    request = parse(arg + " 30")
    assert (request.target_username, request.stack, request.target_id) == (name, 30, None)


@pytest.mark.parametrize("arg", [
    "@", "@abc", "@" + "a" * 33, "@" + "x" * 4000, "@bob-smith", "@bob.smith", "@боб_ок",
    "@ｂｏｂｂｙ", "@bob!", "@@bobby",
])
def test_a_username_telegram_would_not_allow(arg: str) -> None:
    assert refusal(arg) == "error.bad_username"


def test_the_words_of_a_text_mention_are_the_mention_whatever_they_look_like() -> None:
    name = "Agent ② 40"
    bob = User(BOB.id, name, False)
    args = f"{name} 30"
    entity = MessageEntity(MessageEntity.TEXT_MENTION, 6, len(name.encode("utf-16-le")) // 2,
                           user=bob)
    request = parse(args, (entity,))
    assert (request.target_id, request.stack) == (BOB.id, 30)


def test_no_arguments_is_an_open_challenge_with_the_chats_stack() -> None:
    assert parse("") == DuelRequest(None, None, False, None)


def test_every_reply_key_is_in_every_catalog() -> None:
    texts = Texts.load(strict=True)
    for lang in LANGUAGES:
        for key in ERRORS:
            assert texts[lang].t(key) != key


args_text = st.lists(
    st.one_of(
        st.text(min_size=1, max_size=12).filter(lambda s: not any(c.isspace() for c in s)),
        st.from_regex(r"[0-9]{1,6}", fullmatch=True),
        st.from_regex(r"@[A-Za-z0-9_]{0,40}", fullmatch=True),
        st.sampled_from(["--5", "²", "①", "⁵⁰", "٥٠", "５０", "-40", "+40", "40"]),
    ),
    max_size=4,
).map(" ".join)


@settings(max_examples=400, deadline=None)
@given(args_text)
def test_any_arguments_parse_to_an_in_range_ascii_stack_or_a_clear_refusal(args: str) -> None:
    try:
        request = parse(args)
    except BadDuelCommand as e:
        assert e.refusal.key in ERRORS
        return
    if request.stack is not None:
        assert MIN_STACK <= request.stack <= MAX_STACK
        written = [a for a in args.split() if a.isascii() and a.isdigit()]
        assert len(written) == 1 and int(written[0]) == request.stack
    if request.target_username is not None:
        assert 4 <= len(request.target_username) <= 32
        assert request.target_username.isascii()
