"""The numpy batch path: every input it takes, chunks and flushes, six cards, all checked
against single calls (the exhaustive 2,598,960-hand checks are in test_hands.py)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from rules.cards import CARDS, parse_cards
from rules.hand_batch import evaluate6_batch, evaluate_batch
from rules.hands import Category, HandSizeError, HandValue, evaluate


def v(text: str) -> HandValue:
    return evaluate(parse_cards(text))


def test_batch_inputs() -> None:
    rows = [[c.index for c in parse_cards(t)] for t in ("As Ks Qs Js Ts", "5s 5d 4c 3h 2s")]
    expected = [v("As Ks Qs Js Ts").strength, v("5s 5d 4c 3h 2s").strength]
    for dtype in (np.uint8, np.int8, np.int16, np.uint16, np.int32, np.int64, np.uint64, ">i4"):
        out = evaluate_batch(np.array(rows, dtype=dtype))
        assert out.dtype == np.uint16 and out.tolist() == expected
    assert evaluate_batch(rows).tolist() == expected  # a plain list works too
    assert evaluate_batch(np.array(rows)[:, ::-1]).tolist() == expected  # strided, reversed
    assert evaluate_batch(np.zeros((0, 5), np.uint8)).shape == (0,)
    with pytest.raises(HandSizeError):
        evaluate_batch(np.zeros((3, 6), np.uint8))
    with pytest.raises(HandSizeError):
        evaluate_batch(np.zeros(5, np.uint8))
    for bad in ([[0, 1, 2, 3, 52]], [[0, 1, 2, 3, -1]], np.array([[0, 1, 2, 3, 300]])):
        with pytest.raises(ValueError):
            evaluate_batch(bad)
    with pytest.raises(TypeError):
        evaluate_batch(np.zeros((1, 5), np.float64))


def test_batch_chunks_and_flushes_match_single_calls() -> None:
    rng = np.random.default_rng(3)
    n = 40_000  # more than one chunk
    hands5 = rng.random((n, 52)).argsort(axis=1)[:, :5]
    # make a quarter of them flushes of one suit: that path is otherwise rare
    hands5[: n // 4] = rng.random((n // 4, 13)).argsort(axis=1)[:, :5] * 4 + 2
    got = evaluate_batch(hands5)
    want = [evaluate([CARDS[i] for i in row]).strength for row in hands5.tolist()]
    assert got.tolist() == want


def test_six_card_batch_matches_single_calls() -> None:
    rng = np.random.default_rng(4)
    n = 40_000
    hands6 = rng.random((n, 52)).argsort(axis=1)[:, :6]
    hands6[: n // 8] = rng.random((n // 8, 13)).argsort(axis=1)[:, :6] * 4 + 1  # six suited
    hands6[n // 8 : n // 4, :5] = rng.random((n // 8, 13)).argsort(axis=1)[:, :5] * 4 + 3
    hands6[n // 8 : n // 4, 5] = rng.integers(0, 13, n // 8) * 4  # five suited and one not
    got = evaluate6_batch(hands6)
    want = [evaluate([CARDS[i] for i in row]).strength for row in hands6.tolist()]
    assert got.tolist() == want
    assert Counter(HandValue.from_strength(s).category for s in got[: n // 4].tolist()).keys() \
        <= {Category.FLUSH, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH}
