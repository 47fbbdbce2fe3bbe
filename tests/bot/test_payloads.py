"""Every feature's payloads, each kind under a prefix of its own (the features' `PAYLOADS`,
decoded as the bot decodes a press of any of them): each encodes in one canonical way, and
decoding anything else raises CallbackDataError."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path
from typing import cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot import app as application
from bot.duel.payloads import ChallengeOp, ChallengePress, DuelPress, HintPress, OddsPress
from bot.settings.payloads import LANGUAGE_CHOICES, Setting, SettingsPress
from bot.sixcard.payloads import SixCardPress
from bot.stats.payloads import BoardPress, BoardScope
from bot.telegram import callbacks
from bot.telegram.callbacks import MAX_BYTES, MAX_ID, CallbackDataError, encode
from bot.tournament.payloads import TournamentOp, TournamentPress
from rules.duel import Bet, Surrender, TiebreakAnswer
from rules.sixcard import Buy, DealerGame, Fold, Play, Replace, SixAction

BOT = Path(__file__).resolve().parents[2] / "bot"
KINDS = tuple(p for f in application.FEATURES for p in f.PAYLOADS)  # every feature's


def decode(data: object) -> object:
    return callbacks.decode(data, KINDS)


def _gives_prefix(stmt: ast.stmt) -> bool:
    if isinstance(stmt, ast.AnnAssign):  # PREFIX: ClassVar[str] = "d" (not the Protocol's)
        return stmt.value is not None and ast.unparse(stmt.target) == "PREFIX"
    return isinstance(stmt, ast.Assign) and "PREFIX" in map(ast.unparse, stmt.targets)


def _declared_kinds() -> set[type]:
    """Every class in bot/ that gives its PREFIX a value: a kind of button payload."""
    kinds = set()
    for path in BOT.rglob("*.py"):
        parts = path.relative_to(BOT.parent).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and any(map(_gives_prefix, node.body)):
                kinds.add(getattr(importlib.import_module(module), node.name))
    return kinds


def test_every_payload_is_a_features_under_a_prefix_of_its_own() -> None:
    declared = _declared_kinds()
    assert len(declared) >= 10, "the payloads have moved?"
    assert set(KINDS) == declared  # none left out of its feature's PAYLOADS
    assert len(KINDS) == len(declared)  # and none listed twice
    prefixes = [kind.PREFIX for kind in KINDS]
    assert all(re.fullmatch("[a-z]{1,2}", p) for p in prefixes), prefixes
    assert len(set(prefixes)) == len(prefixes), prefixes
    callbacks.check_prefixes(KINDS)  # as the application checks them when built


ids = st.integers(min_value=0, max_value=MAX_ID)
actions = st.one_of(
    st.builds(Bet, st.integers(0, 5), st.integers(1, 2)),
    st.builds(TiebreakAnswer, st.booleans()),
    st.just(Surrender("surrender")),
)
settings_presses = st.one_of(
    st.builds(SettingsPress, st.just(Setting.LANGUAGE), st.sampled_from(LANGUAGE_CHOICES)),
    st.builds(SettingsPress, st.sampled_from([Setting.TIMER, Setting.STACK]), ids),
    st.builds(SettingsPress, st.sampled_from([Setting.CARDS_OUT, Setting.REVEALS,
                                              Setting.SEASON_RESET]), st.booleans()),
    st.just(SettingsPress(Setting.CLOSE)),
    st.builds(SettingsPress, st.just(Setting.SEASON), st.sampled_from(["none", "month",
                                                                       "quarter"])),
)
payloads: st.SearchStrategy[object] = st.one_of(
    st.builds(DuelPress, ids, ids, actions),
    st.builds(ChallengePress, ids, ids, st.sampled_from(ChallengeOp)),
    st.builds(BoardPress, st.sampled_from(BoardScope)),
    st.builds(OddsPress, ids),
    st.builds(HintPress, ids),
    settings_presses,
    st.builds(TournamentPress, ids, st.sampled_from([o for o in TournamentOp
                                                      if o is not TournamentOp.MATCH])),
    st.builds(TournamentPress, ids, st.just(TournamentOp.MATCH), ids),
)


def test_examples() -> None:
    assert encode(DuelPress(12, 3, Bet(4, 2))) == "d:12:3:b42"
    assert encode(DuelPress(1, 0, TiebreakAnswer(True))) == "d:1:0:ty"
    assert encode(DuelPress(1, 0, TiebreakAnswer(False))) == "d:1:0:tn"
    assert encode(DuelPress(1, 9, Surrender())) == "d:1:9:sr"
    assert encode(OddsPress(7)) == "o:7" and decode("o:7") == OddsPress(7)
    assert encode(HintPress(7)) == "h:7" and decode("h:7") == HintPress(7)
    assert encode(ChallengePress(7, 0, ChallengeOp.ACCEPT)) == "c:7:0:a"
    assert decode("c:7:1:w") == ChallengePress(7, 1, ChallengeOp.WITHDRAW)
    assert decode("d:12:3:b01") == DuelPress(12, 3, Bet(0, 1))


def test_settings_examples() -> None:
    assert encode(SettingsPress(Setting.LANGUAGE, "ru")) == "s:l:ru"
    assert encode(SettingsPress(Setting.LANGUAGE, "auto")) == "s:l:auto"
    if "pt_BR" in LANGUAGE_CHOICES:  # a region's language in the payloads' alphabet
        assert encode(SettingsPress(Setting.LANGUAGE, "pt_BR")) == "s:l:ptbr"
        assert decode("s:l:ptbr") == SettingsPress(Setting.LANGUAGE, "pt_BR")
    assert encode(SettingsPress(Setting.TIMER, 300)) == "s:t:300"
    assert encode(SettingsPress(Setting.TIMER, 0)) == "s:t:0"
    assert encode(SettingsPress(Setting.STACK, 50)) == "s:k:50"
    assert encode(SettingsPress(Setting.CARDS_OUT, False)) == "s:c:0"
    assert encode(SettingsPress(Setting.CLOSE)) == "s:x"
    assert decode("s:c:1") == SettingsPress(Setting.CARDS_OUT, True)
    assert decode("s:t:60") == SettingsPress(Setting.TIMER, 60)
    assert decode("s:l:en") == SettingsPress(Setting.LANGUAGE, "en")
    assert encode(SettingsPress(Setting.SEASON, "quarter")) == "s:n:q"
    assert decode("s:n:m") == SettingsPress(Setting.SEASON, "month")
    assert encode(BoardPress(BoardScope.LAST)) == "b:l"
    assert [decode(f"b:{s}") for s in "nla"] == [BoardPress(s) for s in BoardScope]
    assert decode("s:n:0") == SettingsPress(Setting.SEASON, "none")


def test_the_season_reset_press_is_one_or_zero() -> None:
    assert encode(SettingsPress(Setting.SEASON_RESET, True)) == "s:r:1"
    assert encode(SettingsPress(Setting.SEASON_RESET, False)) == "s:r:0"
    assert decode("s:r:1") == SettingsPress(Setting.SEASON_RESET, True)
    assert decode("s:r:0") == SettingsPress(Setting.SEASON_RESET, False)
    assert len({s.value for s in Setting}) == len(Setting)  # "r" is no other setting's letter


@pytest.mark.parametrize("data", [
    "", ":", "d", "d:", "d:1:2", "d:1:2:", "d:1:2:b42:x", "x:1:2:b42", "D:1:2:b42",
    "d:a:2:b42", "d:1:b:b42", "d:-1:2:b42", "d:+1:2:b42", "d:01:2:b42", "d: 1:2:b42",
    "d:1_0:2:b42", "d:١:2:b42", "d:1:2:b62", "d:1:2:b43", "d:1:2:b40", "d:1:2:b4",
    "d:1:2:b422", "d:1:2:st", "d:1:2:tx", "d:1:2:As", "c:1:2:x", "c:1:2:a:", "c:1:2",
    "c:1:2:A", f"d:{MAX_ID + 1}:0:b12", "d:99999999999999999999:0:b12", "s:lang:ru",
    "d:1:2:b42 ", "d:1:2:b42\n", "d:1:1:" + "b" * 70, "é:1:2:b42",
    "s", "s:", "s:x:", "s:x:1", "s:l", "s:l:", "s:l:eo", "s:l:pt_br", "s:l:RU", "s:t:", "s:t:-1",
    "s:t:05", "s:t:1:2", "s:k:x", "s:c:2", "s:c:true", "s:z:1", "S:t:60",
    "b", "b:", "b:x", "b:N", "b:n:1", "b:all",
    "s:n:", "s:n:year", "s:n:month", "s:n:none", "s:n:M", "s:n:1", "s:n:m:1",
    "s:r", "s:r:", "s:r:2", "s:r:01", "s:r:true", "s:r:on", "s:r:1:0", "S:r:1", "s:R:1",
])
def test_malformed_data_is_refused(data: str) -> None:
    with pytest.raises(CallbackDataError):
        decode(data)


@pytest.mark.parametrize("data", [None, b"d:1:2:b42", 42])
def test_non_text_is_refused(data: object) -> None:
    with pytest.raises(CallbackDataError):
        decode(data)


@pytest.mark.parametrize("make", [
    lambda: DuelPress(-1, 0, Bet(0, 1)),
    lambda: DuelPress(1, MAX_ID + 1, Bet(0, 1)),
    lambda: DuelPress(True, 0, Bet(0, 1)),
    lambda: DuelPress(1, 0, Bet(6, 1)),
    lambda: DuelPress(1, 0, Bet(0, 3)),
    lambda: DuelPress(1, 0, Bet(0, True)),
    lambda: DuelPress(1, 0, Surrender("timeout")),  # only the bot times a player out
    lambda: DuelPress(1, 0, "b01"),
    lambda: ChallengePress(1, 0, "a"),
    lambda: SettingsPress(Setting.LANGUAGE, "eo"),
    lambda: SettingsPress(Setting.LANGUAGE, None),
    lambda: SettingsPress(Setting.TIMER, -1),
    lambda: SettingsPress(Setting.TIMER, True),
    lambda: SettingsPress(Setting.STACK, "50"),
    lambda: SettingsPress(Setting.CARDS_OUT, 1),
    lambda: SettingsPress(Setting.CLOSE, 1),
    lambda: SettingsPress(Setting.SEASON_RESET, 1),
    lambda: SettingsPress(Setting.SEASON_RESET, "1"),
    lambda: SettingsPress(Setting.SEASON_RESET, None),
    lambda: SettingsPress("t", 60),
])
def test_payloads_that_no_button_may_carry_cannot_be_built(make: object) -> None:
    with pytest.raises(CallbackDataError):
        make()  # type: ignore[operator]


def test_the_longest_payload_fits() -> None:
    data = encode(DuelPress(MAX_ID, MAX_ID, Bet(5, 2)))
    assert len(data.encode()) <= MAX_BYTES
    assert decode(data) == DuelPress(MAX_ID, MAX_ID, Bet(5, 2))


@given(payloads)
def test_round_trip(payload: object) -> None:
    data = encode(payload)
    assert len(data.encode("utf-8")) <= MAX_BYTES
    assert decode(data) == payload
    # Never a card: only the fixed alphabet, and no rank followed by a suit.
    assert re.fullmatch(r"[a-z0-9:]+", data)
    assert not re.search(r"[2-9tjqka][shdc]", data, re.IGNORECASE)


@given(st.text(max_size=80))
def test_random_text_only_ever_raises_callback_data_error(data: str) -> None:
    try:
        payload = decode(data)
    except CallbackDataError:
        return
    assert encode(payload) == data  # whatever decodes is canonical


@given(payloads, st.integers(0, 40), st.characters())
def test_mutated_payloads_decode_canonically_or_not_at_all(
    payload: object, where: int, char: str
) -> None:
    data = encode(payload)
    where %= len(data) + 1
    for mutated in (data[:where] + char + data[where:], data[:where] + data[where + 1:]):
        try:
            decoded = decode(mutated)
        except CallbackDataError:
            continue
        assert encode(decoded) == mutated


# --- six-card poker: x:<game id>:<version>:<action code> --------------------------------------

six_actions = st.one_of(
    st.sampled_from([Fold(), Play(), Buy(), DealerGame(True), DealerGame(False)]),
    st.builds(Replace, st.integers(0, 5)),
)


def test_sixcard_examples() -> None:
    assert encode(SixCardPress(12, 3, Buy())) == "x:12:3:b"
    assert encode(SixCardPress(12, 4, Replace(5))) == "x:12:4:r5"
    assert encode(SixCardPress(1, 0, DealerGame(True))) == "x:1:0:g"
    assert decode("x:7:2:n") == SixCardPress(7, 2, DealerGame(False))
    assert decode("x:7:2:f") == SixCardPress(7, 2, Fold())
    assert decode("x:7:9:p") == SixCardPress(7, 9, Play())
    assert decode("x:7:9:r0") == SixCardPress(7, 9, Replace(0))


@given(ids, ids, six_actions)
def test_sixcard_presses_round_trip(game_id: int, version: int, action: SixAction) -> None:
    press = SixCardPress(game_id, version, action)
    data = encode(press)
    assert len(data.encode()) <= MAX_BYTES and decode(data) == press
    assert data.rsplit(":", 1)[1] == str(action)  # the rules' own action code


@pytest.mark.parametrize("data", [
    "x", "x:", "x:1:2", "x:1:2:", "x:1:2:r6", "x:1:2:r", "x:1:2:r01", "x:1:2:P", "x:1:2:pp",
    "x:1:2:As", "x:1:2:p:", "x:01:2:p", "x:1:-2:p", f"x:{MAX_ID + 1}:0:p", "X:1:2:p",
    "x:1:2:f ", "x:1:2:g\n", "x:1:2:b42",
])
def test_malformed_sixcard_data_is_refused(data: str) -> None:
    with pytest.raises(CallbackDataError):
        decode(data)


@pytest.mark.parametrize("make", [
    lambda: SixCardPress(1, 0, Replace(6)),
    lambda: SixCardPress(1, 0, Replace(-1)),
    lambda: SixCardPress(1, 0, Replace(True)),
    lambda: SixCardPress(1, 0, "p"),
    lambda: SixCardPress(1, 0, Bet(1, 2)),
    lambda: SixCardPress(-1, 0, Play()),
])
def test_sixcard_payloads_no_button_may_carry_cannot_be_built(make: object) -> None:
    with pytest.raises(CallbackDataError):
        make()  # type: ignore[operator]


@given(ids, ids, six_actions, st.integers(0, 40), st.characters())
def test_mutated_sixcard_presses_decode_canonically_or_not_at_all(
    game_id: int, version: int, action: SixAction, where: int, char: str
) -> None:
    data = encode(SixCardPress(game_id, version, action))
    where %= len(data) + 1
    for mutated in (data[:where] + char + data[where:], data[:where] + data[where + 1:]):
        try:
            decoded = decode(mutated)
        except CallbackDataError:
            continue
        assert encode(decoded) == mutated


def test_tournament_examples() -> None:
    assert encode(TournamentPress(3, TournamentOp.JOIN)) == "t:3:j"
    assert encode(TournamentPress(3, TournamentOp.MATCH, 0)) == "t:3:m0"
    assert decode("t:12:m65") == TournamentPress(12, TournamentOp.MATCH, 65)
    assert [cast(TournamentPress, decode(f"t:1:{op}")).op for op in "jlsx"] == [
        TournamentOp.JOIN, TournamentOp.LEAVE, TournamentOp.START, TournamentOp.CANCEL]


@pytest.mark.parametrize("data", ["t:1", "t:1:", "t:1:m", "t:1:m01", "t:1:m-1", "t:1:jj",
                                  "t:1:q", "t:01:j", "t:1:j:2", "t:1:j1"])
def test_tournament_rejects(data: str) -> None:
    with pytest.raises(CallbackDataError):
        decode(data)


def test_tournament_press_checks() -> None:
    with pytest.raises(CallbackDataError):
        TournamentPress(1, TournamentOp.MATCH)
    with pytest.raises(CallbackDataError):
        TournamentPress(1, TournamentOp.JOIN, 2)


@pytest.mark.parametrize("data", ["h:", "h:01", "h:-1", "h:1:2", "h:x", "h"])
def test_hint_rejects(data: str) -> None:
    with pytest.raises(CallbackDataError):
        decode(data)
