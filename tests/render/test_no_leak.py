"""No picture can show a hidden card.

By construction: render/ draws from the public views only (rules.duel.view, rules.sixcard.view;
it never sees a DuelState or a deck).
By test: two duels that differ only in cards nobody has seen (the hidden four of each hand in
play, the undealt rest) give byte-identical pictures at every moment.
"""

from __future__ import annotations

import ast
import dataclasses
import random
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import render
from bot.i18n import translator
from rules.cards import Card, shuffled_deck
from rules.duel import DuelState, PublicView

RENDER = Path(render.__file__).parent
EN, RU = translator("en"), translator("ru")
NAMES = ("Алиса", "Bob")


def play(decks: list[tuple[Card, ...]], salts: list[bytes], moves: list[tuple[int, str]],
         start: int, first_dealer: int) -> DuelState:
    from rules.duel import parse_action

    s = DuelState.new(start, first_dealer)
    deals = iter(zip(decks, salts, strict=True))
    s.deal(*next(deals))
    for player, code in moves:
        if s.needs_deal:
            s.deal(*next(deals))
        s.apply(parse_action(code), player)
    if s.needs_deal and len(decks) > s.round:
        s.deal(*next(deals))
    return s


def random_duel(seed: int, steps: int) -> tuple[list[tuple[Card, ...]], list[bytes],
                                                 list[tuple[int, str]], int, int]:
    rng = random.Random(seed)
    start, first = rng.choice((10, 20, 50)), rng.randrange(2)
    s = DuelState.new(start, first)
    decks, salts, moves = [], [], []
    for _ in range(steps):
        if s.is_over:
            break
        if s.needs_deal:
            decks.append(shuffled_deck(rng))
            salts.append(rng.randbytes(8))
            s.deal(decks[-1], salts[-1])
            continue
        player = rng.choice(s.players_to_act)
        actions = s.legal_actions(player)
        # lean towards accepting a tiebreak, so that tiebreak deals get covered too
        action = actions[0] if rng.random() < 0.8 else rng.choice(actions)
        moves.append((player, str(action)))
        s.apply(action, player)
    return decks, salts, moves, start, first


def visible(view: PublicView) -> set[Card]:
    seen = {h.face_up for h in view.hands} | set(view.cards_out)
    for h in view.hands:
        seen |= set(h.cards or ())
    return seen


def public_part(view: PublicView) -> PublicView:
    """The view less the deal's commitment and the proofs: a hash of the deck, and decks of
    deals that are over. Pictures draw neither."""
    return dataclasses.replace(view, commitment=None, proofs=())


def pictures(view: PublicView) -> list[bytes]:
    out = [render.table(view, names=NAMES, labels=RU),
           render.table(view, names=NAMES, labels=EN, show_cards_out=False, fmt="png")]
    if view.results:
        out.append(render.reveal(view, names=NAMES, labels=EN))
    if view.is_over:
        out.append(render.result(view, names=NAMES, labels=RU))
    return out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(1, 40), shuffle=st.randoms())
def test_hidden_cards_never_change_a_picture(seed: int, steps: int,
                                             shuffle: random.Random) -> None:
    decks, salts, moves, start, first = random_duel(seed, steps)
    a = play(decks, salts, moves, start, first)
    view_a = a.public_view()
    # Move the cards nobody can see to other places in the current deal's deck.
    seen = visible(view_a)
    deck = list(decks[-1])
    hidden_at = [i for i, c in enumerate(deck) if c not in seen]
    assert len(hidden_at) >= 2
    cards = [deck[i] for i in hidden_at]
    moved = cards[1:] + cards[:1] if shuffle.random() < 0.5 else shuffle.sample(cards, len(cards))
    if moved == cards:
        moved = cards[1:] + cards[:1]
    for i, c in zip(hidden_at, moved, strict=True):
        deck[i] = c
    b = play([*decks[:-1], tuple(deck)], salts, moves, start, first)
    view_b = b.public_view()
    assert tuple(deck) != decks[-1]
    assert public_part(view_a) == public_part(view_b)
    assert pictures(view_a) == pictures(view_b)


def test_hidden_cards_really_differ_in_a_crafted_case() -> None:
    """The property above is not vacuous: the hands in play do hold different cards."""
    decks, salts, moves, start, first = random_duel(7, 2)
    a = play(decks, salts, moves, start, first)
    deck = list(decks[-1])
    deck[1], deck[40] = deck[40], deck[1]  # the second card of hand #1, and an undealt one
    b = play([tuple(deck)], salts, moves, start, first)
    assert a.hand(0) != b.hand(0)
    assert pictures(a.public_view()) == pictures(b.public_view())


def _imports(path: Path, *, nested: bool = True) -> set[str]:
    """The modules `path` imports (`nested=False`: at module level only)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree) if nested else tree.body:
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def _modules() -> list[Path]:
    modules = sorted(RENDER.rglob("*.py"))
    assert len(modules) >= 10
    return modules


def test_render_draws_from_the_public_view_only() -> None:
    """Only the preview scripts (which play games to have something to draw) may touch a
    game's state; the drawing modules see the public views (rules.duel.view,
    rules.sixcard.view), cards and hand values, nothing else."""
    allowed = {"rules.duel.view", "rules.sixcard.view", "rules.cards", "rules.hands"}
    for path in _modules():
        rules = {m for m in _imports(path) if m.split(".")[0] == "rules"}
        if path.name.startswith("preview"):
            continue
        assert rules <= allowed, f"{path.name} imports {rules - allowed}"


def test_render_imports_nothing_from_bot_or_telegram() -> None:
    """The pictures take their words as a `Labels` argument, never from bot/. The preview
    scripts' command line alone asks bot.i18n for the catalogs' words, inside `main()`:
    importing any module of render/ (the previews too) loads nothing of bot/ or telegram."""
    for path in _modules():
        top = {m.split(".")[0] for m in _imports(path, nested=False)}
        assert not top & {"bot", "telegram"}, path.name
        nested = {m for m in _imports(path) if m.split(".")[0] in ("bot", "telegram")}
        if path.name.startswith("preview"):
            assert nested <= {"bot.i18n"}, (path.name, nested)
        else:
            assert not nested, (path.name, nested)
    modules = [".".join(p.relative_to(RENDER.parent).with_suffix("").parts) for p in _modules()]
    code = (f"import sys, importlib\nfor m in {modules!r}: importlib.import_module(m)\n"
            "bad = [m for m in sys.modules if m.split('.')[0] in ('bot', 'telegram')]\n"
            "assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=RENDER.parent)
