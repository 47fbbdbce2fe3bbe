"""bench/bot_load.py's figures and tables: one run's figures, what a tap costs (Bot API calls
from the fake, database statements, transactions and pictures from the bot's /metrics), and
the tables over many runs (medians per tree, engine and duel count; this tree beside the other;
each count against the smallest)."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import httpx
from prometheus_client.parser import text_string_to_metric_families

from bench.pg_usage import ServerUsage

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]
# What a tap costs inside the bot, each the sum of these samples over their labels (a tree whose
# /metrics lacks one, e.g. from before its counter, shows n/a for it).
BOT_COUNTS: dict[str, tuple[str, dict[str, str]]] = {
    "statements": ("sixshooter_db_statement_seconds_count", {}),
    "statement_seconds": ("sixshooter_db_statement_seconds_sum", {}),  # waits included
    "answers": ("sixshooter_tap_latency_seconds_count", {}),
    "answer_seconds": ("sixshooter_tap_latency_seconds_sum", {}),
    "transactions": ("sixshooter_db_transactions_total", {}),
    "pictures": ("sixshooter_draws_total", {}),
    "unanswered": ("sixshooter_taps_total", {"outcome": "unanswered"})}  # as the bot saw it
NA = "n/a"


@dataclass
class Figures:
    """One run's figures."""

    label: str  # the tree and engine ("this tree, sqlite"), workers if any
    engine: str
    workers: int = 0  # webhook worker processes (0: the one polling bot)
    duels: int = 0
    think: float = 0.0
    taps: int = 0
    bot_cpu: float = 0.0
    children_cpu: float = 0.0  # the bot's child processes (its search pool), apart
    children_mb: float = 0.0  # their largest peak resident memory
    bench_cpu: float = 0.0  # this process's (the fake's and the players'), on the same cores
    pg_cpu: float | None = None  # the database's backends (PostgreSQL only)
    latencies: list[float] = field(default_factory=list)
    peak_mb: float = 0.0
    pg: ServerUsage | None = None
    calls: Counter[str] = field(default_factory=Counter)  # Bot API calls in the play phase
    counts: dict[str, float | None] | None = None  # BOT_COUNTS in the play phase; None: n/a
    late: int = 0  # presses answered too late (the fake refused the answer, as Telegram does)
    unanswered: int = 0  # presses with no answer at all within Telegram's 15 s
    failed: int = 0  # presses that moved nothing (the bot's apology, or nothing within --wait)

    @property
    def tree(self) -> str:
        return self.label.split(",", 1)[0]

    @property
    def per_cpu(self) -> float:
        return self.taps / max(self.bot_cpu, 1e-9)

    @property
    def per_pg_cpu(self) -> float | None:
        return None if self.pg_cpu is None else self.taps / max(self.pg_cpu, 1e-9)

    @property
    def per_total_cpu(self) -> float:
        return self.taps / max(self.bot_cpu + (self.pg_cpu or 0.0), 1e-9)

    @property
    def api_per_tap(self) -> float:
        return sum(self.calls.values()) / max(self.taps, 1)

    def per_tap(self, what: str) -> float | None:
        value = None if self.counts is None else self.counts.get(what)
        return None if value is None else value / max(self.taps, 1)


def pct(values: list[float], q: float) -> float:
    """The q-quantile of latencies in seconds, in ms (nan for none)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


# --- the bot's own counters --------------------------------------------------------------------

async def scrape(ports: Iterable[int]) -> list[Samples] | None:
    """Each bot process's /metrics as samples; None if any has none (an older tree)."""
    found = []
    async with httpx.AsyncClient(timeout=5) as client:
        for port in ports:
            try:
                response = await client.get(f"http://127.0.0.1:{port}/metrics")
                response.raise_for_status()
            except httpx.HTTPError:
                return None
            found.append({(s.name, frozenset(s.labels.items())): s.value
                          for family in text_string_to_metric_families(response.text)
                          for s in family.samples})
    return found


def _total(scrapes: list[Samples], name: str, labels: dict[str, str]) -> float | None:
    values = [v for samples in scrapes for (n, ls), v in samples.items()
              if n == name and set(labels.items()) <= ls]
    return sum(values) if values else None


def bot_counts(before: list[Samples] | None,
               after: list[Samples] | None) -> dict[str, float | None] | None:
    """What the processes counted between two scrapes (summed over them); None without both."""
    if before is None or after is None:
        return None
    counts: dict[str, float | None] = {}
    for what, (name, labels) in BOT_COUNTS.items():
        end = _total(after, name, labels)
        counts[what] = None if end is None else end - (_total(before, name, labels) or 0.0)
    return counts


def _num(value: float | None, digits: int = 2) -> str:
    return NA if value is None else f"{value:.{digits}f}"


def per_tap_line(f: Figures) -> str:
    """Bot API calls (by method), database statements and transactions, pictures per tap."""
    methods = ", ".join(f"{k} {v / max(f.taps, 1):.2f}" for k, v in f.calls.most_common())
    return (f"[{f.label}] per tap: Bot API {f.api_per_tap:.2f} ({methods or 'none'}); "
            f"database {_num(f.per_tap('statements'))} statements in "
            f"{_num(f.per_tap('transactions'))} transactions; pictures "
            f"{_num(f.per_tap('pictures'))}" + ("" if f.counts is not None else
                                                 " (no /metrics: n/a)")
            + (f"; presses the bot saw unanswered: {unanswered:.0f}"
               if (unanswered := (f.counts or {}).get("unanswered")) else "")
            + _inside(f.counts or {}))


def _inside(counts: dict[str, float | None]) -> str:
    """The bot's own means: a statement's time (its wait for a connection and for the
    interpreter included) and a press's, from its arrival to Telegram's answer."""
    said = []
    for what, of in (("statement", "statement"), ("press answered", "answer")):
        n, seconds = counts.get(f"{of}s"), counts.get(f"{of}_seconds")
        if n and seconds is not None:
            said.append(f"{what} {seconds / n * 1000:.2f} ms")
    return f"; mean inside the bot: {', '.join(said)}" if said else ""


def print_run(f: Figures, opened: float, wall: float) -> None:
    pace = f"each tap after {f.think:g} s on average" if f.think else "each tap at once"
    print(f"[{f.label}] duels: {f.duels} concurrent (opened in {opened:.1f} s), {pace}; "
          f"taps: {f.taps}")
    print(f"[{f.label}] throughput: {f.taps / wall:7.1f} taps/s wall clock, "
          f"{f.per_cpu:7.1f} taps per CPU-second of the bot "
          f"({f.bot_cpu:.1f} s CPU over {wall:.1f} s; the fake and the players "
          f"{f.bench_cpu:.1f} s more, on the same cores)")
    if f.pg is not None and f.per_pg_cpu is not None:
        c, taps = f.pg.counters, max(f.taps, 1)
        written = sum(c.get(k, 0) for k in ("tup_inserted", "tup_updated", "tup_deleted"))
        print(f"[{f.label}] PostgreSQL: {f.per_pg_cpu:7.1f} taps per CPU-second of its "
              f"{f.pg.backends} backends ({f.pg.backend_cpu:.1f} s CPU; the server's shared "
              f"processes {f.pg.shared_cpu:.1f} s more, all databases); per tap "
              f"{(c.get('xact_commit', 0) + c.get('xact_rollback', 0)) / taps:.1f} "
              f"transactions, {written / taps:.1f} rows written, "
              f"{c.get('tup_fetched', 0) / taps:.1f} rows fetched")
    print(f"[{f.label}] latency per tap (delivered -> answered and drawn): "
          f"p50 {pct(f.latencies, .5):6.1f} ms  p95 {pct(f.latencies, .95):6.1f} ms  "
          f"p99 {pct(f.latencies, .99):6.1f} ms  "
          f"mean {statistics.fmean(f.latencies) * 1000:6.1f} ms"
          + (f"; {f.late} answers came too late (over 15 s: refused, as Telegram would)"
             if f.late else "")
          + (f"; {f.unanswered} presses had no answer within 15 s" if f.unanswered else "")
          + (f"; {f.failed} presses failed (answered ⚠️, or moved nothing): tapped "
             "again" if f.failed else ""))
    print(f"[{f.label}] bot peak memory (VmHWM): {f.peak_mb:.1f} MB"
          + (f"; its search processes (bot.offload, apart): {f.children_cpu:.1f} s CPU, "
             f"peak {f.children_mb:.1f} MB" if f.children_mb else ""))
    print(per_tap_line(f), flush=True)


# --- tables over many runs ---------------------------------------------------------------------

def _median(fs: list[Figures], of: Callable[[Figures], float | None]) -> float | None:
    values = [v for f in fs if (v := of(f)) is not None]
    return statistics.median(values) if values else None


def _quantile(q: float) -> Callable[[Figures], float]:
    return lambda f: pct(f.latencies, q)


def _faults(fs: list[Figures]) -> str:
    return "/".join(str(max(getattr(f, k) for f in fs)) for k in ("late", "unanswered",
                                                                   "failed"))


def _groups(runs: list[Figures]) -> dict[tuple[str, int], list[Figures]]:
    groups: dict[tuple[str, int], list[Figures]] = {}
    for f in runs:
        groups.setdefault((f.label, f.duels), []).append(f)
    return groups


def table(runs: list[Figures]) -> None:
    """Medians per tree, engine and duel count, each run's taps per CPU-second beside (the
    noise); latency quantiles; calls per tap."""
    print(f"\n{'':33} {'duels':>5} {'taps/CPU-s':>10} {'(each run)':>16} {'PG':>6} "
          f"{'bot+PG':>6} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} {'peak MB':>7} "
          f"{'API/tap':>7} {'SQL/tap':>7} {'tx/tap':>6} {'pics/tap':>8} {'late/none/fail':>15}")
    for (label, duels), fs in _groups(runs).items():
        each = " ".join(f"{f.per_cpu:.1f}" for f in fs)
        print(f"{label:33} {duels:5d} {_median(fs, lambda f: f.per_cpu):10.1f} {each:>16} "
              f"{_num(_median(fs, lambda f: f.per_pg_cpu), 1):>6} "
              f"{_num(_median(fs, lambda f: f.per_total_cpu), 1):>6} "
              + " ".join(f"{_num(_median(fs, _quantile(q)), 0):>7}"
                         for q in (.5, .95, .99))
              + f" {max(f.peak_mb for f in fs):7.1f}"
              f" {_num(_median(fs, lambda f: f.api_per_tap)):>7}"
              f" {_num(_median(fs, lambda f: f.per_tap('statements'))):>7}"
              f" {_num(_median(fs, lambda f: f.per_tap('transactions'))):>6}"
              f" {_num(_median(fs, lambda f: f.per_tap('pictures'))):>8}"
              f" {_faults(fs):>15}")
    print("(late/none/fail: presses whose answer came over 15 s after them, refused as "
          "Telegram would / that had none within those 15 s / that moved nothing, tapped "
          "again; the most of any run)")
    engines = {(f.tree, f.engine) for f in runs}
    for tree in sorted({t for t, _ in engines}):
        sq = _median([f for f in runs if f.tree == tree and f.engine == "sqlite"],
                     lambda f: f.per_cpu)
        pg = _median([f for f in runs if f.tree == tree and f.engine == "postgresql"],
                     lambda f: f.per_cpu)
        if sq and pg:
            print(f"{tree}: PostgreSQL / SQLite, taps per CPU-second of the bot: "
                  f"{pg / sq:.2f}x (goal: at least 0.8x)")


_Column = tuple[str, Callable[[Figures], float | None], int]
_SPEED: list[_Column] = [("taps/CPU-s", lambda f: f.per_cpu, 1), ("p50 ms", _quantile(.5), 0),
                         ("p95 ms", _quantile(.95), 0), ("p99 ms", _quantile(.99), 0),
                         ("peak MB", lambda f: f.peak_mb, 1)]
_PER_TAP: list[_Column] = [("Bot API calls", lambda f: f.api_per_tap, 2),
                           ("SQL statements", lambda f: f.per_tap("statements"), 2),
                           ("transactions", lambda f: f.per_tap("transactions"), 2),
                           ("pictures", lambda f: f.per_tap("pictures"), 2)]


def side_by_side(runs: list[Figures]) -> None:
    """This tree beside the other, per engine and duel count: medians and this / against."""
    pairs: dict[tuple[str, int], dict[str, list[Figures]]] = {}
    for f in runs:
        pairs.setdefault((f.engine, f.duels), {}).setdefault(f.tree, []).append(f)
    rows = [(k, v) for k, v in pairs.items() if "this tree" in v and "against" in v]
    if not rows:
        return
    for title, columns in (("", _SPEED), (" per tap", _PER_TAP)):
        print(f"\n{'this tree | against' + title:20} "
              + " ".join(f"{name:>22}" for name, _, _ in columns))
        for (engine, duels), trees in rows:
            cells = []
            for _, of, digits in columns:
                a, b = _median(trees["this tree"], of), _median(trees["against"], of)
                ratio = f"{a / b:.2f}x" if a is not None and b else NA
                cells.append(f"{_num(a, digits):>7} | {_num(b, digits):>7} {ratio:>5}")
            print(f"{engine + ', ' + str(duels) + ' duels':20} "
                  + " ".join(f"{c:>22}" for c in cells))
    print("(the last figure of each: this tree / against; issue 21's goal: taps per CPU-second "
          "at least 3x the checkout before it)")


def scale(runs: list[Figures]) -> None:
    """Per tree and engine, each duel count against the smallest: taps per CPU-second and
    its ratio (issue 21's goal: the largest within 15 % of the smallest), memory per duel."""
    counts = sorted({f.duels for f in runs})
    if len(counts) < 2:
        return
    print(f"\n{'scale':33} {'duels':>5} {'taps/CPU-s':>10} {'x smallest':>10} {'p50 ms':>7} "
          f"{'p95 ms':>7} {'p99 ms':>7} {'peak MB':>7} {'MB/duel':>7}")
    for label in dict.fromkeys(f.label for f in runs):
        mine = [f for f in runs if f.label == label]
        by_count = {n: [f for f in mine if f.duels == n] for n in counts}
        done = [n for n in counts if by_count[n]]
        if not done:
            continue
        low = done[0]
        low_cpu = _median(by_count[low], lambda f: f.per_cpu) or 0.0
        low_mb = max(f.peak_mb for f in by_count[low])
        for n in done:
            fs = by_count[n]
            per_cpu = _median(fs, lambda f: f.per_cpu) or 0.0
            peak = max(f.peak_mb for f in fs)
            per_duel = f"{(peak - low_mb) / (n - low):7.3f}" if n > low else f"{'':7}"
            print(f"{label:33} {n:5d} {per_cpu:10.1f} {per_cpu / max(low_cpu, 1e-9):9.2f}x "
                  + " ".join(f"{_num(_median(fs, _quantile(q)), 0):>7}"
                             for q in (.5, .95, .99))
                  + f" {peak:7.1f} {per_duel}")
    print("goals (issue 21): the largest count's taps per CPU-second at least 0.85x the "
          "smallest's; at most ~0.3 MB per live duel")
