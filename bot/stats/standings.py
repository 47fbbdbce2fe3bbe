"""Standings, pure: finished duels' results in, each player's figures and ranking out.

    ranking(results, ratings)             -> [Standing(rank, user_id, figures, rating), ...],
                                             best first: by rating, then net chips
    season_ranking(results, start, end, reset=False)
                                          -> the ranking of a season: [start, end) seconds;
                                             with reset, its ratings start from a newcomer's
    all_figures(results)                  -> {user_id: Figures} of every player, in one pass
    figures_for(results, user_id)         -> that player's Figures
    head_to_head(results, a, b)           -> a's Figures over the duels between a and b
    rating_history(results, user_id)      -> (shown, ...) after each of their duels, oldest first
    ranked([(user_id, figures, rating)])  -> as `ranking` orders them (the kept rows' own)

This replay is the definition of the numbers; /stats reads them from the rows kept as results
are saved (bot.storage.standings, moved by the same pure code: rules.standing, rules.rating),
bounded by what it shows, and a property test holds both to the same answers.

Only finished duels have a result (an abandoned duel never gets one: bot.storage), so every row
counts. A surrender or a timeout is a result with a winner: a loss for the one who gave up or
ran out of time. A draw (a declined tiebreak) is neither a win nor a loss. Net chips are the
final stack minus the starting one, as the duel left them.

The order is by skill: each player's Weng-Lin rating in the chat (rules.rating, stored by
bot.storage.ratings with every result), as shown (rounded), then net chips, wins and fewer
losses. Net chips, W–D–L and the win rate stay as figures.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from bot.storage import DuelResult
from render.standings import Figures
from rules import rating
from rules.hands import HandValue
from rules.rating import Game, Rating, replay
from rules.standing import Tally, outcome

TOP = 10  # rows of a leaderboard


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    user_id: int
    figures: Figures
    rating: Rating


def chronological(results: Iterable[DuelResult]) -> list[DuelResult]:
    return sorted(results, key=lambda r: (r.finished_at, r.duel_id))


def figures_of(t: Tally) -> Figures:
    """A tally as the figures a board and a card show (the best hand as its category)."""
    best = None if t.best is None else HandValue.from_strength(t.best).category
    return Figures(played=t.played, wins=t.wins, losses=t.losses, draws=t.draws, net=t.net,
                   best=best, top_bonus=t.top_bonus, streak=t.streak)


def _add(t: Tally, r: DuelResult, me: int) -> None:
    """Result `r` on the tally of its player `me` (0 or 1): rules.standing's, as the kept rows
    add it (bot.storage.standings)."""
    t.add(r.final_stacks[me] - r.start_stack, r.bonus_chips[me], r.best_hands[me],
          outcome(r.winner_id, r.players[me]))


def all_figures(results: Iterable[DuelResult]) -> dict[int, Figures]:
    """Every player's record over `results`, in one pass."""
    tallies: dict[int, Tally] = {}
    for r in chronological(results):
        for me, user_id in enumerate(r.players):
            _add(tallies.setdefault(user_id, Tally()), r, me)
    return {uid: figures_of(t) for uid, t in tallies.items()}


def figures_for(results: Iterable[DuelResult], user_id: int) -> Figures:
    """`user_id`'s record over the results they played in (the others are skipped)."""
    return all_figures(r for r in results if user_id in r.players).get(user_id, Figures())


def replayed(results: Iterable[DuelResult]) -> dict[int, Rating]:
    """Each player's rating after `results` of one chat, oldest first: what the stored ratings
    hold (bot.storage.ratings moves them by the same results in the same order)."""
    games = (Game(r.chat_id, r.players, r.winner_id) for r in chronological(results))
    return {uid: r for (_, uid), r in replay(games).items()}


def _key(s: Standing) -> tuple[int, int, int, int]:
    """A higher shown rating first; then more net chips; then more wins; then fewer losses."""
    f = s.figures
    return (-rating.shown(s.rating), -f.net, -f.wins, f.losses)


def ranking(results: Sequence[DuelResult],
            ratings: Mapping[int, Rating] | None = None) -> list[Standing]:
    """Every player of `results`, best first, by their rating in `ratings` (the chat's stored
    ones; None: replayed from `results`; a player missing from it has a newcomer's rating).
    Players level on the shown rating, net chips, wins and losses share a rank (1, 2, 2, 4);
    among them the order is by user id, so it is stable."""
    figures = all_figures(results)
    known = replayed(results) if ratings is None else ratings
    return ranked((uid, f, known.get(uid) or rating.initial()) for uid, f in figures.items())


def ranked(players: Iterable[tuple[int, Figures, Rating]]) -> list[Standing]:
    """(user id, figures, rating) of each player, ranked as `ranking` ranks them."""
    unordered = [Standing(0, uid, f, r) for uid, f, r in players]
    out: list[Standing] = []
    for i, s in enumerate(sorted(unordered, key=lambda s: (_key(s), s.user_id))):
        level = bool(out) and _key(out[-1]) == _key(s)
        out.append(Standing(out[-1].rank if level else i + 1, s.user_id, s.figures, s.rating))
    return out


def season_ranking(results: Sequence[DuelResult], start: int, end: int, *,
                   reset: bool = False) -> list[Standing]:
    """The standings of a season, the duels finished in [start, end) (bot.stats.seasons): the
    players are ranked by the rating they reached. A season goes on from the ratings its
    players already had, so every result before `end` is replayed, in order; with `reset` (the
    chat's setting season_reset) everyone starts it as a newcomer (rules.rating.initial) and
    only the season's own results are replayed. Their figures (W–D–L, net chips) count the
    season's duels only, and only its players are listed."""
    before_end = [r for r in results if r.finished_at < end]
    window = [r for r in before_end if r.finished_at >= start]
    return ranking(window, replayed(window if reset else before_end))


def climbs(results: Sequence[DuelResult], start: int, end: int, *,
           reset: bool = False) -> dict[int, int]:
    """How far each player of the season [start, end) moved their shown rating over it: the
    rating reached minus the one they came in with (a newcomer's, for a first season or, with
    `reset`, for every season)."""
    before = {} if reset else replayed([r for r in results if r.finished_at < start])
    reached = {s.user_id: s.rating
               for s in season_ranking(results, start, end, reset=reset)}
    return {uid: rating.shown(r) - rating.shown(before.get(uid) or rating.initial())
            for uid, r in reached.items()}


def top_and_you(
    standings: Sequence[Standing], asker_id: int, top: int = TOP
) -> tuple[list[Standing], Standing | None]:
    """The first `top` standings, and the asker's own when it is not among them."""
    head = list(standings[:top])
    if any(s.user_id == asker_id for s in head):
        return head, None
    return head, next((s for s in standings if s.user_id == asker_id), None)


def head_to_head(results: Iterable[DuelResult], user_id: int, opponent_id: int) -> Figures:
    """`user_id`'s record in the duels between `user_id` and `opponent_id`."""
    between = [r for r in results if set(r.players) == {user_id, opponent_id}]
    return figures_for(between, user_id)


def rating_history(results: Iterable[DuelResult], user_id: int) -> tuple[int, ...]:
    """`user_id`'s shown rating (rules.rating.shown) after each of their duels in `results`
    (one chat's), oldest first: the chat's results replayed in order (finished_at, duel_id),
    as bot.storage.ratings moved the stored ratings, so nothing more needs storing."""
    known: dict[int, Rating] = {}
    out: list[int] = []
    for r in chronological(results):
        game = Game(r.chat_id, r.players, r.winner_id)
        a, b = r.players
        known[a], known[b] = rating.after_duel(known.get(a) or rating.initial(),
                                               known.get(b) or rating.initial(), game.winner())
        if user_id in r.players:
            out.append(rating.shown(known[user_id]))
    return tuple(out)
