"""A button's colour means the same everywhere (issue 39): one table (`bot.telegram.styles`)
gives each meaning its colour, each feature's payload says what its button means, and every
keyboard the bot builds is checked against the table: a button whose meaning is in it has
that colour, every other button has none."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest
from telegram.constants import KeyboardButtonStyle

from bot.duel import inline, inline_table, practice
from bot.duel import keyboards as duel_keyboards
from bot.duel.payloads import (
    AiLevel,
    ChallengeOp,
    ChallengePress,
    DuelPress,
    HintPress,
    InlineChallengePress,
    OddsPress,
    PracticePress,
    ResultOp,
    ResultPress,
)
from bot.i18n import LANGUAGES, translator
from bot.info import handlers as info
from bot.settings.keyboards import settings_keyboard
from bot.settings.payloads import Setting, SettingsPress
from bot.sixcard.keyboards import game_keyboard
from bot.sixcard.payloads import SixCardPress
from bot.stats import handlers as stats
from bot.stats.payloads import BoardPress, BoardScope
from bot.storage import ChallengeRecord, ChallengeStatus, ChatSettings
from bot.storage.tournaments import MatchRecord, TournamentRecord, TournamentStatus
from bot.telegram import callbacks, styles
from bot.telegram.styles import STYLES, Meaning, Style
from bot.tournament import present as tournament
from bot.tournament.payloads import TournamentOp, TournamentPress
from bot.tournament.service import Field
from rules.cards import shuffled_deck
from rules.duel import Bet, DuelState, Phase, Surrender, TiebreakAnswer
from rules.sixcard import Buy, DealerGame, Fold, Play, Replace, SixCardGame
from rules.tournament import schedule
from tests.bot.duel.test_messages import offered
from tests.rules.duel.helpers import SALT
from tests.support.fakeapi import spec
from tests.support.styles import KINDS, buttons_of, expected_style, miscoloured

BOT = Path(__file__).resolve().parents[2] / "bot"
EN = translator("en")


def test_the_colours_are_the_bot_apis() -> None:
    """The three styles the Bot API description names (as the fake Bot API checks them), and
    python-telegram-bot's."""
    named = spec.type_field("InlineKeyboardButton", "style")["one_of"]
    assert sorted(s.value for s in Style) == sorted(named) == sorted(KeyboardButtonStyle)
    assert set(STYLES) == set(Meaning)  # every meaning has its colour, none twice named


# What each button means, spelled out: the words, not the code's.
COLOURS: list[tuple[object, str | None]] = [
    (ChallengePress(1, 0, ChallengeOp.ACCEPT), "success"),
    (ChallengePress(1, 0, ChallengeOp.DECLINE), "danger"),
    (ChallengePress(1, 0, ChallengeOp.WITHDRAW), "danger"),
    (InlineChallengePress(1, 50, 29_000_000, ChallengeOp.ACCEPT), "success"),
    (InlineChallengePress(1, 50, 29_000_000, ChallengeOp.DECLINE), "danger"),
    (InlineChallengePress(1, 50, 29_000_000, ChallengeOp.WITHDRAW), "danger"),
    (DuelPress(1, 0, TiebreakAnswer(True)), "success"),
    (DuelPress(1, 0, TiebreakAnswer(False)), "danger"),
    (DuelPress(1, 0, Surrender()), "danger"),
    (ResultPress(1, ResultOp.REMATCH), "success"),
    (ResultPress(1, ResultOp.STANDINGS), None),
    (ResultPress(1, ResultOp.REVIEW), None),
    (SixCardPress(1, 0, Play()), "primary"),
    (SixCardPress(1, 0, Fold()), "danger"),
    (SixCardPress(1, 0, Buy()), None),
    (SixCardPress(1, 0, DealerGame(True)), None),
    (SixCardPress(1, 0, DealerGame(False)), None),
    (TournamentPress(1, TournamentOp.JOIN), "success"),
    (TournamentPress(1, TournamentOp.LEAVE), "danger"),
    (TournamentPress(1, TournamentOp.START), "primary"),
    (TournamentPress(1, TournamentOp.CANCEL), "danger"),
    (TournamentPress(1, TournamentOp.MATCH, 0), None),
    (OddsPress(1), None),
    (HintPress(1), None),
    (SettingsPress(Setting.CLOSE), None),
    *((SettingsPress(Setting.LANGUAGE, lang), None) for lang in ("auto", *LANGUAGES)),
    *((SettingsPress(Setting.TIMER, t), None) for t in (0, 60)),
    *((SettingsPress(Setting.SEASON_RESET, b), None) for b in (True, False)),
    *((SettingsPress(Setting.NUDGES, b), None) for b in (True, False)),
    *((BoardPress(scope), None) for scope in BoardScope),
    *((PracticePress(1, level, 50), None) for level in AiLevel),
    # The duel's hands: equal choices, plain (a colour on one would be advice).
    *((DuelPress(1, 0, Bet(p, c)), None) for p in range(6) for c in (1, 2)),
    *((SixCardPress(1, 0, Replace(i)), None) for i in range(6)),
]


@pytest.mark.parametrize(("payload", "colour"), COLOURS, ids=str)
def test_each_button_has_its_meanings_colour(payload: styles.Styled, colour: str | None) -> None:
    assert styles.style_of(payload) == colour
    assert styles.button("x", payload).style == colour


def test_every_kind_of_payload_says_what_it_means() -> None:
    for kind in KINDS:
        assert isinstance(getattr(kind, "meaning", None), property), kind.__name__
    assert {type(p) for p, _ in COLOURS} == set(KINDS)  # each kind spelled out above


# --- every keyboard the bot builds ---------------------------------------------------------


def _duel_keyboards() -> list[object]:
    """A random duel's every turn (bonus duels included), a practice duel's turn with Odds
    and Hint, a tiebreak offer, and the result with its copy buttons."""
    out: list[object] = []
    rng = random.Random(5)
    state = DuelState.new(50, first_dealer=0)
    state.deal(shuffled_deck(rng), SALT)
    while state.phase is Phase.BULLET:
        if not state.players_to_act:
            state.deal(shuffled_deck(rng), SALT)
            continue
        player = state.players_to_act[0]
        actions = state.legal_actions(player)
        view = state.public_view()
        out.append(duel_keyboards.duel_bets(EN, 3, 1, view, actions))
        out.append(duel_keyboards.duel_bets(EN, 3, 1, view, actions, odds=True))
        state.apply(rng.choice(actions), player)
    out.append(duel_keyboards.result(EN, 3, state.public_view()))
    out.append(inline_table.inline_buttons(  # the same result on an inline message
        state.public_view(), duel_keyboards.result(EN, 3, state.public_view())))
    tied = offered()
    out.append(duel_keyboards.tiebreak_offer(EN, 4, 9))
    tied.apply(TiebreakAnswer(False), 0)
    out.append(duel_keyboards.result(EN, 4, tied.public_view()))
    for target, username in ((None, None), (8, None), (None, "bob")):
        out.append(duel_keyboards.challenge(EN, ChallengeRecord(
            5, -100, None, 7, target, username, 50, ChallengeStatus.PENDING, 0, None, None,
            0, 60)))
    out.append(practice.level_keyboard(EN, 7, 50))
    return out


def _sixcard_keyboards() -> list[object]:
    """Every moment of random six-card games: buy, replace, play or fold, the dealer's game."""
    out: list[object] = []
    rng = random.Random(3)
    for _ in range(30):
        g = SixCardGame.new(tuple(rng.randint(1, 100) for _ in range(rng.randint(1, 3))), 2000)
        g.deal(shuffled_deck(rng), b"s")
        while not g.is_over:
            out.append(game_keyboard(EN, 9, 0, g.public_view()))
            g.apply(rng.choice(g.legal_actions()))
    return out


def _tournament_keyboards() -> list[object]:
    record = TournamentRecord(1, -100, None, 7, TournamentStatus.RUNNING, False, 50, 86400,
                              0, None, -1, 0, 0, None)
    players = (7, 8, 9, 10)
    matches = tuple(MatchRecord(1, p.index, p.round, p.a, p.b, 0, None, None,
                                None, None, None, None, None, None, p.index == 0)
                    for p in schedule(players))
    names = {p: f"P{p}" for p in players}
    return [tournament.signup_keyboard(EN, 1),
            tournament.table_keyboard(Field(record, players, matches), names)]


def _other_keyboards() -> list[object]:
    seasons = ChatSettings(season="month")
    return [settings_keyboard(EN, ChatSettings(), private=True),
            settings_keyboard(EN, ChatSettings(), private=False),
            settings_keyboard(EN, seasons, private=False),
            *(stats._scope_keyboard(EN, scope) for scope in BoardScope),
            info.add_to_group(EN, "six_shooter_bot"),
            inline.challenge_markup(EN, 7, 50, 29_000_000), inline.challenge_friend_markup(EN)]


# Every function of bot/ that makes a keyboard, each built above.
BUILDERS = {
    "bot.duel.keyboards.duel_bets", "bot.duel.keyboards.tiebreak_offer",
    "bot.duel.keyboards.result", "bot.duel.keyboards.challenge",
    "bot.duel.practice.level_keyboard", "bot.sixcard.keyboards.game_keyboard",
    "bot.settings.keyboards.settings_keyboard", "bot.stats.handlers._scope_keyboard",
    "bot.tournament.present.signup_keyboard", "bot.tournament.present.table_keyboard",
    "bot.info.handlers.add_to_group", "bot.duel.inline.challenge_markup",
    "bot.duel.inline.challenge_friend_markup", "bot.duel.inline_table.inline_buttons",
}


def _module(path: Path) -> str:
    return ".".join(path.relative_to(BOT.parent).with_suffix("").parts)


def _calls(name: str) -> list[tuple[Path, ast.FunctionDef | ast.AsyncFunctionDef | None,
                                    ast.Call]]:
    """Every call of `name` in bot/, with the top-level function it is in."""
    found = []
    for path in sorted(BOT.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for top in tree.body:
            func = top if isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
            for node in ast.walk(top):
                if isinstance(node, ast.Call) and ast.unparse(node.func).endswith(name):
                    found.append((path, func, node))
    return found


def test_the_keyboards_built_here_are_every_keyboard_of_the_bot() -> None:
    makers = {f"{_module(path)}.{func.name if func else '<module>'}"
              for path, func, _ in _calls("InlineKeyboardMarkup")}
    assert makers == BUILDERS


def test_every_keyboard_the_bot_builds_is_coloured_by_the_table() -> None:
    markups = [*_duel_keyboards(), *_sixcard_keyboards(), *_tournament_keyboards(),
               *_other_keyboards()]
    buttons = [b for m in markups for b in buttons_of(m)]
    assert len(buttons) > 400
    assert miscoloured(buttons) == []
    # Each colour is used, and every meaning of the table is on some keyboard but the
    # surrender (a command: /surrender).
    seen = {expected_style(b) for b in buttons}
    assert seen == {None, "primary", "success", "danger"}
    meanings = {Meaning.SURRENDER}
    for b in buttons:
        if "callback_data" in b:
            meaning = callbacks.decode(b["callback_data"], KINDS).meaning
            if meaning is not None:
                meanings.add(meaning)
    assert meanings == set(Meaning)
    # The duel's hands stay plain: only the tiebreak's answers are coloured on a duel table.
    bets = [b for b in buttons if str(b.get("callback_data", "")).startswith("d:")]
    assert {b.get("style") for b in bets if ":b" in b["callback_data"]} == {None}


def test_a_button_of_another_colour_is_seen() -> None:
    """The check itself: a colour the table does not give, or none where it gives one."""
    accept = styles.button("Accept", ChallengePress(1, 0, ChallengeOp.ACCEPT)).to_dict()
    review = styles.button("Review", ResultPress(1, ResultOp.REVIEW)).to_dict()
    assert miscoloured([accept, review]) == []
    assert miscoloured([accept | {"style": "danger"}, review | {"style": "primary"},
                        {k: v for k, v in accept.items() if k != "style"},
                        {"text": "link", "url": "https://t.me/x", "style": "success"}]) == [
        "'Accept' (c:1:0:a): danger, the table says success",
        "'Review' (r:1:v): primary, the table says None",
        "'Accept' (c:1:0:a): None, the table says success",
        "'link' (None): success, the table says None"]


def test_only_the_table_colours_a_button_and_only_it_makes_a_pressable_one() -> None:
    """A button with callback data is made by `styles.button` (its colour the table's), and no
    button is given a colour anywhere else."""
    home = BOT / "telegram" / "styles.py"
    made = _calls("InlineKeyboardButton")
    assert len(made) >= 2  # the table's own, the link, the copy buttons
    for path, _, call in made:
        words = {k.arg for k in call.keywords}
        if path != home:
            assert not words & {"callback_data", "style"}, f"{path}:{call.lineno}"
            assert len(call.args) <= 1, f"{path}:{call.lineno}"  # no positional url or data
