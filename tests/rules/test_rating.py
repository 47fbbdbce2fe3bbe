"""rules.rating: Weng-Lin updates as the library computes them, by hand for a first duel,
symmetric, draws, the shown number and the provisional mark."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from rules import rating
from rules.rating import Rating


def _reference(a: Rating, b: Rating, ranks: list[int]) -> tuple[tuple[float, float], ...]:
    """The library's own model, called directly."""
    m = PlackettLuce()
    [[x], [y]] = m.rate([[m.rating(mu=a.mu, sigma=a.sigma)], [m.rating(mu=b.mu, sigma=b.sigma)]],
                        ranks=ranks)
    return (x.mu, x.sigma), (y.mu, y.sigma)


CASES = [
    (rating.initial(), rating.initial()),
    (Rating(30.0, 4.0, 12), Rating(22.0, 6.5, 3)),
    (Rating(18.5, 2.0, 40), Rating(35.0, 7.9, 1)),
]


@pytest.mark.parametrize(("a", "b"), CASES)
@pytest.mark.parametrize(("winner", "ranks"), [(0, [1, 2]), (1, [2, 1]), (None, [1, 1])])
def test_updates_match_the_librarys_model(a: Rating, b: Rating, winner: int | None,
                                          ranks: list[int]) -> None:
    na, nb = rating.after_duel(a, b, winner)  # type: ignore[arg-type]
    (amu, asig), (bmu, bsig) = _reference(a, b, ranks)
    assert (na.mu, na.sigma, nb.mu, nb.sigma) == pytest.approx((amu, asig, bmu, bsig), rel=1e-12)
    assert (na.duels, nb.duels) == (a.duels + 1, b.duels + 1)


def test_a_first_duel_by_hand() -> None:
    """Two newcomers (mu 25, sigma 25/3, beta 25/6, tau 1/12): each sigma first widens by tau,
    s^2 = (25/3)^2 + tau^2; then c = sqrt(2 s^2 + 2 beta^2), each wins with p = 1/2, so the
    winner gains s^2 / c * (1 - p) and the loser loses as much; both variances shrink by the
    factor 1 - (s / c) (s^2 / c^2) p (1 - p)."""
    win, loss = rating.after_duel(rating.initial(), rating.initial(), 0)
    s2 = (25 / 3) ** 2 + (1 / 12) ** 2
    c = math.sqrt(2 * s2 + 2 * (25 / 6) ** 2)
    step = s2 / c / 2
    sigma = math.sqrt(s2 * (1 - math.sqrt(s2) / c * s2 / c**2 / 4))
    assert win.mu == pytest.approx(25 + step, rel=1e-12)
    assert loss.mu == pytest.approx(25 - step, rel=1e-12)
    assert win.sigma == pytest.approx(sigma, rel=1e-12)
    assert loss.sigma == pytest.approx(sigma, rel=1e-12)
    assert (rating.shown(win), rating.shown(loss)) == (1069, 963)


def test_a_newcomer_shows_1000_and_is_provisional() -> None:
    r = rating.initial()
    assert (r.mu, r.sigma, r.duels) == (25.0, pytest.approx(25 / 3), 0)
    assert rating.shown(r) == 1000
    assert rating.provisional(r) and rating.label(r) == "1000?"


def test_provisional_until_five_duels() -> None:
    a, b = rating.initial(), rating.initial()
    for i in range(rating.PROVISIONAL):
        assert rating.provisional(a), i
        a, b = rating.after_duel(a, b, i % 2)  # type: ignore[arg-type]
    assert a.duels == 5 and not rating.provisional(a)
    assert rating.label(a) == str(rating.shown(a))


def test_a_draw_between_equals_moves_no_mean_but_narrows_both() -> None:
    a, b = rating.after_duel(rating.initial(), rating.initial(), None)
    assert a.mu == pytest.approx(25) and b.mu == pytest.approx(25)
    assert a.sigma < 25 / 3 and a.sigma == pytest.approx(b.sigma)


def test_a_draw_pulls_the_two_together() -> None:
    strong, weak = Rating(32.0, 3.0, 20), Rating(20.0, 3.0, 20)
    s, w = rating.after_duel(strong, weak, None)
    assert s.mu < strong.mu and w.mu > weak.mu


def test_an_upset_moves_more_than_an_expected_win() -> None:
    strong, weak = Rating(32.0, 3.0, 20), Rating(20.0, 3.0, 20)
    expected, _ = rating.after_duel(strong, weak, 0)
    _, upset = rating.after_duel(strong, weak, 1)
    assert upset.mu - weak.mu > expected.mu - strong.mu > 0


finite = st.floats(min_value=5, max_value=45)
spread = st.floats(min_value=0.5, max_value=9)


@given(finite, spread, finite, spread, st.sampled_from([0, 1, None]))
def test_symmetric_in_the_seats(amu: float, asig: float, bmu: float, bsig: float,
                                winner: int | None) -> None:
    a, b = Rating(amu, asig, 3), Rating(bmu, bsig, 7)
    na, nb = rating.after_duel(a, b, winner)  # type: ignore[arg-type]
    swapped = None if winner is None else 1 - winner
    sb, sa = rating.after_duel(b, a, swapped)  # type: ignore[arg-type]
    assert (na.mu, na.sigma) == pytest.approx((sa.mu, sa.sigma))
    assert (nb.mu, nb.sigma) == pytest.approx((sb.mu, sb.sigma))
    if winner == 0:
        assert na.mu > a.mu and nb.mu < b.mu
    elif winner == 1:
        assert na.mu < a.mu and nb.mu > b.mu


def test_bad_values_are_refused() -> None:
    with pytest.raises(ValueError):
        Rating(25.0, 0.0)
    with pytest.raises(ValueError):
        Rating(25.0, 1.0, -1)
    with pytest.raises(ValueError):
        rating.after_duel(rating.initial(), rating.initial(), 2)  # type: ignore[arg-type]
