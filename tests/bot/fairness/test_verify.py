"""/verify and `sixshooter verify`: a true round checks out; a tampered deck order or salt does
not; malformed input is named; a message's proof leads back to its round."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from bot.duel.captions import Seat, bullet_caption, header_caption, reveal_caption
from bot.duel.rounds import InPlay, Published, find_round
from bot.fairness.handlers import _published
from bot.fairness.verify import Malformed, Parts, claim, claim_from_args, proof_parts
from bot.i18n import Texts
from bot.storage import Storage, deals_of
from rules.cards import shuffled_deck
from rules.duel import Bet, DealProof, DuelState
from rules.fairness import deck_text, new_salt

REPO = Path(__file__).resolve().parents[3]
CHAT = -42
SEATS = (Seat(1, "Alice"), Seat(2, "Bob"))


def play_round(state: DuelState, rng: random.Random) -> None:
    """Deal if due, then play the three bullets of the deal."""
    if state.needs_deal:
        state.deal(shuffled_deck(rng), new_salt(rng))
    round_ = state.round
    while state.players_to_act and state.round == round_:  # five taps: one bet is forced
        player = state.players_to_act[0]
        state.apply(rng.choice(state.legal_actions(player)), player)


@cache
def round_two_live() -> DuelState:
    """Round 1 played, round 2 dealt and one bet placed in it."""
    rng = random.Random(11)
    state = DuelState.new(50, 0)
    play_round(state, rng)
    state.deal(shuffled_deck(rng), new_salt(rng))
    state.apply(Bet(0, 1), state.players_to_act[0])
    return state


def proof() -> DealProof:
    return round_two_live().public_view().proofs[0]


def tampered_deck(p: DealProof) -> str:
    cards = list(p.deck)
    cards[7], cards[30] = cards[30], cards[7]
    return deck_text(cards)


def test_a_true_round_checks_out() -> None:
    p = proof()
    assert claim(p.commitment, p.salt, deck_text(p.deck)).holds
    assert claim(p.commitment.upper(), f" {p.salt.upper()} ", " ".join(map(str, p.deck))).holds


def test_a_tampered_deck_order_salt_or_commitment_does_not() -> None:
    p = proof()
    assert not claim(p.commitment, p.salt, tampered_deck(p)).holds
    flipped = ("1" if p.salt[0] != "1" else "2") + p.salt[1:]
    assert not claim(p.commitment, flipped, deck_text(p.deck)).holds
    other = round_two_live().commitment
    assert other is not None and not claim(other, p.salt, deck_text(p.deck)).holds


@pytest.mark.parametrize(("commitment", "salt", "deck", "key"), [
    ("ab" * 31, "00", "", "verify.bad_commitment"),
    ("zz" * 32, "00", "", "verify.bad_commitment"),
    ("ab" * 32, "xyz", "", "verify.bad_salt"),
    ("ab" * 32, "abc", "", "verify.bad_salt"),  # an odd number of digits is no bytes
    ("ab" * 32, "", "", "verify.bad_salt"),
    ("ab" * 32, "00", "AsKd", "verify.bad_deck"),
    ("ab" * 32, "00", "Zz" * 52, "verify.bad_deck"),
    ("ab" * 32, "00", "As" * 52, "verify.bad_deck"),
])
def test_malformed_input_names_its_part(commitment: str, salt: str, deck: str, key: str) -> None:
    with pytest.raises(Malformed) as e:
        claim(commitment, salt, deck)
    assert e.value.refusal.key == key


def test_arguments_may_spread_the_deck_over_several_words() -> None:
    p = proof()
    assert claim_from_args([p.commitment, p.salt, *map(str, p.deck)]).holds
    with pytest.raises(Malformed) as e:
        claim_from_args([p.commitment, p.salt])
    assert e.value.refusal.key == "verify.usage"


# --- what the bot's messages show -----------------------------------------------------------


@pytest.fixture(scope="module")
def texts() -> Texts:
    return Texts.load(strict=True)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_header_shows_the_commitment_first_and_a_kept_reveal_the_salt_and_deck_last(
        texts: Texts, lang: str) -> None:
    state = round_two_live()
    view = state.public_view()
    last = next(r for r in view.results if r.number == 3)
    caption = reveal_caption(texts[lang], view, last, SEATS)
    assert proof_parts(caption) == Parts(None, proof().salt, deck_text(proof().deck))
    first = DuelState.from_json(_first_bullet_json()).public_view()
    assert proof_parts(header_caption(texts[lang], first, SEATS)) == Parts(
        proof().commitment, None, None)
    assert proof_parts(bullet_caption(texts[lang], first, SEATS)) == Parts(None, None, None)
    middle = next(r for r in view.results if r.number == 2)
    assert proof_parts(reveal_caption(texts[lang], view, middle, SEATS)) == Parts(None, None, None)


def _first_bullet_json() -> str:
    rng = random.Random(11)
    state = DuelState.new(50, 0)
    state.deal(shuffled_deck(rng), new_salt(rng))
    return state.to_json()


def test_a_message_with_a_tampered_deck_is_refused(texts: Texts) -> None:
    p = proof()
    found = Published(7, p)
    ok = _published(texts["en"], found, Parts(None, p.salt, deck_text(p.deck)))
    assert ok.startswith("✅ Round 1 of duel #7") and p.commitment in ok
    bad = _published(texts["en"], found, Parts(None, p.salt, tampered_deck(p)))
    assert bad.startswith("❌ Round 1 of duel #7") and "NOT" in bad
    shown = _published(texts["ru"], found, Parts(p.commitment, None, None))
    assert p.salt in shown and deck_text(p.deck) in shown and "окончен" in shown


# --- finding the round in the chat's duels --------------------------------------------------


async def test_the_round_is_found_by_salt_or_commitment_never_while_in_play(
        store: Storage) -> None:
    state = round_two_live()
    other = DuelState.from_json(_first_bullet_json())  # another duel, its first deal in play
    await store.duels.create(CHAT, None, (1, 2), other.to_json(), 0,
                             deals=deals_of(other.public_view()))
    record = await store.duels.create(CHAT, None, (1, 2), state.to_json(), 0,
                                      deals=deals_of(state.public_view()))
    p = proof()
    by_salt = await find_round(store, CHAT, Parts(None, p.salt, None))
    assert by_salt == Published(record.id, p)
    by_commitment = await find_round(store, CHAT, Parts(p.commitment, None, None))
    assert by_commitment == Published(record.id, p)
    live = await find_round(store, CHAT, Parts(state.commitment, None, None))
    assert live == InPlay(record.id)
    live_salt = await find_round(store, CHAT, Parts(None, state.salt.hex(), None))
    assert live_salt is None  # a deal in play shows nothing, even to its own salt
    assert await find_round(store, CHAT + 1, Parts(None, p.salt, None)) is None
    assert await find_round(store, CHAT, Parts(None, "00" * 16, None)) is None


# --- the command line -----------------------------------------------------------------------


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "SIXSHOOTER_"))}
    return subprocess.run([sys.executable, "-m", "bot", "verify", *args], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=60)


def test_the_command_line_needs_no_token_and_answers_by_exit_code() -> None:
    p = proof()
    ok = cli(p.commitment, p.salt, deck_text(p.deck))
    assert ok.returncode == 0 and ok.stdout.startswith("match") and p.commitment in ok.stdout
    bad = cli(p.commitment, p.salt, tampered_deck(p))
    assert bad.returncode == 1 and bad.stdout.startswith("MISMATCH")
    salted = cli(p.commitment, "00" + p.salt[2:], deck_text(p.deck))
    assert salted.returncode == 1
    malformed = cli(p.commitment, "salty", deck_text(p.deck))
    assert malformed.returncode == 2 and "salt must be hexadecimal" in malformed.stderr
    assert cli().returncode == 2 and "usage: sixshooter verify" in cli().stderr
