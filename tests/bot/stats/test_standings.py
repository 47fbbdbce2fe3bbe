"""Standings from finished duels' results: figures, ranking, head to head, and the words."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.i18n import Texts
from bot.stats.standings import (
    climbs,
    figures_for,
    head_to_head,
    ranking,
    rating_history,
    replayed,
    season_ranking,
    top_and_you,
)
from bot.stats.text import board_text, caption_length, card_text, fits_caption, split_caption
from bot.storage import DuelResult, DuelStatus, ResultReason, Storage
from render.standings import Figures
from rules import rating
from rules.hands import Category, HandValue
from rules.rating import Rating

ALICE, BOB, CAROL = 1, 2, 3
CHAT = -100
T0 = 1_700_000_000
FULL_HOUSE = HandValue(Category.FULL_HOUSE, (13, 7)).strength
PAIR = HandValue(Category.ONE_PAIR, (5, 14, 13, 12)).strength


def res(n: int, p0: int, p1: int, s0: int, *, winner: int | str | None = "stacks",
        reason: ResultReason = ResultReason.NORMAL, best: tuple[int | None, int | None] = (
            None, None), bonus: tuple[int, int] = (0, 0), start: int = 50,
        chat: int = CHAT) -> DuelResult:
    """Duel `n` between p0 and p1, p0 ending with `s0` (chips only move between the two)."""
    s1 = 2 * start - s0
    if winner == "stacks":
        winner = None if s0 == s1 else p0 if s0 > s1 else p1
    assert winner is None or isinstance(winner, int)
    return DuelResult(duel_id=n, chat_id=chat, players=(p0, p1), final_stacks=(s0, s1),
                      start_stack=start, winner_id=winner, reason=reason, best_hands=best,
                      bonus_chips=bonus, bullets=6, finished_at=T0 + 60 * n)


def test_figures_count_wins_losses_draws_net_best_bonus_and_streak() -> None:
    results = [
        res(1, ALICE, BOB, 62, best=(PAIR, FULL_HOUSE), bonus=(1, 7)),  # Alice wins
        res(2, BOB, ALICE, 50),  # a draw
        res(3, ALICE, CAROL, 41),  # Alice loses
        res(4, CAROL, ALICE, 45, best=(None, PAIR), bonus=(0, 3)),  # Alice wins
        res(5, ALICE, BOB, 55),  # Alice wins
    ]
    assert figures_for(results, ALICE) == Figures(
        played=5, wins=3, losses=1, draws=1, net=12 + 0 - 9 + 5 + 5, best=Category.ONE_PAIR,
        top_bonus=3, streak=2)
    assert figures_for(results, BOB) == Figures(
        played=3, wins=0, losses=2, draws=1, net=-12 + 0 - 5, best=Category.FULL_HOUSE,
        top_bonus=7, streak=-1)
    assert figures_for(results, 99) == Figures()
    assert figures_for(results, ALICE).win_rate == 60


def test_streaks_follow_the_order_of_the_duels_not_of_the_rows() -> None:
    rows = [res(3, ALICE, BOB, 40), res(1, ALICE, BOB, 60), res(2, ALICE, BOB, 60)]
    assert figures_for(rows, ALICE).streak == -1  # won 1 and 2, then lost 3
    assert figures_for(rows, BOB).streak == 1
    assert figures_for([*rows, res(4, BOB, ALICE, 50)], ALICE).streak == 0  # a draw ends it


def test_a_surrender_or_a_timeout_is_a_loss_for_whoever_gave_up() -> None:
    # Alice was ahead 58-42 when she surrendered; a timeout (hand-written: the turn timers'
    # rows look the same) at level stacks.
    rows = [res(1, ALICE, BOB, 58, winner=BOB, reason=ResultReason.SURRENDER),
            res(2, CAROL, ALICE, 50, winner=ALICE, reason=ResultReason.TIMEOUT)]
    alice, bob, carol = (figures_for(rows, p) for p in (ALICE, BOB, CAROL))
    assert (alice.wins, alice.losses, alice.draws) == (1, 1, 0)
    assert (bob.wins, bob.losses, carol.losses) == (1, 0, 1)
    assert alice.net == 8 and bob.net == -8  # the chips stay where the duel left them


def test_ranking_by_rating_then_net_then_wins_then_losses_with_shared_ranks() -> None:
    # one duel each: the three winners level on rating, by net chips; the losers likewise
    rows = [res(1, ALICE, BOB, 60), res(2, CAROL, 4, 55), res(3, 5, 6, 50), res(4, 7, 8, 60)]
    standings = ranking(rows)
    assert [(s.rank, s.user_id) for s in standings] == [
        (1, ALICE), (1, 7), (3, CAROL), (4, 5), (4, 6), (6, 4), (7, BOB), (7, 8)]
    assert [rating.shown(s.rating) for s in standings] == [1069] * 3 + [1016] * 2 + [963] * 3
    # more wins for the same rating and net chips ranks higher; then fewer losses
    level = {p: Rating(25, 5, 3) for p in (ALICE, BOB, CAROL, 4)}
    rows = [res(1, ALICE, BOB, 60), res(2, BOB, ALICE, 55), res(3, CAROL, 4, 55)]
    assert [s.user_id for s in ranking(rows, level)][:2] == [CAROL, ALICE]


def test_a_proven_player_ranks_above_a_lucky_newcomer_whatever_the_chips() -> None:
    """The issue's case: a 1–0 after a timeout win must not top a 7–5 player."""
    rows = [res(1, ALICE, BOB, 50, winner=ALICE, reason=ResultReason.TIMEOUT)]
    rows += [res(1 + n, CAROL, 10 + n, 40 if n <= 5 else 52) for n in range(1, 13)]
    standings = ranking(rows)
    alice, carol = (next(s for s in standings if s.user_id == p) for p in (ALICE, CAROL))
    assert (carol.figures.wins, carol.figures.losses) == (7, 5) and carol.figures.net < 0
    assert carol.rank < alice.rank and not rating.provisional(carol.rating)
    assert rating.provisional(alice.rating)


def test_the_stored_ratings_give_the_order_and_a_missing_one_is_a_newcomers() -> None:
    rows = [res(1, ALICE, BOB, 60)]
    stored = {BOB: Rating(40, 2, 30)}  # say, BOB's many duels before
    assert [(s.user_id, s.rating) for s in ranking(rows, stored)] == [
        (BOB, stored[BOB]), (ALICE, rating.initial())]
    assert ranking(rows)[0].rating == rating.after_duel(rating.initial(), rating.initial(), 0)[0]


def test_top_ten_and_the_askers_own_row() -> None:
    rows = [res(i, 100 + i, 200 + i, 50 + i) for i in range(1, 13)]  # twelve winners, ...
    standings = ranking(rows)
    top, you = top_and_you(standings, asker_id=201)  # the best loser
    assert len(top) == 10 and you is not None and you.user_id == 201 and you.rank == 13
    top, you = top_and_you(standings, asker_id=112)
    assert you is None and top[0].user_id == 112
    assert top_and_you(standings, asker_id=999)[1] is None


def test_head_to_head_counts_only_the_duels_between_the_two() -> None:
    rows = [res(1, ALICE, BOB, 60), res(2, BOB, ALICE, 53), res(3, ALICE, CAROL, 20),
            res(4, ALICE, BOB, 50)]
    assert head_to_head(rows, ALICE, BOB) == Figures(played=3, wins=1, losses=1, draws=1,
                                                     net=7, streak=0)
    assert head_to_head(rows, BOB, CAROL) == Figures()


@given(st.lists(st.tuples(st.integers(1, 6), st.integers(1, 6), st.integers(0, 100),
                          st.booleans()), max_size=30))
def test_standings_add_up(games: list[tuple[int, int, int, bool]]) -> None:
    rows = [res(i, a, b if b != a else a % 6 + 1, s0,
                reason=ResultReason.SURRENDER if surrender else ResultReason.NORMAL)
            for i, (a, b, s0, surrender) in enumerate(games)]
    standings = ranking(rows)
    figures = [s.figures for s in standings]
    assert sum(f.net for f in figures) == 0  # chips only move between players
    assert sum(f.wins for f in figures) == sum(f.losses for f in figures)
    assert sum(f.played for f in figures) == 2 * len(rows)
    assert all(f.played == f.wins + f.losses + f.draws for f in figures)
    assert [s.rank for s in standings] == sorted(s.rank for s in standings)
    assert all(0 <= f.win_rate <= 100 and abs(f.streak) <= f.played for f in figures)


# --- storage: only finished duels have results ------------------------------------------


async def test_an_abandoned_duel_never_counts(store: Storage) -> None:
    finished = await store.duels.create(CHAT, None, (ALICE, BOB), "{}", T0)
    await store.duels.save(finished.id, 0, "{}", status=DuelStatus.FINISHED, now=T0 + 1,
                           result=res(finished.id, ALICE, BOB, 70))
    await store.duels.create(CHAT, None, (ALICE, CAROL), "{}", T0 + 2)
    assert await store.duels.abandon_chat(CHAT, now=T0 + 3)
    rows = await store.results.for_chat(CHAT)
    assert [r.duel_id for r in rows] == [finished.id]
    assert figures_for(rows, CAROL) == Figures()
    assert [r.duel_id for r in await store.results.for_player(ALICE)] == [finished.id]


async def test_a_players_results_in_every_chat_and_the_latest_of_a_chat(store: Storage) -> None:
    for n, chat in enumerate((CHAT, CHAT, -200, CHAT), start=1):
        d = await store.duels.create(chat, None, (ALICE, BOB if n % 2 else CAROL), "{}", T0)
        await store.results.record(res(d.id, ALICE, BOB if n % 2 else CAROL, 55, chat=chat))
    assert [r.duel_id for r in await store.results.for_player(ALICE)] == [1, 2, 3, 4]
    assert [r.duel_id for r in await store.results.for_player(CAROL)] == [2, 4]
    assert [r.duel_id for r in await store.results.recent(CHAT, 2)] == [4, 2]
    assert [r.duel_id for r in await store.results.recent_for_player(BOB, 5)] == [3, 1]


# --- the words ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def texts() -> Texts:
    return Texts.load(strict=True)


def test_the_leaderboard_text_has_every_figure_and_escapes_names(texts: Texts) -> None:
    rows = [res(1, ALICE, BOB, 62, best=(FULL_HOUSE, PAIR), bonus=(7, 0))]
    top, you = top_and_you(ranking(rows), ALICE)
    names = {ALICE: "<b>Al & Co</b>", BOB: "Боб"}
    heading, lines = board_text(texts["en"], 1, top, you, names)
    assert heading == ("🏆 <b>Standings</b> after 1 duel\n<i>Ranked by rating, then by net "
                       "chips. Every duel moves the rating (a surrender or a timeout is a loss);"
                       " “?” marks one still settling, under 5 duels.</i>")
    assert lines[0] == ("1. <b>&lt;b&gt;Al &amp; Co&lt;/b&gt;</b> 1069? · +12 · 1 duel · 1–0–0 "
                        "(100%) · best: full house · bonus: 7 · streak: W1")
    assert lines[1].startswith("2. <b>Боб</b> 963? · −12 · 1 duel · 0–1–0 (0%) · best: one pair")
    ru_heading, ru_lines = board_text(texts["ru"], 5, top, you, names)
    assert ru_heading.splitlines()[0].endswith("5 дуэлей") and "1 дуэль · 1–0–0" in ru_lines[0]
    assert ru_heading.splitlines()[1].startswith("<i>Порядок: по рейтингу, затем по итогу")
    assert ru_lines[0].startswith("1. <b>&lt;b&gt;Al &amp; Co&lt;/b&gt;</b> 1069? · +12 · ")
    assert "серия: В1" in ru_lines[0] and "лучшая рука: фулл-хаус" in ru_lines[0]


def test_the_askers_row_comes_last_after_a_gap(texts: Texts) -> None:
    rows = [res(i, 100 + i, 200 + i, 60) for i in range(1, 12)]
    top, you = top_and_you(ranking(rows), 205)
    _, lines = board_text(texts["en"], 11, top, you, {})
    assert len(lines) == 12 and lines[10] == "" and lines[11].startswith("12. <b>?</b> 963? · −10")


def test_a_card_with_the_head_to_head(texts: Texts) -> None:
    """The asker (Alice) looks at Bob's card: the head to head is hers, Bob named once."""
    f = Figures(played=4, wins=2, losses=1, draws=1, net=-3, best=None, top_bonus=0, streak=-1)
    v = Figures(played=1, wins=1, losses=0, net=5)
    text = card_text(texts["en"], "Bob", f, in_chat=True, rank=2, players=3, versus=v,
                     rated="1012?")
    assert text.splitlines() == [
        "📇 <b>Bob</b> in this chat",
        "4 duels: won 2, lost 1, drawn 1 (50% won)", "Net chips: −3", "Best hand: —",
        "Biggest bonus: 0", "Streak: L1", "Place: 2 of 3 by rating (1012?)",
        "⚔️ You vs Bob: 1 duel · you won 1, lost 0, drew 0, net +5"]
    none = card_text(texts["ru"], "Bob", f, in_chat=False, versus=Figures())
    assert "во всех чатах" in none
    assert none.splitlines()[-1] == "⚔️ Bob и вы ещё не играли друг против друга."
    en_none = card_text(texts["en"], "Bob", f, in_chat=True, rank=2, players=3,
                        versus=Figures())
    assert en_none.splitlines()[-1] == "⚔️ You and Bob have not played each other yet."
    own = card_text(texts["en"], "Bob", f, in_chat=True, rank=2, players=3, rated="1012?")
    assert "⚔️" not in own and own.splitlines()[-1] == "Place: 2 of 3 by rating (1012?)"


@pytest.mark.parametrize(("n", "en", "ru"), [
    (1, "1 duel", "1 дуэль"), (2, "2 duels", "2 дуэли"), (5, "5 duels", "5 дуэлей"),
    (21, "21 duels", "21 дуэль")])
def test_the_head_to_head_is_from_the_askers_side(texts: Texts, n: int, en: str,
                                                  ru: str) -> None:
    """"You vs <the card's player>", the figures the asker's; Russian names stay in the
    nominative, whatever their gender (no verb agrees with them, «у вас побед»)."""
    v = Figures(played=n, wins=n - 1, losses=1, draws=0, net=7)
    f = Figures(played=n, wins=1, losses=n - 1)
    anna = card_text(texts["ru"], "Анна", f, in_chat=True, rank=1, players=2, versus=v,
                     rated="1104").splitlines()
    assert anna[-1] == (f"⚔️ Вы — Анна: {ru} · у вас побед {n - 1}, поражений 1, "
                        "ничьих 0, итог +7")
    assert anna[-2] == "Место: 1 из 2 по рейтингу (1104)"
    dima = card_text(texts["ru"], "Дмитрий", f, in_chat=True, rank=2, players=2,
                     versus=v).splitlines()
    assert dima[-1] == (f"⚔️ Вы — Дмитрий: {ru} · у вас побед {n - 1}, поражений 1, "
                        "ничьих 0, итог +7")
    eng = card_text(texts["en"], "Alice", f, in_chat=True, rank=1, players=2,
                    versus=v).splitlines()
    assert eng[-1] == f"⚔️ You vs Alice: {en} · you won {n - 1}, lost 1, drew 0, net +7"
    for name in ("Анна", "Дмитрий"):
        none = card_text(texts["ru"], name, f, in_chat=True, rank=1, players=2,
                         versus=Figures())
        assert none.splitlines()[-1] == f"⚔️ {name} и вы ещё не играли друг против друга."


def test_the_rating_history_replays_the_chats_results_in_order() -> None:
    """Alice beats Bob, Alice beats Carol, Bob and Alice draw, Carol beats Bob on time (a
    loss for Bob's rating): each player's shown rating after each of their duels, oldest
    first, whatever order the results come in (finished_at, then duel id)."""
    rows = [res(1, ALICE, BOB, 70), res(2, ALICE, CAROL, 60), res(3, BOB, ALICE, 50),
            res(4, BOB, CAROL, 55, winner=CAROL, reason=ResultReason.TIMEOUT)]
    tied = [replace(r, finished_at=T0) for r in rows]
    for given_ in (rows, rows[::-1], tied[::-1]):
        assert rating_history(given_, ALICE) == (1069, 1128, 1127)
        assert rating_history(given_, BOB) == (963, 993, 957)
        assert rating_history(given_, CAROL) == (969, 1036)
        assert rating_history(given_, 99) == ()
    final = replayed(rows)
    for uid in (ALICE, BOB, CAROL):
        assert rating_history(rows, uid)[-1] == rating.shown(final[uid])
    # the same as moving the ratings by hand, duel by duel
    i = rating.initial()
    a, b = rating.after_duel(i, i, 0)
    a, c = rating.after_duel(a, i, 0)
    b, a = rating.after_duel(b, a, None)
    b, c = rating.after_duel(b, c, 1)
    assert rating_history(rows, ALICE)[-1] == rating.shown(a)
    assert rating_history(rows, BOB)[-1] == rating.shown(b)
    assert rating_history(rows, CAROL)[-1] == rating.shown(c)


def test_a_missing_value_is_a_dash_and_a_real_zero_is_0(texts: Texts) -> None:
    """No hand shown yet and no streak: "—"; no bonus won and an even net: "0"."""
    f = Figures(played=2, wins=1, losses=1, net=0, best=None, top_bonus=0, streak=0)
    en = card_text(texts["en"], "Анна", f, in_chat=False)
    assert "Best hand: —" in en and "Biggest bonus: 0" in en and "Net chips: 0" in en
    assert "Streak: —" in en
    ru = card_text(texts["ru"], "Дмитрий", f, in_chat=False)
    assert "Лучшая рука: —" in ru and "Лучший бонус: 0" in ru and "Итог в фишках: 0" in ru
    rows = [res(1, ALICE, BOB, 50)]
    top, you = top_and_you(ranking(rows), ALICE)
    _, lines = board_text(texts["ru"], 1, top, you, {ALICE: "Анна", BOB: "Дмитрий"})
    assert "лучшая рука: — · бонус: 0 · серия: —" in lines[0]


def test_caption_length_is_counted_as_telegram_does() -> None:
    assert caption_length("<b>a &amp; b</b>") == 5
    assert caption_length("🏆") == 2  # one emoji is two UTF-16 code units
    assert fits_caption("x" * 1024) and not fits_caption("<i>" + "x" * 1025 + "</i>")


def test_a_long_table_moves_its_lines_out_of_the_caption(texts: Texts) -> None:
    long = "Александра Константиновна Преображенская-Старшая"
    rows = [res(i, 100 + i, 200 + i, 50 + i) for i in range(1, 12)]
    top, you = top_and_you(ranking(rows), 201)
    heading, lines = board_text(texts["ru"], 11, top, you, dict.fromkeys(range(300), long))
    caption, then = split_caption(heading, lines)
    assert caption == heading and then is not None and then.startswith(heading)
    assert all(line in then for line in lines)
    short, none = split_caption(heading, lines[:2])
    assert none is None and short == "\n".join([heading, *lines[:2]])


def test_a_season_goes_on_from_the_ratings_reached_and_counts_its_own_duels() -> None:
    # Duels 1-4 before the season (Alice beats Bob four times), 5-6 in it, 7 after it.
    before = [res(n, ALICE, BOB, 60) for n in range(1, 5)]
    inside = [res(5, BOB, CAROL, 60), res(6, CAROL, ALICE, 60)]
    after = [res(7, CAROL, BOB, 60)]
    start, end = T0 + 60 * 5, T0 + 60 * 7  # [duel 5, duel 7)
    season = season_ranking([*after, *inside, *before], start, end)
    assert {s.user_id for s in season} == {ALICE, BOB, CAROL}
    by_id = {s.user_id: s for s in season}
    # ratings: every result before the end replayed in order, not from a newcomer's
    assert by_id[ALICE].rating == replayed([*before, *inside])[ALICE]
    assert by_id[ALICE].rating.duels == 5
    # figures: the season's duels only
    assert (by_id[ALICE].figures.played, by_id[ALICE].figures.losses) == (1, 1)
    assert (by_id[BOB].figures.played, by_id[BOB].figures.wins) == (1, 1)
    assert season == ranking(inside, replayed([*before, *inside]))
    # a season nobody played in is empty; the one after holds only duel 7's players
    assert season_ranking(before, start, end) == []
    assert {s.user_id for s in season_ranking([*before, *inside, *after], end, end + 60)} == {
        BOB, CAROL}


def test_with_reset_a_season_starts_everyone_level_and_replays_its_own_duels_only() -> None:
    # Last month Alice beat Bob four times; this month Alice beats Carol and Bob beats Dave,
    # two newcomers: going on, Alice leads; with the reset, Alice and Bob start level.
    dave = 4
    before = [res(n, ALICE, BOB, 60) for n in range(1, 5)]
    inside = [res(5, ALICE, CAROL, 60), res(6, BOB, dave, 60)]
    start, end = T0 + 60 * 5, T0 + 60 * 7
    results = [*before, *inside]

    # By hand: with the reset both duels are between two newcomers' ratings.
    new = rating.initial()
    won, lost = rating.after_duel(new, new, 0)
    assert (rating.shown(won), rating.shown(lost)) == (1069, 963)  # rules.rating's docstring
    reset = season_ranking(results, start, end, reset=True)
    assert [(s.rank, s.user_id, s.rating) for s in reset] == [
        (1, ALICE, won), (1, BOB, won), (3, CAROL, lost), (3, dave, lost)]
    assert reset == ranking(inside)  # the season alone, as if nothing came before
    assert all(s.rating.duels == 1 for s in reset)

    # Going on (the default), the four wins before count: Alice 5 duels, Bob 5 duels.
    a, b = new, new
    for _ in range(4):
        a, b = rating.after_duel(a, b, 0)
    a_in, carol = rating.after_duel(a, new, 0)
    b_in, dave_in = rating.after_duel(b, new, 0)
    going_on = {s.user_id: s for s in season_ranking(results, start, end)}
    assert going_on == {s.user_id: s for s in season_ranking(results, start, end, reset=False)}
    assert (going_on[ALICE].rating, going_on[BOB].rating) == (a_in, b_in)
    assert going_on[ALICE].rank == 1 and going_on[BOB].rank > 1
    # the figures are the season's either way
    assert {s.user_id: s.figures for s in reset} == {
        uid: s.figures for uid, s in going_on.items()}

    # The climb is measured from where each came in: a newcomer's rating with the reset.
    assert climbs(results, start, end, reset=True) == {
        ALICE: 69, BOB: 69, CAROL: -37, dave: -37}
    assert climbs(results, start, end) == {
        ALICE: rating.shown(a_in) - rating.shown(a), BOB: rating.shown(b_in) - rating.shown(b),
        CAROL: rating.shown(carol) - 1000, dave: rating.shown(dave_in) - 1000}
    assert climbs(results, start, end)[CAROL] != -37  # losing to a proven Alice costs less

    # The all-time board is not a season: every result, whatever the setting.
    assert {s.user_id: s.rating for s in ranking(results)}[ALICE] == a_in
