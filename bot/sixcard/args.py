"""`/sixcard [boxes] [ante...]`: the arguments, read into the antes of the boxes.

    parse_args([])              -> (10,)
    parse_args(["2"])           -> (10, 10)
    parse_args(["2", "25"])     -> (25, 25)        one ante for every box
    parse_args(["2", "10", "25"]) -> (10, 25)      one ante per box

The limits (1 to 3 boxes, antes 1 to 100) are the rules' (`rules.sixcard`); a bad argument
raises `BadArgs`, whose `refusal` is the catalog key of its explanation and its values.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.common.refusal import Refusal, Refused
from rules.sixcard import MAX_ANTE, MAX_BOXES, MIN_ANTE

DEFAULT_ANTE = 10
DEFAULT_BOXES = 1
_NUMBER = re.compile(r"[0-9]{1,9}")


class BadArgs(Refused):
    """An argument the command cannot use; its refusal is the catalog text that explains it."""

    def __init__(self, key: str, **values: object) -> None:
        super().__init__(Refusal.of(key, **values))


def _number(text: str) -> int:
    if not _NUMBER.fullmatch(text):
        raise BadArgs("sixcard.error_number", arg=text[:20])
    return int(text)


def parse_args(args: Sequence[str]) -> tuple[int, ...]:
    """The antes of the boxes to play (one per box), or BadArgs."""
    if not args:
        return (DEFAULT_ANTE,) * DEFAULT_BOXES
    boxes = _number(args[0])
    if not 1 <= boxes <= MAX_BOXES:
        raise BadArgs("sixcard.error_boxes", boxes=boxes, most=MAX_BOXES)
    antes = [_number(a) for a in args[1:]]
    for ante in antes:
        if not MIN_ANTE <= ante <= MAX_ANTE:
            raise BadArgs("sixcard.error_ante", ante=ante, low=MIN_ANTE, high=MAX_ANTE)
    if not antes:
        return (DEFAULT_ANTE,) * boxes
    if len(antes) == 1:
        return (antes[0],) * boxes
    if len(antes) != boxes:
        raise BadArgs("sixcard.error_ante_count", boxes=boxes, antes=len(antes))
    return tuple(antes)
