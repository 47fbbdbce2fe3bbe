"""The framing of callback data, with a payload of this test's own (no game's): a prefix
registered once, canonical numbers, at most 64 ASCII bytes, and nothing else decodes."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from bot.telegram import callbacks
from bot.telegram.callbacks import MAX_BYTES, MAX_ID, CallbackDataError, decode, encode


@dataclass(frozen=True, slots=True)
class Knock:
    times: int
    word: str = ""

    def __post_init__(self) -> None:
        callbacks.check_number("times", self.times)


def _parse(fields: list[str]) -> Knock:
    if len(fields) not in (1, 2):
        raise CallbackDataError("a knock has a count and maybe a word")
    return Knock(callbacks.number(fields[0]), *fields[1:])


callbacks.register("zk", Knock, lambda k: (str(k.times), *((k.word,) if k.word else ())),
                   _parse)


def test_a_registered_payload_round_trips_under_its_prefix() -> None:
    assert encode(Knock(3)) == "zk:3"
    assert decode("zk:3") == Knock(3)
    assert decode(f"zk:{MAX_ID}") == Knock(MAX_ID)
    assert callbacks.pattern(Knock) == "^zk:"
    assert re.match(callbacks.pattern(Knock), "zk:3") and not re.match(
        callbacks.pattern(Knock), "zkx:3")


@pytest.mark.parametrize("data", ["zk:03", "zk:-1", "zk:+1", "zk: 1", "zk:1_0", "zk:١",
                                  f"zk:{MAX_ID + 1}", "zk:", "zk", "ZK:1", "zz:1", "",
                                  "zk:1:" + "a" * 60, "zk:1:é"])
def test_only_canonical_data_of_a_known_prefix_decodes(data: str) -> None:
    with pytest.raises(CallbackDataError):
        decode(data)


@pytest.mark.parametrize("data", [None, b"zk:1", 42])
def test_non_text_is_refused(data: object) -> None:
    with pytest.raises(CallbackDataError):
        decode(data)


def test_numbers_are_checked_when_built() -> None:
    for bad in (-1, MAX_ID + 1, True, "1"):
        with pytest.raises(CallbackDataError):
            Knock(bad)  # type: ignore[arg-type]


def test_data_over_the_limit_is_never_encoded() -> None:
    assert len(encode(Knock(1, "a" * (MAX_BYTES - 5)))) == MAX_BYTES
    with pytest.raises(CallbackDataError):
        encode(Knock(1, "a" * (MAX_BYTES - 4)))
    with pytest.raises(CallbackDataError):
        encode(Knock(1, "é"))


def test_a_prefix_or_a_kind_is_registered_once() -> None:
    @dataclass(frozen=True)
    class Other:
        n: int

    with pytest.raises(ValueError, match="registered already"):
        callbacks.register("zk", Other, lambda o: (str(o.n),), lambda f: Other(1))
    with pytest.raises(ValueError, match="registered already"):
        callbacks.register("zo", Knock, lambda k: (str(k.times),), _parse)
    for bad in ("", "abc", "Z", "z:", "1"):
        with pytest.raises(ValueError, match="prefix"):
            callbacks.register(bad, Other, lambda o: (str(o.n),), lambda f: Other(1))
    with pytest.raises(TypeError):
        encode(Other(1))
    with pytest.raises(TypeError):
        callbacks.pattern(Other)
