"""/history: one line a duel, newest first, saying how it ended, in both languages."""

from __future__ import annotations

import pytest

from bot.i18n import Texts
from bot.stats.text import history_text
from bot.storage import DuelResult, ResultReason

T0 = 1_700_000_000  # 2023-11-14 22:13 UTC
NAMES = {1: "Alice", 2: "<Bob>", 3: "Кэрол"}


def row(n: int, winner: int | None, reason: ResultReason = ResultReason.NORMAL,
        stacks: tuple[int, int] = (60, 40)) -> DuelResult:
    return DuelResult(duel_id=n, chat_id=-1, players=(1, 2 if n % 2 else 3),
                      final_stacks=stacks, start_stack=50, winner_id=winner, reason=reason,
                      best_hands=(None, None), bonus_chips=(0, 0), bullets=6,
                      finished_at=T0 + 86_400 * n)


@pytest.fixture(scope="module")
def texts() -> Texts:
    return Texts.load(strict=True)


def test_each_way_a_duel_ends_in_english(texts: Texts) -> None:
    rows = [row(5, 1), row(4, None, stacks=(50, 50)), row(3, 1, ResultReason.SURRENDER),
            row(2, 3, ResultReason.TIMEOUT, (47, 53)), row(1, 2, ResultReason.TIEBREAK, (45, 55))]
    lines = history_text(texts["en"], rows, NAMES).splitlines()
    assert lines == [
        "📜 <b>The last duels here</b> (newest first)",
        "2023-11-19 · <b>Alice</b> 60–40 <b>&lt;Bob&gt;</b> · 🏆 Alice won",
        "2023-11-18 · <b>Alice</b> 50–50 <b>Кэрол</b> · 🤝 a draw",
        "2023-11-17 · <b>Alice</b> 60–40 <b>&lt;Bob&gt;</b> · 🏆 Alice won, &lt;Bob&gt;"
        " surrendered",
        "2023-11-16 · <b>Alice</b> 47–53 <b>Кэрол</b> · 🏆 Кэрол won, Alice ran out of time",
        "2023-11-15 · <b>Alice</b> 45–55 <b>&lt;Bob&gt;</b> · 🏆 &lt;Bob&gt; won the tiebreak",
    ]


def test_russian_and_the_empty_history(texts: Texts) -> None:
    ru = history_text(texts["ru"], [row(3, 1, ResultReason.SURRENDER)], NAMES)
    assert ru.splitlines()[1].endswith("🏆 победа: Alice · &lt;Bob&gt; сдаётся")
    assert history_text(texts["en"], [], NAMES).startswith("No finished duels here yet")
    assert history_text(texts["ru"], [], NAMES, in_chat=False) == (
        "Вы ещё не доиграли ни одной дуэли.")
    mine = history_text(texts["en"], [row(1, 1)], {}, in_chat=False)
    assert mine.splitlines() == ["📜 <b>Your last duels</b> (newest first)",
                                 "2023-11-15 · <b>?</b> 60–40 <b>?</b> · 🏆 ? won"]
