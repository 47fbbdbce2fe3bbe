"""The framing of callback data, with payloads of this test's own (no game's): each kind's
prefix and fields, canonical numbers, at most 64 ASCII bytes, only the kinds a caller expects
decode, and no prefix taken twice (checked when the application is built)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from types import SimpleNamespace
from typing import ClassVar

import pytest

from bot import app as application
from bot.config import Config
from bot.telegram import callbacks
from bot.telegram.callbacks import MAX_BYTES, MAX_ID, CallbackDataError, encode

TOKEN = "123456:" + "A" * 35


@dataclass(frozen=True, slots=True)
class Knock:
    PREFIX: ClassVar[str] = "zk"

    times: int
    word: str = ""

    def __post_init__(self) -> None:
        callbacks.check_number("times", self.times)

    def fields(self) -> tuple[str, ...]:
        return (str(self.times), *((self.word,) if self.word else ()))

    @classmethod
    def parse(cls, fields: list[str]) -> Knock:
        if len(fields) not in (1, 2):
            raise CallbackDataError("a knock has a count and maybe a word")
        return cls(callbacks.number(fields[0]), *fields[1:])


@dataclass(frozen=True, slots=True)
class Ring:
    PREFIX: ClassVar[str] = "z"

    n: int

    def fields(self) -> tuple[str, ...]:
        return (str(self.n),)

    @classmethod
    def parse(cls, fields: list[str]) -> Ring:
        if len(fields) != 1:
            raise CallbackDataError("a ring has a count")
        return cls(callbacks.number(fields[0]))


KINDS = (Knock, Ring)


def decode(data: object) -> object:
    return callbacks.decode(data, KINDS)


def test_a_payload_round_trips_under_its_prefix() -> None:
    assert encode(Knock(3)) == "zk:3"
    assert encode(Knock(3, "hi")) == "zk:3:hi"
    assert decode("zk:3") == Knock(3) and decode("zk:3:hi") == Knock(3, "hi")
    assert decode(f"zk:{MAX_ID}") == Knock(MAX_ID)
    assert encode(Ring(4)) == "z:4" and decode("z:4") == Ring(4)
    assert callbacks.pattern(Knock) == "^zk:"
    assert re.match(callbacks.pattern(Knock), "zk:3") and not re.match(
        callbacks.pattern(Knock), "zkx:3")
    assert not re.match(callbacks.pattern(Ring), "zk:3")


def test_only_the_kinds_expected_decode() -> None:
    assert callbacks.decode("zk:3", (Knock,)) == Knock(3)
    assert callbacks.decode("z:3", (Knock, Ring)) == Ring(3)
    for data, kinds in (("z:3", (Knock,)), ("zk:3", (Ring,)), ("zk:3", ())):
        with pytest.raises(CallbackDataError, match="unknown callback data prefix"):
            callbacks.decode(data, kinds)


@pytest.mark.parametrize("data", ["zk:03", "zk:-1", "zk:+1", "zk: 1", "zk:1_0", "zk:١",
                                  f"zk:{MAX_ID + 1}", "zk:", "zk", "ZK:1", "zz:1", "",
                                  "zk:1:" + "a" * 60, "zk:1:é", "z:1:2", "z:01", "z",
                                  ":zk:1", "zk:1:a:b"])
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


def _with_prefix(prefix: str) -> type[Ring]:
    @dataclass(frozen=True, slots=True)
    class Other(Ring):
        PREFIX: ClassVar[str] = prefix

    return Other


@pytest.mark.parametrize("bad", ["", "abc", "Z", "z:", "1", "é"])
def test_a_prefix_is_one_or_two_lower_case_letters(bad: str) -> None:
    other = _with_prefix(bad)
    with pytest.raises(ValueError, match="prefix"):
        callbacks.check_prefixes([other])
    with pytest.raises(ValueError, match="prefix"):
        callbacks.pattern(other)
    with pytest.raises(ValueError, match="prefix"):
        encode(other(1))


def test_a_prefix_or_a_kind_is_taken_once() -> None:
    callbacks.check_prefixes([Knock, Ring])
    callbacks.check_prefixes([])
    with pytest.raises(ValueError, match="'zk' of Other is Knock's already"):
        callbacks.check_prefixes([Knock, Ring, _with_prefix("zk")])
    with pytest.raises(ValueError, match="already"):
        callbacks.check_prefixes([Knock, Ring, Knock])


def test_what_is_no_payload_is_never_framed() -> None:
    @dataclass(frozen=True)
    class Other:
        n: int

    with pytest.raises(TypeError):
        encode(Other(1))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        callbacks.pattern(Other)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        callbacks.check_prefixes([Other])  # type: ignore[list-item]


def test_the_application_refuses_two_features_under_one_prefix(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """What `register` checked at import: now every feature's PAYLOADS, when built."""
    taken = application.FEATURES[0].PAYLOADS[0]
    clash = _with_prefix(taken.PREFIX)
    features = (*application.FEATURES, SimpleNamespace(PAYLOADS=(clash,)))
    monkeypatch.setattr(application, "FEATURES", features)
    with pytest.raises(ValueError, match=f"{taken.PREFIX!r} of Other is "
                                         f"{taken.__name__}'s already"):
        application.build(Config(token=TOKEN))
