"""The /settings message: the chat's settings as text, and buttons to change them.

In a group every setting has a row of choices (the current one ticked); a private chat has no
duels, so it only offers the language. Whether a new season resets the ratings is offered only
while the chat has seasons.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import LANGUAGES, Html, Translator, duration, language_name
from bot.settings.payloads import Setting, SettingsPress
from bot.storage import ChatSettings
from bot.telegram import styles

TIMER_CHOICES = (0, 60, 120, 300, 600, 1800)  # seconds; 0 = off
STACK_CHOICES = (20, 30, 50, 100, 200)
TICK = "✅ "
T = TypeVar("T")
LANGUAGES_PER_ROW = 4  # at most: a phone shows a row of four language names whole


def _language(tr: Translator, language: str | None, *, private: bool) -> Html:
    if language is None and private:  # alone with the bot, "auto" is the user's own language
        return tr.t("settings.lang_auto_private")
    return language_name(language) if language else tr.t("settings.lang_auto")


def _timer(tr: Translator, seconds: int) -> Html:
    return duration(tr, seconds) if seconds else tr.t("settings.timer_off")


def settings_text(tr: Translator, s: ChatSettings, *, private: bool) -> str:
    lines: list[str] = [tr.t("settings.title_private" if private else "settings.title"),
                        tr.t("settings.language", value=_language(tr, s.language, private=private))]
    if private:
        lines.append(tr.t("settings.nudges", state=tr.t(
            "settings.nudges_on" if s.nudges else "settings.nudges_off")))
        lines.append(tr.t("settings.note_private"))
        return "\n".join(lines)
    lines += [
        tr.t("settings.timer", value=_timer(tr, s.turn_timer)),
        tr.t("settings.stack", value=tr.tn("chips", s.default_stack)),
        tr.t("settings.cards_out",
             value=tr.t("settings.shown" if s.show_cards_out else "settings.hidden")),
        tr.t("settings.reveals",
             value=tr.t("settings.reveals_kept" if s.keep_reveals else "settings.reveals_folded")),
        tr.t("settings.season", value=tr.t(f"settings.season_{s.season}")),
    ]
    if s.season != "none":  # with no seasons there is no new season to start
        lines.append(tr.t("settings.season_reset", value=tr.t(
            "settings.season_reset_on" if s.season_reset else "settings.season_reset_off")))
    lines.append(tr.t("settings.deck", value=tr.t(
        "settings.deck_four" if s.four_colour_deck else "settings.deck_classic")))
    lines += ["", tr.t("settings.note_group")]
    return "\n".join(lines)


def _button(label: str, chosen: bool, press: SettingsPress) -> InlineKeyboardButton:
    return styles.button(TICK + label if chosen else label, press)


def _row(setting: Setting, current: object,
         choices: Sequence[tuple[str, str | int | bool]]) -> list[InlineKeyboardButton]:
    return [_button(label, value == current, SettingsPress(setting, value))
            for label, value in choices]


def _balanced(items: Sequence[T], most: int) -> list[Sequence[T]]:
    """`items` in as few rows of at most `most` as they need, as even as they go (auto and
    twelve languages: 4, 3, 3, 3, not 4, 4, 4, 1)."""
    count = -(-len(items) // most)
    rows, start = [], 0
    for row in range(count):
        size = len(items) // count + (row < len(items) % count)
        rows.append(items[start:start + size])
        start += size
    return rows


def settings_keyboard(tr: Translator, s: ChatSettings, *, private: bool) -> InlineKeyboardMarkup:
    languages: list[tuple[str, str | int | bool]] = [
        (tr.t("settings.button_auto"), "auto"),
        *((language_name(lang), lang) for lang in LANGUAGES)]
    rows = [_row(Setting.LANGUAGE, s.language or "auto", part)
            for part in _balanced(languages, LANGUAGES_PER_ROW)]
    if private:
        rows.append(_row(Setting.NUDGES, s.nudges, [
            (tr.t("settings.nudges_on"), True), (tr.t("settings.nudges_off"), False)]))
    else:
        timers: list[tuple[str, str | int | bool]] = [
            (tr.t("settings.button_off") if t == 0 else duration(tr, t), t)
            for t in TIMER_CHOICES]
        half = len(timers) // 2
        rows += [
            _row(Setting.TIMER, s.turn_timer, timers[:half]),
            _row(Setting.TIMER, s.turn_timer, timers[half:]),
            _row(Setting.STACK, s.default_stack, [(str(n), n) for n in STACK_CHOICES]),
            _row(Setting.CARDS_OUT, s.show_cards_out, [
                (tr.t("settings.button_shown"), True), (tr.t("settings.button_hidden"), False)]),
            _row(Setting.REVEALS, s.keep_reveals, [
                (tr.t("settings.button_folded"), False), (tr.t("settings.button_kept"), True)]),
            _row(Setting.SEASON, s.season, [
                (tr.t(f"settings.button_season_{k}"), k) for k in ("none", "month", "quarter")]),
        ]
        if s.season != "none":
            rows.append(_row(Setting.SEASON_RESET, s.season_reset, [
                (tr.t("settings.button_season_continue"), False),
                (tr.t("settings.button_season_reset"), True)]))
        rows.append(_row(Setting.DECK, s.four_colour_deck, [
            (tr.t("settings.button_deck_classic"), False),
            (tr.t("settings.button_deck_four"), True)]))
    done = SettingsPress(Setting.CLOSE)
    rows.append([styles.button(tr.t("settings.button_done"), done)])
    return InlineKeyboardMarkup(rows)
