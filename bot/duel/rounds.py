"""Find the round a message speaks of, and the commitment the bot published for it.

A round's first bullet caption shows its commitment; its last bullet's reveal shows the salt and
the deck order (bot.duel.captions). Old messages cannot be fetched from Telegram, so the round is
found in the chat's duels: by its salt (written in the duel's log), or by its commitment. Only a
finished deal's proof is ever returned: a deal still in play keeps its deck to itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.storage import DuelRecord, Storage
from bot.storage.duels import STATES
from rules import fairness
from rules.duel import DealProof

SEARCH_DUELS = 50  # a commitment alone is looked for among the chat's latest duels


class Parts(Protocol):
    """What a message shows of a round's proof (`bot.fairness.verify.Parts`)."""

    @property
    def commitment(self) -> str | None: ...
    @property
    def salt(self) -> str | None: ...


@dataclass(frozen=True, slots=True)
class Published:
    duel_id: int
    proof: DealProof  # the commitment published before play, the salt and deck shown after


@dataclass(frozen=True, slots=True)
class InPlay:
    """The commitment of a deal not finished yet: nothing to check until it ends."""

    duel_id: int


def _find(record: DuelRecord, parts: Parts) -> Published | InPlay | None:
    view = STATES.parsed(record.id, record.state_json).public_view()
    for proof in view.proofs:
        if proof.salt == parts.salt or proof.commitment == parts.commitment:
            return Published(record.id, proof)
    if parts.commitment is not None and view.commitment == parts.commitment:
        return InPlay(record.id)
    return None


async def find_round(storage: Storage, chat_id: int, parts: Parts) -> Published | InPlay | None:
    """The round of `chat_id` that `parts` (read from a message) belong to, if any."""
    if parts.salt is not None:
        record = await storage.duels.with_salt(chat_id, parts.salt)
        if record is not None:
            found = _find(record, parts)
            if found is not None:
                return found
    if parts.commitment is not None:
        for record in await storage.duels.recent_in_chat(chat_id, SEARCH_DUELS):
            found = _find(record, parts)
            if found is not None:
                return found
    return None


@dataclass(frozen=True, slots=True)
class RoundCheck:
    """One deal of a duel, as /verify in reply to one of the duel's messages reports it."""

    round: int
    tiebreak_bullet: int | None  # the bullet number of a tiebreak deal, None for rounds 1-2
    commitment: str  # published before play (the header shows it)
    holds: bool | None  # does it match the salt and deck revealed after? None: in play
    shown: bool  # the message replied to shows this commitment, and it is this one


def rounds_of(record: DuelRecord, shown_text: str) -> list[RoundCheck]:
    """Every deal of the duel: each finished one checked (its published commitment against
    the salt and deck revealed when it ended), the one in play only named. A commitment the
    replied message shows is checked against the deal's too (`shown`)."""
    view = STATES.parsed(record.id, record.state_json).public_view()
    deals: list[tuple[int, str, DealProof | None]] = [(p.round, p.commitment, p)
                                                      for p in view.proofs]
    if view.commitment and (not deals or deals[-1][0] != view.round):
        deals.append((view.round, view.commitment, None))
    checks = []
    for round_, commitment, proof in deals:
        holds = None if proof is None else fairness.verify(commitment, proof.salt, proof.deck)
        bullet = (view.max_bullets + round_ - view.rounds if view.is_tiebreak_round(round_)
                  else None)
        checks.append(RoundCheck(round_, bullet, commitment, holds, commitment in shown_text))
    return checks
