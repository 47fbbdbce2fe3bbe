"""The casino's storage: balances that never go negative and are never spent twice, the stake
taken once however many starts race, rebuys once a day, and settlements written with the
finishing save or not at all."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.common.live import REPEATED
from bot.services import Services
from bot.sixcard.service import (
    CANNOT_AFFORD,
    NOT_PLAYER,
    OVER,
    STALE,
    Applied,
    Busy,
    Unaffordable,
    abandon,
    act,
    rebuy,
    start_game,
)
from bot.storage import GameStatus, Storage, StorageError
from bot.storage.balances import (
    REBUY_EVERY,
    START_BALANCE,
    BalanceError,
    BalanceRepo,
    RebuyRefusal,
)
from bot.storage.sixcard import Created, SixCardRecord, SixCardRepo
from rules.sixcard import Buy, DealerGame, Fold, Play, SixAction, SixCardGame

T0 = 1_700_000_000
CHAT, OTHER_CHAT = -100500, -100600
ALICE, BOB = 101, 202


class Clock:
    def __init__(self, now: int = T0) -> None:
        self.now = now

    def __call__(self) -> int:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def svc(store: Storage, clock: Clock) -> Services:
    return Services(storage=store, rng=random.Random(7), clock=clock)


@pytest.fixture
def balances(store: Storage) -> BalanceRepo:
    return BalanceRepo(store.db)


@pytest.fixture
def sixcard(store: Storage) -> SixCardRepo:
    return SixCardRepo(store.db)


async def set_balance(store: Storage, chat: int, user: int, chips: int) -> None:
    await BalanceRepo(store.db).balance(chat, user, now=T0)
    await store.db.execute("UPDATE balances SET balance = ? WHERE chat_id = ? AND user_id = ?",
                           (chips, chat, user))


async def chips(balances: BalanceRepo, chat: int = CHAT, user: int = ALICE) -> int:
    record = await balances.get_balance(chat, user)
    assert record is not None
    return record.balance


async def play_out(svc: Services, record: SixCardRecord, policy: random.Random) -> SixCardRecord:
    """Random legal moves until the game is over; the stored balance follows the game's."""
    repo = svc.storage.balances
    while record.is_live:
        game = SixCardGame.from_json(record.state_json)
        action: SixAction = policy.choice(game.legal_actions())
        outcome = await act(svc, record.id, record.version, record.user_id, action)
        assert isinstance(outcome, Applied), outcome
        record = outcome.record
        assert await chips(repo, record.chat_id, record.user_id) == outcome.state.balance
    return record


# --- balances ------------------------------------------------------------------------------


async def test_a_balance_opens_at_the_start_amount_per_chat(balances: BalanceRepo) -> None:
    first = await balances.balance(CHAT, ALICE, now=T0)
    assert (first.balance, first.rebuys, first.games, first.net) == (START_BALANCE, 0, 0, 0)
    assert (await balances.balance(CHAT, ALICE, now=T0 + 5)) == first  # opened once
    assert (await balances.balance(OTHER_CHAT, ALICE, now=T0)).balance == START_BALANCE
    assert await balances.get_balance(CHAT, BOB) is None


async def test_the_schema_refuses_a_negative_balance(store: Storage, balances: BalanceRepo) -> None:
    await balances.balance(CHAT, ALICE, now=T0)
    with pytest.raises(StorageError, match=r"(?i)check"):
        await store.db.execute("UPDATE balances SET balance = -1 WHERE user_id = ?", (ALICE,))
    assert await chips(balances) == START_BALANCE


async def test_a_save_that_would_overdraw_writes_nothing(
        svc: Services, balances: BalanceRepo, sixcard: SixCardRepo) -> None:
    record = await start_game(svc, CHAT, None, ALICE, (10,))
    assert isinstance(record, SixCardRecord)
    left = await chips(balances)
    with pytest.raises(BalanceError):
        await sixcard.save_game(record, record.version, '{"forged": 1}', moved=-(left + 1), now=T0)
    after = await sixcard.get(record.id)
    assert after == record  # neither the state nor the version moved
    assert await chips(balances) == left


# --- the stake: taken once, with the game ---------------------------------------------------


async def test_starting_takes_the_stake_with_the_game(svc: Services, balances: BalanceRepo) -> None:
    record = await start_game(svc, CHAT, 7, ALICE, (10, 20, 30))
    assert isinstance(record, SixCardRecord)
    assert (record.status, record.version, record.thread_id) == (GameStatus.LIVE, 0, 7)
    stake = SixCardGame.stake((10, 20, 30))
    assert stake == 10 + 20 + 30 + 60
    game = SixCardGame.from_json(record.state_json)
    assert game.start_balance == START_BALANCE and game.balance == START_BALANCE - stake
    assert await chips(balances) == START_BALANCE - stake


async def test_one_live_game_per_player_per_chat(svc: Services, balances: BalanceRepo) -> None:
    first = await start_game(svc, CHAT, None, ALICE, (10,))
    assert isinstance(first, SixCardRecord)
    again = await start_game(svc, CHAT, None, ALICE, (5,))
    assert again == Busy(first)
    assert isinstance(await start_game(svc, OTHER_CHAT, None, ALICE, (10,)), SixCardRecord)
    assert isinstance(await start_game(svc, CHAT, None, BOB, (10,)), SixCardRecord)
    assert await chips(balances) == START_BALANCE - 10  # the refused start took nothing


async def test_racing_starts_take_the_stake_once(
        svc: Services, balances: BalanceRepo, sixcard: SixCardRepo) -> None:
    results = await asyncio.gather(*(start_game(svc, CHAT, None, ALICE, (25, 25))
                                     for _ in range(12)))
    games = [r for r in results if isinstance(r, SixCardRecord)]
    assert len(games) == 1
    assert all(r == Busy(games[0]) for r in results if r is not games[0])
    assert await chips(balances) == START_BALANCE - 50
    rows = await sixcard.db.fetchall("SELECT id FROM sixcard_games WHERE user_id = ?", (ALICE,))
    assert len(rows) == 1


async def test_a_create_on_a_changed_balance_is_refused(
        balances: BalanceRepo, sixcard: SixCardRepo) -> None:
    seen = await balances.balance(CHAT, ALICE, now=T0)
    won = await sixcard.create(CHAT, None, ALICE, "{}", stake=30,
                                 balance_version=seen.version, now=T0)
    assert isinstance(won, SixCardRecord)
    await sixcard.save_game(won, 0, "{}", moved=0, finished_net=-30, now=T0)
    # A second start built on the balance read before the first one took its stake.
    lost = await sixcard.create(CHAT, None, ALICE, "{}", stake=30,
                                  balance_version=seen.version, now=T0)
    assert lost is Created.CHANGED
    assert await chips(balances) == START_BALANCE - 30


async def test_a_stake_beyond_the_balance_is_refused(
        svc: Services, store: Storage, balances: BalanceRepo, sixcard: SixCardRepo) -> None:
    await set_balance(store, CHAT, ALICE, 89)  # the stake (50) yes, every box's BET (90) no
    refused = await start_game(svc, CHAT, None, ALICE, (10, 10, 10))
    assert refused == Unaffordable(need=90, balance=89)
    assert await start_game(svc, CHAT, None, ALICE, (30,)) == Unaffordable(90, 89)
    assert await chips(balances) == 89
    assert await sixcard.live_game(CHAT, ALICE) is None


# --- actions: each save moves its chips --------------------------------------------------------


async def test_every_action_moves_its_chips_with_its_save(
        svc: Services, balances: BalanceRepo) -> None:
    for seed in range(6):
        record = await start_game(svc, CHAT, None, ALICE, (10, 20, 5)[: seed % 3 + 1])
        assert isinstance(record, SixCardRecord)
        before = await chips(balances) + SixCardGame.from_json(record.state_json).money.paid_in
        done = await play_out(svc, record, random.Random(seed))
        game = SixCardGame.from_json(done.state_json)
        assert done.status is GameStatus.FINISHED and done.net == game.money.net
        assert await chips(balances) == before + game.money.net == game.balance
    balance = await balances.get_balance(CHAT, ALICE)
    assert balance is not None and balance.games == 6
    assert balance.balance == START_BALANCE + balance.net


async def test_refusals_change_nothing(svc: Services, store: Storage, sixcard: SixCardRepo) -> None:
    record = await start_game(svc, CHAT, None, ALICE, (10,))
    assert isinstance(record, SixCardRecord)
    assert await act(svc, record.id, record.version, BOB, Play()) == NOT_PLAYER
    assert await act(svc, record.id, record.version + 1, ALICE, Play()) == STALE
    assert await act(svc, record.id + 99, 0, ALICE, Play()) == STALE
    played = await act(svc, record.id, record.version, ALICE, Fold())
    assert isinstance(played, Applied) and played.state.is_over
    # the fold pressed twice: the second is the move just made, answered quietly
    assert await act(svc, record.id, record.version, ALICE, Fold()) is REPEATED
    assert await act(svc, record.id, record.version, ALICE, Play()) == OVER
    assert await act(svc, record.id, played.record.version, ALICE, Fold()) == OVER
    assert await sixcard.get(record.id) == played.record


async def test_an_unaffordable_tap_is_refused(
        svc: Services, store: Storage, balances: BalanceRepo, sixcard: SixCardRepo) -> None:
    await set_balance(store, CHAT, ALICE, 30)
    record = await start_game(svc, CHAT, None, ALICE, (10,))
    assert isinstance(record, SixCardRecord)
    # 20 left: a sixth card (10) would leave too little for the bet (20).
    assert await act(svc, record.id, 0, ALICE, Buy()) == CANNOT_AFFORD
    assert await chips(balances) == 20 and (await sixcard.get(record.id)) == record


async def test_a_press_parses_its_state_once(svc: Services, sixcard: SixCardRepo,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The rules' move is applied to one parse; the save, the balance's move and the message
    drawn next read the states kept (issue 35: it parsed three times)."""
    record = await start_game(svc, CHAT, None, ALICE, (10, 10))
    assert isinstance(record, SixCardRecord)
    parse = SixCardGame.from_json
    parses: list[str] = []

    def counted(text: str) -> SixCardGame:
        parses.append(text)
        return parse(text)

    monkeypatch.setattr(SixCardGame, "from_json", staticmethod(counted))
    monkeypatch.setattr(sixcard.states, "parse", counted)  # the cache's, bound at import
    outcome = await act(svc, record.id, 0, ALICE, Play())
    assert isinstance(outcome, Applied) and len(parses) == 1
    assert sixcard.state(outcome.record) is outcome.state  # what its message is drawn from
    assert len(parses) == 1


async def test_a_double_tap_applies_once(svc: Services, balances: BalanceRepo) -> None:
    record = await start_game(svc, CHAT, None, ALICE, (10, 10))
    assert isinstance(record, SixCardRecord)
    outcomes = await asyncio.gather(*(act(svc, record.id, 0, ALICE, Play()) for _ in range(5)))
    applied = [o for o in outcomes if isinstance(o, Applied)]
    assert len(applied) == 1
    # the others are refused: out of date, or (read after the first was saved) the move just
    # made, answered quietly
    assert outcomes.count(STALE) + outcomes.count(REPEATED) == 4
    assert await chips(balances) == START_BALANCE - 20 - 20
    # Pressed again after it was saved: the move it made, answered quietly; another move
    # pressed on that old version is out of date.
    assert await act(svc, record.id, 0, ALICE, Play()) is REPEATED
    assert await act(svc, record.id, 0, ALICE, Fold()) == STALE
    assert await chips(balances) == START_BALANCE - 20 - 20


# --- the settlement: with the finishing save, or not at all ------------------------------------


async def test_the_settlement_is_written_with_the_finishing_save(
        svc: Services, balances: BalanceRepo, sixcard: SixCardRepo) -> None:
    record = await start_game(svc, CHAT, None, ALICE, (10,))
    assert isinstance(record, SixCardRecord)
    game = SixCardGame.from_json(record.state_json)
    before = game.balance
    game.apply(Play())
    if not game.is_over:  # the dealer has no game: take the ante 1:1
        game.apply(DealerGame(False))
    assert game.is_over
    moved, net = game.balance - before, game.money.net
    # A save on a stale version loses, and the payout goes with it.
    assert await sixcard.save_game(record, record.version + 1, game.to_json(), moved=moved,
                                finished_net=net, now=T0) is None
    assert await chips(balances) == before
    assert (await balances.get_balance(CHAT, ALICE)).games == 0  # type: ignore[union-attr]
    version = await sixcard.save_game(record, record.version, game.to_json(), moved=moved,
                                   finished_net=net, now=T0)
    assert version == 1
    saved = await sixcard.get(record.id)
    assert saved is not None and saved.status is GameStatus.FINISHED and saved.net == net
    balance = await balances.get_balance(CHAT, ALICE)
    assert balance is not None
    assert (balance.balance, balance.games, balance.net) == (game.balance, 1, net)
    # Saving the same finish again changes nothing.
    assert await sixcard.save_game(record, record.version, game.to_json(), moved=moved,
                                finished_net=net, now=T0) is None
    assert await chips(balances) == game.balance


async def test_a_failed_settlement_leaves_the_game_live(
        svc: Services, balances: BalanceRepo, sixcard: SixCardRepo) -> None:
    record = await start_game(svc, CHAT, None, ALICE, (10,))
    assert isinstance(record, SixCardRecord)
    with pytest.raises(BalanceError):
        await sixcard.save_game(record, 0, "{}", moved=-10**6, finished_net=-10**6, now=T0)
    assert await sixcard.get(record.id) == record
    balance = await balances.get_balance(CHAT, ALICE)
    assert balance is not None and (balance.games, balance.net) == (0, 0)


async def test_abandoning_gives_back_what_the_game_took(
        svc: Services, balances: BalanceRepo, sixcard: SixCardRepo) -> None:
    record = await start_game(svc, CHAT, None, ALICE, (10, 10))
    assert isinstance(record, SixCardRecord)
    bought = await act(svc, record.id, 0, ALICE, Buy())
    assert isinstance(bought, Applied)
    assert await chips(balances) == START_BALANCE - 30
    await abandon(svc, bought.record)
    assert await chips(balances) == START_BALANCE
    gone = await sixcard.get(record.id)
    assert gone is not None and gone.status is GameStatus.ABANDONED
    await abandon(svc, bought.record)  # twice: still given back once
    assert await chips(balances) == START_BALANCE


# --- rebuys ------------------------------------------------------------------------------------


async def bust(svc: Services, store: Storage) -> None:
    """Alice has lost her whole balance in the chat."""
    await svc.storage.balances.balance(CHAT, ALICE, now=T0)
    await store.db.execute("UPDATE balances SET balance = 0 WHERE chat_id = ? AND user_id = ?",
                           (CHAT, ALICE))


async def test_rebuy_once_a_day_at_zero(
        svc: Services, store: Storage, clock: Clock, balances: BalanceRepo) -> None:
    refused = await rebuy(svc, CHAT, ALICE)
    assert refused.refusal is RebuyRefusal.NOT_ZERO and refused.balance.balance == START_BALANCE
    await bust(svc, store)
    first = await rebuy(svc, CHAT, ALICE)
    assert first.done and first.balance.balance == START_BALANCE and first.balance.rebuys == 1
    assert first.balance.last_rebuy_at == T0
    again = await rebuy(svc, CHAT, ALICE)
    assert again.refusal is RebuyRefusal.NOT_ZERO  # not twice
    await bust(svc, store)
    clock.now = T0 + 3600
    soon = await rebuy(svc, CHAT, ALICE)
    assert soon.refusal is RebuyRefusal.TOO_SOON and soon.wait == REBUY_EVERY - 3600
    assert await chips(balances) == 0
    clock.now = T0 + REBUY_EVERY - 1
    assert (await rebuy(svc, CHAT, ALICE)).wait == 1
    clock.now = T0 + REBUY_EVERY
    second = await rebuy(svc, CHAT, ALICE)
    assert second.done and second.balance.rebuys == 2 and second.balance.last_rebuy_at == (
        clock.now)
    # Per chat: Alice's rebuy here is no rebuy elsewhere.
    other = await balances.balance(OTHER_CHAT, ALICE, now=clock.now)
    assert other.rebuys == 0


async def test_no_rebuy_while_a_game_holds_stakes(
        svc: Services, store: Storage, balances: BalanceRepo) -> None:
    await set_balance(store, CHAT, ALICE, 30)
    record = await start_game(svc, CHAT, None, ALICE, (10,))
    assert isinstance(record, SixCardRecord) and await chips(balances) == 20
    assert (await rebuy(svc, CHAT, ALICE)).refusal is RebuyRefusal.IN_PLAY
    folded = await act(svc, record.id, 0, ALICE, Fold())  # the ante is lost: 20 left
    assert isinstance(folded, Applied) and folded.state.is_over
    assert (await rebuy(svc, CHAT, ALICE)).refusal is RebuyRefusal.NOT_ZERO


async def test_racing_rebuys_give_once(
        svc: Services, store: Storage, balances: BalanceRepo) -> None:
    await bust(svc, store)
    outcomes = await asyncio.gather(*(rebuy(svc, CHAT, ALICE) for _ in range(8)))
    assert sum(o.done for o in outcomes) == 1
    balance = await balances.get_balance(CHAT, ALICE)
    assert balance is not None and (balance.balance, balance.rebuys) == (START_BALANCE, 1)


async def test_a_chat_that_throws_the_bot_out_gets_its_six_card_stakes_back(
        svc: Services, balances: BalanceRepo, sixcard: SixCardRepo) -> None:
    from bot import duel, tournament
    from bot import sixcard as sixcard_feature
    from bot.common.chats import forget_chat

    # the app's chat games, as its start gives them
    svc.chat_games[:] = [duel.CHAT_GAMES, sixcard_feature.CHAT_GAMES, tournament.CHAT_GAMES]
    game = await start_game(svc, CHAT, None, ALICE, (10, 10, 10))
    assert isinstance(game, SixCardRecord)
    other = await start_game(svc, OTHER_CHAT, None, ALICE, (5,))
    assert isinstance(other, SixCardRecord)
    assert await chips(balances) == START_BALANCE - 50  # three antes and box 3's blind bet
    await forget_chat(svc, CHAT)
    assert await chips(balances) == START_BALANCE
    gone = await sixcard.get(game.id)
    assert gone is not None and gone.status is GameStatus.ABANDONED
    still = await sixcard.get(other.id)  # another chat's game is not touched
    assert still is not None and still.status is GameStatus.LIVE
    assert await chips(balances, OTHER_CHAT) == START_BALANCE - 5
