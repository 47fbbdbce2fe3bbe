"""Callback data: what an inline button carries, encoded in at most 64 bytes.

    d:<duel id>:<version>:<action>        a duel action, on the version the button was drawn for
        action: b<hand 0-5><chips 1|2>    bet on a hand (1 = pass, 2 = play)
                ty / tn                   tiebreak: yes / no
                sr                        surrender
    c:<challenge id>:<version>:a|d|w      accept, decline, withdraw a challenge
    x:<game id>:<version>:<action>        a six-card poker action, by its rules code:
        f fold, p play, b buy a sixth card, r0..r5 replace that card, g / n buy the dealer
        a game or not
    r:<duel id>:m|s|v                     a finished duel's result: rematch, standings, review
    p:<user id>:e|n|h:<stack>             a practice duel against the bot: its level
    o:<duel id>                           a practice duel's odds
    h:<duel id>                           a practice duel's hint (the best moves now)
    b:n|l|a                               the chat's standings: this season, the last, all time
    t:<tournament id>:j|l|s|x             a tournament's sign-up: join, leave, start, cancel
    t:<tournament id>:m<pairing>          play that pairing of the tournament's schedule
    s:<setting>:<value> | s:x             a chat setting, or close the settings message
        l:auto|en|ru|ptbr...  language (its code in lower case, no "_")
        t:<seconds>   turn timer (0 = off)
        k:<chips>     default stack    c:1|0 show the cards out    v:1|0 keep every reveal
        n:0|m|q       the standings' season: none, month, quarter (no word: "month" holds "th")
        r:1|0         a new season's ratings: reset to a newcomer's (1) or carried on (0)

Numbers are canonical decimal (no sign, no leading zeros), so every payload has exactly one
encoding and `encode(decode(data)) == data` for any data that decodes. Anything else (a forged,
truncated or foreign press) raises `CallbackDataError`, a ValueError, and nothing more. Button
data never holds a card: only ids, versions and the hand's position in the row.

To add a kind of payload: a frozen dataclass, a branch in `encode`, a prefix in `_DECODERS`.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.telegram.payloads import (
    HANDS,
    LANGUAGE_CHOICES,
    MAX_BYTES,
    MAX_ID,
    NUMBER,
    AiLevel,
    BoardPress,
    BoardScope,
    CallbackDataError,
    ChallengeOp,
    ChallengePress,
    DuelAction,
    DuelPress,
    HintPress,
    OddsPress,
    Payload,
    PracticePress,
    ResultOp,
    ResultPress,
    Setting,
    SettingsPress,
    SixCardPress,
    TournamentOp,
    TournamentPress,
)
from rules.duel import actions as duel_actions
from rules.sixcard import SixCardError, parse_action

__all__ = [
    "HANDS", "LANGUAGE_CHOICES", "MAX_BYTES", "MAX_ID", "AiLevel", "BoardPress", "BoardScope",
    "CallbackDataError",
    "ChallengeOp", "ChallengePress", "DuelAction", "DuelPress", "HintPress", "OddsPress",
    "Payload",
    "PracticePress", "ResultOp", "ResultPress", "Setting", "SettingsPress", "SixCardPress",
    "TournamentOp", "TournamentPress", "decode", "encode",
]


_SEASON_CODES = {"none": "0", "month": "m", "quarter": "q"}  # bot.stats.seasons.KINDS


def encode(payload: Payload) -> str:
    """The callback_data string for a payload (validated when the payload was built)."""
    if isinstance(payload, DuelPress):
        data = f"d:{payload.duel_id}:{payload.version}:{payload.action}"  # the rules' code
    elif isinstance(payload, ChallengePress):
        data = f"c:{payload.challenge_id}:{payload.version}:{payload.op.value}"
    elif isinstance(payload, SettingsPress):
        data = f"s:{payload.setting.value}"
        if payload.value is not None:
            value = payload.value
            if payload.setting is Setting.SEASON:
                value = _SEASON_CODES[str(value)]
            if payload.setting is Setting.LANGUAGE:
                value = _language_code(str(value))
            data += f":{int(value)}" if isinstance(value, bool) else f":{value}"
    elif isinstance(payload, SixCardPress):
        data = f"x:{payload.game_id}:{payload.version}:{payload.action}"
    elif isinstance(payload, ResultPress):
        data = f"r:{payload.duel_id}:{payload.op.value}"
    elif isinstance(payload, PracticePress):
        data = f"p:{payload.user_id}:{payload.level.value}:{payload.stack}"
    elif isinstance(payload, OddsPress):
        data = f"o:{payload.duel_id}"
    elif isinstance(payload, HintPress):
        data = f"h:{payload.duel_id}"
    elif isinstance(payload, BoardPress):
        data = f"b:{payload.scope.value}"
    elif isinstance(payload, TournamentPress):
        data = f"t:{payload.tournament_id}:{payload.op.value}"
        if payload.match is not None:
            data += str(payload.match)
    else:
        raise TypeError(f"not a payload: {payload!r}")
    if len(data.encode("ascii")) > MAX_BYTES:  # cannot happen with the bounds above
        raise CallbackDataError(f"callback data over {MAX_BYTES} bytes")
    return data


def _number(text: str) -> int:
    if not NUMBER.fullmatch(text):
        raise CallbackDataError("not a canonical number")
    value = int(text)
    if value > MAX_ID:
        raise CallbackDataError("number out of range")
    return value


def _decode_duel(fields: list[str]) -> Payload:
    if len(fields) != 3:
        raise CallbackDataError("a duel press has an id, a version and an action")
    duel_id, version, code = fields
    try:
        action = duel_actions.parse_action(code)  # the rules' own action codes
    except duel_actions.BadAction as e:
        raise CallbackDataError("unknown duel action") from e
    return DuelPress(_number(duel_id), _number(version), action)


def _decode_challenge(fields: list[str]) -> Payload:
    if len(fields) != 3:
        raise CallbackDataError("a challenge press has an id, a version and an operation")
    challenge_id, version, op = fields
    if op not in {o.value for o in ChallengeOp}:
        raise CallbackDataError("unknown challenge operation")
    return ChallengePress(_number(challenge_id), _number(version), ChallengeOp(op))


def _language_code(choice: str) -> str:
    """A language choice in the payloads' alphabet: "pt_BR" -> "ptbr"."""
    return choice.replace("_", "").lower()


def _decode_settings(fields: list[str]) -> Payload:
    if fields == [Setting.CLOSE.value]:
        return SettingsPress(Setting.CLOSE)
    if len(fields) != 2 or fields[0] not in {s.value for s in Setting}:
        raise CallbackDataError("a settings press names a setting and a value")
    setting, text = Setting(fields[0]), fields[1]
    if setting is Setting.LANGUAGE:
        choice = next((c for c in LANGUAGE_CHOICES if _language_code(c) == text), None)
        if choice is None:
            raise CallbackDataError(f"no language {text!r}")
        return SettingsPress(setting, choice)
    if setting is Setting.SEASON:
        kind = next((k for k, code in _SEASON_CODES.items() if code == text), None)
        if kind is None:
            raise CallbackDataError("a season is 0, m or q")
        return SettingsPress(setting, kind)
    if setting in (Setting.CARDS_OUT, Setting.REVEALS, Setting.SEASON_RESET):
        if text not in ("0", "1"):
            raise CallbackDataError("an on/off setting is 1 or 0")
        return SettingsPress(setting, text == "1")
    return SettingsPress(setting, _number(text))


def _decode_result(fields: list[str]) -> Payload:
    if len(fields) != 2 or fields[1] not in {o.value for o in ResultOp}:
        raise CallbackDataError("a result press has a duel id and an operation")
    return ResultPress(_number(fields[0]), ResultOp(fields[1]))


def _decode_practice(fields: list[str]) -> Payload:
    if len(fields) != 3 or fields[1] not in {lv.value for lv in AiLevel}:
        raise CallbackDataError("a practice press has a user id, a level and a stack")
    return PracticePress(_number(fields[0]), AiLevel(fields[1]), _number(fields[2]))


def _decode_odds(fields: list[str]) -> Payload:
    if len(fields) != 1:
        raise CallbackDataError("an odds press has a duel id")
    return OddsPress(_number(fields[0]))


def _decode_hint(fields: list[str]) -> Payload:
    if len(fields) != 1:
        raise CallbackDataError("a hint press has a duel id")
    return HintPress(_number(fields[0]))


def _decode_board(fields: list[str]) -> Payload:
    if len(fields) != 1 or fields[0] not in {s.value for s in BoardScope}:
        raise CallbackDataError("a standings press has a scope")
    return BoardPress(BoardScope(fields[0]))


def _decode_tournament(fields: list[str]) -> Payload:
    if len(fields) != 2 or not fields[1]:
        raise CallbackDataError("a tournament press has an id and an operation")
    tournament_id, op = _number(fields[0]), fields[1]
    if op[0] == TournamentOp.MATCH.value:
        return TournamentPress(tournament_id, TournamentOp.MATCH, _number(op[1:]))
    if op not in {o.value for o in TournamentOp}:
        raise CallbackDataError("unknown tournament operation")
    return TournamentPress(tournament_id, TournamentOp(op))


def _decode_sixcard(fields: list[str]) -> Payload:
    if len(fields) != 3:
        raise CallbackDataError("a six-card press has an id, a version and an action")
    game_id, version, code = fields
    try:
        action = parse_action(code)
    except SixCardError as e:
        raise CallbackDataError("unknown six-card action") from e
    return SixCardPress(_number(game_id), _number(version), action)


_DECODERS: dict[str, Callable[[list[str]], Payload]] = {
    "d": _decode_duel,
    "c": _decode_challenge,
    "x": _decode_sixcard,
    "s": _decode_settings,
    "r": _decode_result,
    "p": _decode_practice,
    "o": _decode_odds,
    "h": _decode_hint,
    "b": _decode_board,
    "t": _decode_tournament,
}


def decode(data: object) -> Payload:
    """The payload a button carries; CallbackDataError for anything that is not one."""
    if not isinstance(data, str):
        raise CallbackDataError("callback data is not text")
    if len(data) > MAX_BYTES or not data.isascii():
        raise CallbackDataError("callback data is not ASCII of at most 64 bytes")
    prefix, *fields = data.split(":")
    decoder = _DECODERS.get(prefix)
    if decoder is None:
        raise CallbackDataError("unknown callback data prefix")
    return decoder(fields)
