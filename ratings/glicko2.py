"""Glicko-2, as in Glickman's "Example of the Glicko-2 system": pure Python, no Django.

One call to :func:`rate` is one rating period for one player. The volatility is found with
the Illinois iteration of the paper (tolerance ``EPSILON``). RD is not capped inside
``rate``; the site's cap of 350 applies only to the growth with inactivity before a match
(:func:`rd_after_inactivity`).

>>> new = rate(Rating(1500, 200, 0.06), [(Rating(1400, 30, 0.06), 1.0),
...                                      (Rating(1550, 100, 0.06), 0.0),
...                                      (Rating(1700, 300, 0.06), 0.0)])
>>> round(new.rating, 2), round(new.rd, 2), round(new.volatility, 6)
(1464.05, 151.52, 0.059996)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: Ratings shown to members are on the Glicko scale; the maths runs on the Glicko-2 scale.
SCALE = 173.7178
START_RATING = 1500.0
START_RD = 350.0
START_VOLATILITY = 0.06
TAU = 0.5
EPSILON = 0.000001
#: RD above this marks a rating as provisional ("?" shown, left out of leaderboards).
PROVISIONAL_RD = 110.0
#: The most RD can grow to through inactivity (a new player's RD).
MAX_RD = START_RD
#: c in RD = min(350, sqrt(RD² + c²·d)), d in days: a settled RD of 50 grows back to 350
#: after five years without a rated match on the scale, c = sqrt((350² - 50²) / 1825) ≈ 8.11.
#: With it a member who plays a rated match every two weeks keeps an established rating
#: (RD settles near 106), and a settled RD of 60 turns provisional after about four months.
INACTIVITY_YEARS = 5
INACTIVITY_C = math.sqrt((MAX_RD**2 - 50.0**2) / (365.0 * INACTIVITY_YEARS))


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating, rating deviation (RD) and volatility, on the Glicko scale."""

    rating: float = START_RATING
    rd: float = START_RD
    volatility: float = START_VOLATILITY

    @property
    def provisional(self) -> bool:
        """True while the rating is not yet established (RD above ``PROVISIONAL_RD``)."""
        return self.rd > PROVISIONAL_RD


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, g_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-g_j * (mu - mu_j)))


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of the paper: the Illinois (regula falsi) iteration on ln(sigma²)."""
    a = math.log(sigma * sigma)
    phi2 = phi * phi
    delta2 = delta * delta
    tau2 = tau * tau

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / tau2

    big_a = a
    if delta2 > phi2 + v:
        big_b = math.log(delta2 - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a = f(big_a)
    f_b = f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Rating, results: list[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """One Glicko-2 rating period for ``player`` against ``results`` (opponent, score).

    Scores are from the player's side: 1 a win, 0 a loss, anything between for partial
    results. Opponents are taken at their pre-period values. With no results only RD grows,
    by the volatility (step 6 of the paper); rating and volatility stay.

    >>> rate(Rating(1500, 350, 0.06), []).rd > 350
    True
    """
    mu = (player.rating - START_RATING) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not results:
        return Rating(player.rating, math.sqrt(phi * phi + sigma * sigma) * SCALE, sigma)

    v_inverse = 0.0
    improvement = 0.0
    for opponent, score in results:
        mu_j = (opponent.rating - START_RATING) / SCALE
        g_j = _g(opponent.rd / SCALE)
        e_j = _expected(mu, mu_j, g_j)
        v_inverse += g_j * g_j * e_j * (1.0 - e_j)
        improvement += g_j * (score - e_j)
    v = 1.0 / v_inverse
    delta = v * improvement

    sigma_new = _new_volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * improvement
    return Rating(mu_new * SCALE + START_RATING, phi_new * SCALE, sigma_new)


def rd_after_inactivity(rd: float, days: float, c: float = INACTIVITY_C) -> float:
    """RD grown by ``days`` without a rated match on the scale, capped at ``MAX_RD``.

    >>> rd_after_inactivity(50.0, 5 * 365.0)
    350.0
    >>> rd_after_inactivity(80.0, 0.0)
    80.0
    """
    return min(MAX_RD, math.sqrt(rd * rd + c * c * max(days, 0.0)))
